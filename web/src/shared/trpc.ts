// The typed tRPC client for the server's /trpc endpoint, and the React hooks over it.
// Only the router's type crosses the workspace boundary; no server code is bundled.
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '@purser/server';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function createTrpcClient() {
  return createTRPCClient<AppRouter>({
    // Same origin, so the session cookie goes along without extra fetch options.
    // Subscriptions (realtime.*) stream over server-sent events; the rest is batched HTTP.
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: '/trpc' }),
        false: httpBatchLink({ url: '/trpc' }),
      }),
    ],
  });
}
