// Layout of every owner page under /dashboard: the console's top bar above the page, and the
// console's one live stream (use-console-changes.ts) for all of them.
import { Box } from '@mui/material';
import { Outlet } from 'react-router';
import { CONSOLE_CONTENT_ID, ConsoleTopBar } from './console-top-bar';
import { useConsoleChanges } from './use-console-changes';

export function ConsoleLayout() {
  useConsoleChanges();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <ConsoleTopBar />
      {/* Focused by the skip link; never a tab stop of its own. */}
      <Box id={CONSOLE_CONTENT_ID} tabIndex={-1} sx={{ outline: 'none' }}>
        <Outlet />
      </Box>
    </Box>
  );
}
