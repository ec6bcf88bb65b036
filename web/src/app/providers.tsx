// App-wide context: data fetching (TanStack Query + tRPC), the MUI theme and the toasts
// (spec: bottom-right, 5 s, a 'Notifications' region reached with Alt+T).
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { createQueryClient } from '../shared/query-client';
import { sessionStore } from '../shared/session/use-session-store';
import { createMuiTheme } from '../shared/theme/mui-theme';
import { useThemeStore } from '../shared/theme/use-theme-store';
import { createTrpcClient, TRPCProvider } from '../shared/trpc';

export function AppProviders({ children }: { children: ReactNode }) {
  // Created once per mounted app, not per render, so caches survive re-renders.
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  const mode = useThemeStore((state) => state.mode);
  // What one owner's queries cached must never show to the next owner signing in on this tab.
  useEffect(
    () =>
      sessionStore.subscribe((state, previous) => {
        if (state.event === 'SIGNED_OUT' && previous.event !== 'SIGNED_OUT') queryClient.clear();
      }),
    [queryClient],
  );
  const muiTheme = useMemo(() => createMuiTheme(mode), [mode]);

  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <ThemeProvider theme={muiTheme}>
          {/* enableColorScheme sets `color-scheme`, so scrollbars and form controls follow the mode. */}
          <CssBaseline enableColorScheme />
          {children}
          <Toaster position="bottom-right" duration={5_000} hotkey={['altKey', 'KeyT']} containerAriaLabel="Notifications" theme={mode} closeButton />
        </ThemeProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
