// Sticky top navigation of the landing page. On small screens the links and the
// Dashboard button move into a menu opened by the burger button.
import CloseRounded from '@mui/icons-material/CloseRounded';
import MenuRounded from '@mui/icons-material/MenuRounded';
import { AppBar, Box, Button, Collapse, Container, IconButton, Stack, Toolbar } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { BrandLink } from '../../../shared/components/brand-link';
import { ThemeSwitch } from '../../../shared/theme/theme-switch';

// '#flow' resolves against the current page, i.e. '/#flow' on the landing page.
const links = [
  { label: 'Blog', to: '/blog' },
  { label: 'Flow', to: '#flow' },
  { label: 'Start', to: '#start-building' },
];

const MOBILE_MENU_ID = 'landing-mobile-menu';

export function LandingNav() {
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  return (
    <AppBar
      position="sticky"
      color="inherit"
      elevation={0}
      sx={{ borderBottom: 1, borderColor: 'divider', backdropFilter: 'blur(8px)' }}
    >
      <Container maxWidth="lg">
        <Toolbar disableGutters sx={{ gap: 2 }} component="nav" aria-label="Main">
          <BrandLink />
          <Box sx={{ flexGrow: 1 }} />
          <Stack direction="row" spacing={1} sx={{ display: { xs: 'none', md: 'flex' }, alignItems: 'center' }}>
            {links.map((link) => (
              <Button key={link.to} component={RouterLink} to={link.to} color="inherit">
                {link.label}
              </Button>
            ))}
          </Stack>
          <ThemeSwitch />
          <Button
            component={RouterLink}
            to="/auth"
            variant="contained"
            sx={{ display: { xs: 'none', md: 'inline-flex' } }}
          >
            Dashboard
          </Button>
          <IconButton
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls={MOBILE_MENU_ID}
            onClick={() => setMenuOpen((open) => !open)}
            sx={{ display: { xs: 'inline-flex', md: 'none' } }}
          >
            {menuOpen ? <CloseRounded /> : <MenuRounded />}
          </IconButton>
        </Toolbar>
      </Container>
      <Collapse in={menuOpen} id={MOBILE_MENU_ID} sx={{ display: { md: 'none' } }} unmountOnExit>
        <Stack spacing={1} sx={{ px: 2, pb: 2 }}>
          {links.map((link) => (
            <Button key={link.to} component={RouterLink} to={link.to} color="inherit" onClick={closeMenu} fullWidth>
              {link.label}
            </Button>
          ))}
          <Button component={RouterLink} to="/auth" variant="contained" onClick={closeMenu} fullWidth>
            Dashboard
          </Button>
        </Stack>
      </Collapse>
    </AppBar>
  );
}
