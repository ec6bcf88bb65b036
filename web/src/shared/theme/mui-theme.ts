// The MUI theme for one mode. Brand colours live here so every page agrees on them.
import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './theme-store';

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
  });
}
