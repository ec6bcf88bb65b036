// What the first page of a visit shows while its chunk downloads: the page background only,
// and a spinner with 'Loading...' if the wait gets long enough to notice. A fast load therefore
// goes from blank straight to the page, without a loading message flashing by, and the full
// viewport height is held so the footer and scroll position do not jump when the page arrives.
import { Box } from '@mui/material';
import { useEffect, useState } from 'react';
import { LoadingScreen } from '../shared/components/loading-screen';

/** Below this a wait reads as instant; above it, a silent screen reads as broken. */
export const LOADING_INDICATOR_DELAY_MS = 400;

export function PageLoadingFallback() {
  const slow = useDelayedFlag(LOADING_INDICATOR_DELAY_MS);
  return slow ? <LoadingScreen /> : <Box aria-busy="true" sx={{ minHeight: '100vh', bgcolor: 'background.default' }} />;
}

/** False until `delayMs` after mounting, then true. */
export function useDelayedFlag(delayMs: number, active = true): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!active) {
      setElapsed(false);
      return;
    }
    const timer = setTimeout(() => setElapsed(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs, active]);
  return active && elapsed;
}
