// The dashboard's top bar: brand link home, the theme switch, Docs and sign-out.
import LogoutRounded from '@mui/icons-material/LogoutRounded';
import { AppBar, Box, Button, IconButton, Toolbar, Tooltip } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BrandLink } from '../../../shared/components/brand-link';
import { signOut } from '../../../shared/session/use-session-store';
import { ThemeSwitch } from '../../../shared/theme/theme-switch';

export function DashboardTopBar() {
  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 1 }}>
        <BrandLink />
        <Box sx={{ flexGrow: 1 }} />
        <ThemeSwitch />
        <Button component={RouterLink} to="/docs" color="inherit">
          Docs
        </Button>
        <Tooltip title="Sign out">
          {/* The guard sees the session end and moves to /auth. */}
          <IconButton aria-label="Sign out" onClick={() => void signOut()}>
            <LogoutRounded />
          </IconButton>
        </Tooltip>
      </Toolbar>
    </AppBar>
  );
}
