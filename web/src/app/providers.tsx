// App-wide context: the MUI theme and the toasts (spec: bottom-right, 5 s, a 'Notifications'
// region reached with Alt+T). The data layer (TanStack Query + tRPC) is not here: only the
// dashboard pages read from the server, so it lives in their layout route (data-layout.tsx)
// and the public pages do not download it.
import { CssBaseline, ThemeProvider } from '@mui/material';
import { useMemo, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { createMuiTheme } from '../shared/theme/mui-theme';
import { useThemeStore } from '../shared/theme/use-theme-store';

/** Spec section 9. */
const TOASTER_OPTIONS = {
  position: 'bottom-right',
  duration: 5_000,
  hotkey: ['altKey', 'KeyT'],
  containerAriaLabel: 'Notifications',
  // Above the assistant's round button (56 px, 24 px from the corner; 16 px on phones).
  offset: { right: 24, bottom: 24 + 56 + 16 },
  mobileOffset: { right: 16, bottom: 16 + 56 + 16 },
} as const;

export function AppProviders({ children }: { children: ReactNode }) {
  const mode = useThemeStore((state) => state.mode);
  const muiTheme = useMemo(() => createMuiTheme(mode), [mode]);

  return (
    <ThemeProvider theme={muiTheme}>
      {/* enableColorScheme sets `color-scheme`, so scrollbars and form controls follow the mode. */}
      <CssBaseline enableColorScheme />
      {children}
      <Toaster {...TOASTER_OPTIONS} hotkey={[...TOASTER_OPTIONS.hotkey]} theme={mode} closeButton />
    </ThemeProvider>
  );
}
