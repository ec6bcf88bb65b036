// A status word with a coloured icon. The colour is on the icon only: the text stays in the
// theme's text colour, so it keeps its contrast whatever the state.
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import ErrorRounded from '@mui/icons-material/ErrorRounded';
import HelpRounded from '@mui/icons-material/HelpRounded';
import WarningRounded from '@mui/icons-material/WarningRounded';
import { Box, Typography } from '@mui/material';
import type { ServiceState } from '../utils/service-status';

export const STATE_LABELS: Record<ServiceState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  outage: 'Outage',
  unknown: 'Unknown',
};

export const STATE_COLORS: Record<ServiceState, 'success.main' | 'warning.main' | 'error.main' | 'text.disabled'> = {
  operational: 'success.main',
  degraded: 'warning.main',
  outage: 'error.main',
  unknown: 'text.disabled',
};

const ICONS = { operational: CheckCircleRounded, degraded: WarningRounded, outage: ErrorRounded, unknown: HelpRounded };

export function StateIndicator({ state, label = STATE_LABELS[state] }: { state: ServiceState; label?: string }) {
  const Icon = ICONS[state];
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, whiteSpace: 'nowrap' }}>
      <Icon aria-hidden sx={{ fontSize: 18, color: STATE_COLORS[state] }} />
      <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
        {label}
      </Typography>
    </Box>
  );
}
