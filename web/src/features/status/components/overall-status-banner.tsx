// The status page's headline badge: 'All systems operational', or what is wrong, with the
// time of the last report and a way to check again now.
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import CloudOffRounded from '@mui/icons-material/CloudOffRounded';
import ErrorRounded from '@mui/icons-material/ErrorRounded';
import WarningRounded from '@mui/icons-material/WarningRounded';
import { Box, Button, CircularProgress, Paper, Typography } from '@mui/material';
import { alpha, type Theme } from '@mui/material/styles';
import { OVERALL_LABELS, type OverallState } from '../utils/service-status';

interface OverallStatusBannerProps {
  state: OverallState;
  checkedAt: number | undefined;
  refreshing: boolean;
  onRefresh: () => void;
}

const DETAILS: Record<OverallState, string> = {
  checking: 'Asking the platform for its health report.',
  unreachable: 'This page could not reach the platform’s health check. The platform may be down, or your connection may be.',
  operational: 'Every service answered its health check.',
  degraded: 'Some services answer slowly. Payments may take longer than usual.',
  'partial-outage': 'Some services are down. The affected services are marked below.',
  'major-outage': 'The platform is down. We are working on it.',
};

function tone(state: OverallState, theme: Theme): string {
  if (state === 'operational') return theme.palette.success.main;
  if (state === 'degraded') return theme.palette.warning.main;
  if (state === 'checking') return theme.palette.text.secondary;
  return theme.palette.error.main;
}

function StateIcon({ state }: { state: OverallState }) {
  const sx = { fontSize: 40, color: 'inherit' };
  if (state === 'checking') return <CircularProgress size={34} color="inherit" aria-hidden />;
  if (state === 'operational') return <CheckCircleRounded aria-hidden sx={sx} />;
  if (state === 'degraded') return <WarningRounded aria-hidden sx={sx} />;
  if (state === 'unreachable') return <CloudOffRounded aria-hidden sx={sx} />;
  return <ErrorRounded aria-hidden sx={sx} />;
}

export function OverallStatusBanner({ state, checkedAt, refreshing, onRefresh }: OverallStatusBannerProps) {
  return (
    <Paper
      variant="outlined"
      role="status"
      aria-live="polite"
      sx={(theme) => ({
        p: { xs: 2.5, sm: 3 },
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 2,
        borderColor: alpha(tone(state, theme), 0.5),
        bgcolor: alpha(tone(state, theme), theme.palette.mode === 'dark' ? 0.12 : 0.07),
      })}
    >
      <Box sx={(theme) => ({ color: tone(state, theme), display: 'flex' })}>
        <StateIcon state={state} />
      </Box>
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        <Typography variant="h5" component="p" sx={{ fontWeight: 800 }} data-testid="overall-status">
          {OVERALL_LABELS[state]}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {DETAILS[state]}
          {checkedAt !== undefined && checkedAt > 0 && <> Last checked at {new Date(checkedAt).toLocaleTimeString()}.</>}
        </Typography>
      </Box>
      <Button variant="outlined" onClick={onRefresh} disabled={refreshing}>
        {refreshing ? 'Checking…' : 'Check now'}
      </Button>
    </Paper>
  );
}
