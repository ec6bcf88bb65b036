// Sticky top navigation of the landing page. On small screens the links and the Dashboard
// button move into a disclosure menu opened by the burger button: Escape closes it and gives
// focus back to the button, choosing a link closes it, and it closes itself when the window
// grows to the desktop layout.
import CloseRounded from '@mui/icons-material/CloseRounded';
import MenuRounded from '@mui/icons-material/MenuRounded';
import { AppBar, Box, Button, Collapse, Container, IconButton, Stack, Toolbar, useMediaQuery } from '@mui/material';
import { alpha, useTheme } from '@mui/material/styles';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { BrandLink } from '../../../shared/components/brand-link';
import { ThemeSwitch } from '../../../shared/theme/theme-switch';
import { focusHashTarget } from '../utils/section-focus';

// '#flow' resolves against the current page, i.e. '/#flow' on the landing page.
const links = [
  { label: 'Blog', to: '/blog' },
  { label: 'Flow', to: '#flow' },
  { label: 'Start', to: '#start-building' },
];

const MOBILE_MENU_ID = 'landing-mobile-menu';

export function LandingNav() {
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'));
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const open = menuOpen && !isDesktop;

  // Escape anywhere on the page closes the open menu, and focus returns to the button that opened it.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  // The desktop layout has no menu: a menu left open while the window grew must not reopen later.
  useEffect(() => {
    if (isDesktop) setMenuOpen(false);
  }, [isDesktop]);

  const follow = (to: string) => {
    setMenuOpen(false);
    focusHashTarget(to);
  };

  return (
    <AppBar
      component="header"
      position="sticky"
      color="inherit"
      elevation={0}
      sx={{
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: alpha(theme.palette.background.default, 0.85),
        backdropFilter: 'saturate(180%) blur(12px)',
      }}
    >
      <Box component="nav" aria-label="Main">
        <Container maxWidth="lg">
          <Toolbar disableGutters sx={{ gap: { xs: 1, sm: 2 }, minHeight: { xs: 64 } }}>
            <BrandLink />
            <Box sx={{ flexGrow: 1 }} />
            <Stack direction="row" spacing={0.5} sx={{ display: { xs: 'none', md: 'flex' }, alignItems: 'center' }}>
              {links.map((link) => (
                <Button key={link.to} component={RouterLink} to={link.to} color="inherit" onClick={() => follow(link.to)}>
                  {link.label}
                </Button>
              ))}
            </Stack>
            <ThemeSwitch />
            <Button
              component={RouterLink}
              to="/auth"
              variant="contained"
              disableElevation
              sx={{ display: { xs: 'none', md: 'inline-flex' } }}
            >
              Dashboard
            </Button>
            <IconButton
              ref={toggleRef}
              aria-label={open ? 'Close menu' : 'Open menu'}
              aria-expanded={open}
              aria-controls={MOBILE_MENU_ID}
              onClick={() => setMenuOpen((value) => !value)}
              edge="end"
              sx={{ display: { xs: 'inline-flex', md: 'none' } }}
            >
              {open ? <CloseRounded /> : <MenuRounded />}
            </IconButton>
          </Toolbar>
        </Container>
        <Collapse in={open} id={MOBILE_MENU_ID} sx={{ display: { md: 'none' } }} unmountOnExit>
          <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, px: 2, pt: 1, pb: 2, borderTop: 1, borderColor: 'divider' }}>
            {links.map((link) => (
              <li key={link.to}>
                <Button
                  component={RouterLink}
                  to={link.to}
                  color="inherit"
                  onClick={() => follow(link.to)}
                  fullWidth
                  sx={{ justifyContent: 'flex-start', py: 1.25 }}
                >
                  {link.label}
                </Button>
              </li>
            ))}
            <li>
              <Button component={RouterLink} to="/auth" variant="contained" disableElevation onClick={() => setMenuOpen(false)} fullWidth sx={{ py: 1.25 }}>
                Dashboard
              </Button>
            </li>
          </Stack>
        </Collapse>
      </Box>
    </AppBar>
  );
}
