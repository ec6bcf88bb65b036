// Layout route of the pages that read from the server (the dashboard and the agent pages):
// TanStack Query and the tRPC client. Its own chunk, so the public pages never download them.
// The clients are made once, when this chunk first loads, and outlive the layout: leaving the
// dashboard for the docs and coming back finds the cache as it was.
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { createQueryClient } from '../shared/query-client';
import { sessionStore } from '../shared/session/use-session-store';
import { createTrpcClient, TRPCProvider } from '../shared/trpc';

export const queryClient = createQueryClient();
const trpcClient = createTrpcClient();

// What one owner's queries cached must never show to the next owner signing in on this tab.
sessionStore.subscribe((state, previous) => {
  if (state.event === 'SIGNED_OUT' && previous.event !== 'SIGNED_OUT') queryClient.clear();
});

export function DataLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <Outlet />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
