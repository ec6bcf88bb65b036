// A payment's status as a small outlined chip. The text colours are dark shades in the light
// theme and light shades in the dark one: the main shades of warning and info are too faint
// for small text on paper (axe, WCAG AA 4.5:1), and so is warning's own dark shade.
import { Chip } from '@mui/material';
import { darken, type Theme } from '@mui/material/styles';
import type { IntentStatus } from '../api/payment-types';
import { STATUS_LABELS, STATUS_TONES, type StatusTone } from '../utils/intent-labels';

export function toneColor(theme: Theme, tone: StatusTone): string {
  if (tone === 'neutral') return theme.palette.text.secondary;
  const palette = theme.palette[tone];
  if (theme.palette.mode === 'dark') return palette.light;
  return tone === 'warning' ? darken(palette.main, 0.4) : palette.dark;
}

export function IntentStatusChip({ status }: { status: IntentStatus }) {
  const tone = STATUS_TONES[status];
  return (
    <Chip
      size="small"
      variant="outlined"
      label={STATUS_LABELS[status]}
      data-status={status}
      sx={(theme) => ({ color: toneColor(theme, tone), borderColor: toneColor(theme, tone), fontWeight: 600, maxWidth: '100%' })}
    />
  );
}
