// The element of the top route: every page renders inside it, beside the assistant widget.
import { LinearProgress } from '@mui/material';
import { Outlet, useNavigation } from 'react-router';
import { AssistantLauncher } from '../features/assistant/components/assistant-launcher';
import { DefaultTitle } from '../shared/components/page-head';
import { ScrollOnNavigate } from '../shared/scroll/scroll-on-navigate';
import { useDelayedFlag } from './page-loading-fallback';

/** Shorter waits for a page's chunk go unmarked: the current page simply stays until the next one is ready. */
const NAVIGATION_PROGRESS_DELAY_MS = 250;

export function RootLayout() {
  const navigating = useNavigation().state !== 'idle';
  const slow = useDelayedFlag(NAVIGATION_PROGRESS_DELAY_MS, navigating);
  return (
    <>
      <ScrollOnNavigate />
      <DefaultTitle />
      {slow ? (
        <LinearProgress
          aria-label="Loading page"
          sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.tooltip + 1, height: 3 }}
        />
      ) : null}
      <Outlet />
      <AssistantLauncher />
    </>
  );
}
