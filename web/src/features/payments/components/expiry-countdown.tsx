// "expires in 23 h 59 min", kept current: the label re-renders exactly when it would read
// differently (each minute, each second in the last minute), not on a fixed fast timer.
import { Box } from '@mui/material';
import { useEffect, useState } from 'react';
import { formatTableDate } from '../utils/format';
import { timeLeft } from '../utils/time-left';
import { toneColor } from './intent-status-chip';

export function ExpiryCountdown({ expiresAt, onExpired }: { expiresAt: string; onExpired?: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const left = timeLeft(expiresAt, now);

  useEffect(() => {
    if (left.expired) {
      onExpired?.();
      return;
    }
    // A few ms past the change, so the next render is on the new side of it.
    const timer = window.setTimeout(() => setNow(Date.now()), left.changesIn + 20);
    return () => window.clearTimeout(timer);
  }, [left.expired, left.changesIn, now, onExpired]);

  return (
    <Box
      component="time"
      dateTime={expiresAt}
      title={`Expires ${formatTableDate(expiresAt)}`}
      data-testid="approval-expiry"
      sx={(theme) => ({
        fontWeight: 600,
        whiteSpace: 'nowrap',
        color: left.urgent ? toneColor(theme, 'warning') : theme.palette.text.secondary,
      })}
    >
      {left.label}
    </Box>
  );
}
