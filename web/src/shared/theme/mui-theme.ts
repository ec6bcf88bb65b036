// The MUI theme for one mode. Brand colours live here so every page agrees on them, and so do
// the app-wide component defaults (spec section 9).
import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './theme-store';

/** Spec section 9: a tooltip opens 700 ms after the pointer or focus arrives... */
export const TOOLTIP_OPEN_DELAY_MS = 700;
/**
 * ...and skips that wait (the spec's 300 ms "skip delay") when the pointer moves on from a
 * tooltip that was just open. MUI has no setting for the length of that window: after a tooltip
 * closes, it treats the next one as "recent" for a fixed 800 ms (plus leaveDelay) and opens it
 * after `enterNextDelay` instead of `enterDelay`. The closest match is therefore enterNextDelay
 * 0 with leaveDelay 0: moving along a row of icon buttons shows each tooltip at once, as the
 * skip delay intends; the window is 800 ms rather than 300 ms, which only means a slightly
 * slower hop also counts as moving along.
 */
export const TOOLTIP_NEXT_OPEN_DELAY_MS = 0;
export const TOOLTIP_CLOSE_DELAY_MS = 0;

export function createMuiTheme(mode: ThemeMode): Theme {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#818cf8' : '#4f46e5' },
      secondary: { main: mode === 'dark' ? '#2dd4bf' : '#0d9488' },
      background:
        mode === 'dark'
          ? { default: '#0b1020', paper: '#121833' }
          : { default: '#f8fafc', paper: '#ffffff' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiTooltip: {
        defaultProps: {
          enterDelay: TOOLTIP_OPEN_DELAY_MS,
          enterNextDelay: TOOLTIP_NEXT_OPEN_DELAY_MS,
          leaveDelay: TOOLTIP_CLOSE_DELAY_MS,
        },
      },
    },
  });
}
