import LogoutRounded from '@mui/icons-material/LogoutRounded';
import { AppBar, Box, Button, IconButton, Toolbar, Tooltip } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BrandLink } from '../../../shared/components/brand-link';
import { useSessionStore } from '../../../shared/session/use-session-store';

export function DashboardTopBar() {
  const setSession = useSessionStore((state) => state.setSession);

  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 1 }}>
        <BrandLink />
        <Box sx={{ flexGrow: 1 }} />
        <Button component={RouterLink} to="/docs" color="inherit">
          Docs
        </Button>
        <Tooltip title="Sign out">
          {/* Until the server's sign-out exists, ending the session locally is enough:
              the dashboard guard sees the change and moves to /auth. */}
          <IconButton aria-label="Sign out" onClick={() => setSession(null)}>
            <LogoutRounded />
          </IconButton>
        </Tooltip>
      </Toolbar>
    </AppBar>
  );
}
