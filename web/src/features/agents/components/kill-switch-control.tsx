// The kill switch's place in the console's top bar: "Pause all agents" while agents run, a
// "Agents paused" chip while the switch holds them (the banner under the bar has Resume).
import PauseCircleOutlineRounded from '@mui/icons-material/PauseCircleOutlineRounded';
import { Button, Chip } from '@mui/material';
import { darken } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../shared/trpc';

interface Props {
  /** Opens the confirmation (KillSwitchDialog), which the bar keeps outside its menu. */
  onPause: () => void;
  fullWidth?: boolean;
}

export function KillSwitchControl({ onPause, fullWidth = false }: Props) {
  const trpc = useTRPC();
  const state = useQuery(trpc.agents.killSwitch.queryOptions());

  if (state.data?.paused) {
    return (
      <Chip
        icon={<PauseCircleOutlineRounded />}
        label="Agents paused"
        variant="outlined"
        data-testid="kill-switch-paused"
        sx={(theme) => {
          // warning.dark is still too faint for small text on white (axe, 4.5:1).
          const color = theme.palette.mode === 'dark' ? theme.palette.warning.light : darken(theme.palette.warning.main, 0.4);
          return { color, borderColor: color, fontWeight: 700, '& .MuiChip-icon': { color } };
        }}
      />
    );
  }
  return (
    <Button
      variant="outlined"
      color="error"
      size="small"
      startIcon={<PauseCircleOutlineRounded />}
      onClick={onPause}
      fullWidth={fullWidth}
      sx={{ whiteSpace: 'nowrap' }}
    >
      Pause all agents
    </Button>
  );
}
