// The dark/light switch shown in navigation bars.
import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import { Stack, Switch } from '@mui/material';
import { useThemeStore } from './use-theme-store';

export function ThemeSwitch() {
  const mode = useThemeStore((state) => state.mode);
  const toggleMode = useThemeStore((state) => state.toggleMode);

  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <LightModeOutlined fontSize="small" aria-hidden />
      <Switch
        size="small"
        checked={mode === 'dark'}
        onChange={toggleMode}
        slotProps={{ input: { 'aria-label': 'Dark mode' } }}
      />
      <DarkModeOutlined fontSize="small" aria-hidden />
    </Stack>
  );
}
