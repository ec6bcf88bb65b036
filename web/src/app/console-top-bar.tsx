// The owner console's top bar, above every page under /dashboard: brand, the sections (with the
// live count of payments waiting for approval), the kill switch, the theme switch, Docs and
// sign-out. Below 900 px the sections, the kill switch and Docs move into a disclosure menu
// (Escape closes it and gives the focus back to its button; following a link closes it). While
// the kill switch holds agents paused, a banner under the bar says so and offers Resume.
import CloseRounded from '@mui/icons-material/CloseRounded';
import LogoutRounded from '@mui/icons-material/LogoutRounded';
import MenuRounded from '@mui/icons-material/MenuRounded';
import { AppBar, Badge, Box, Button, Collapse, IconButton, Link, Stack, Toolbar, Tooltip, useMediaQuery } from '@mui/material';
import { useTheme, type Theme } from '@mui/material/styles';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { KillSwitchBanner } from '../features/agents/components/kill-switch-banner';
import { KillSwitchControl } from '../features/agents/components/kill-switch-control';
import { KillSwitchDialog } from '../features/agents/components/kill-switch-dialog';
import { usePendingApprovals } from '../features/payments/hooks/use-pending-approvals';
import { BrandLink } from '../shared/components/brand-link';
import { signOut } from '../shared/session/use-session-store';
import { ThemeSwitch } from '../shared/theme/theme-switch';
import { CONSOLE_NAV, approvalsLabel, consoleSection, type ConsoleNavItem } from './console-nav';

const MENU_ID = 'console-menu';
export const CONSOLE_CONTENT_ID = 'console-content';

export function ConsoleTopBar() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [menuOpen, setMenuOpen] = useState(false);
  const [pauseOpen, setPauseOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const pending = usePendingApprovals();
  const open = menuOpen && !wide;

  // A menu left open must not reopen when the window narrows again, nor outlive a navigation.
  useEffect(() => setMenuOpen(false), [wide, pathname]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const openPause = () => {
    setMenuOpen(false);
    setPauseOpen(true);
  };

  return (
    <>
      <SkipLink />
      <AppBar component="header" position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar sx={{ gap: { xs: 0.5, sm: 1 }, minHeight: { xs: 56, sm: 60 } }}>
          <BrandLink />
          <Box sx={{ flexGrow: 1 }} />
          {/* The bar's wide-only and narrow-only controls are switched by CSS, not by
              useMediaQuery: CSS holds in the very layout that follows a resize, a re-render
              only a moment later, and the wide bar must not push a phone's page sideways even
              for that moment. */}
          <Box sx={{ display: { xs: 'none', md: 'flex' } }}>
            <KillSwitchControl onPause={openPause} />
          </Box>
          <ThemeSwitch />
          <Button component={RouterLink} to="/docs" color="inherit" sx={{ display: { xs: 'none', md: 'inline-flex' } }}>
            Docs
          </Button>
          <Tooltip title="Sign out">
            {/* The guard sees the session end and moves to /auth. */}
            <IconButton aria-label="Sign out" onClick={() => void signOut()}>
              <LogoutRounded />
            </IconButton>
          </Tooltip>
          <IconButton
            ref={menuButton}
            aria-label={open ? 'Close menu' : 'Open menu'}
            aria-expanded={open}
            aria-controls={MENU_ID}
            onClick={() => setMenuOpen((value) => !value)}
            edge="end"
            sx={{ display: { md: 'none' } }}
          >
            {/* A dot, so payments waiting for approval are noticed with the menu closed. */}
            <Badge variant="dot" invisible={!pending} sx={{ '& .MuiBadge-dot': badgeColors }}>
              {open ? <CloseRounded /> : <MenuRounded />}
            </Badge>
          </IconButton>
        </Toolbar>
        {/* The tabs scroll within their row, so rendering them a moment too long is harmless. */}
        {wide ? (
          <Box component="nav" aria-label="Console" sx={{ px: { md: 2 } }}>
            <Stack component="ul" direction="row" sx={{ listStyle: 'none', m: 0, p: 0, overflowX: 'auto' }}>
              {CONSOLE_NAV.map((item) => (
                <li key={item.section}>
                  <NavTab item={item} pathname={pathname} pending={pending} />
                </li>
              ))}
            </Stack>
          </Box>
        ) : (
          <Collapse in={open} id={MENU_ID} unmountOnExit>
            <Box component="nav" aria-label="Console" sx={{ borderTop: 1, borderColor: 'divider', px: 2, pt: 1, pb: 2 }}>
              <Stack component="ul" spacing={0.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {CONSOLE_NAV.map((item) => (
                  <li key={item.section}>
                    <MenuLink item={item} pathname={pathname} pending={pending} onFollow={() => setMenuOpen(false)} />
                  </li>
                ))}
              </Stack>
              <Stack spacing={1} sx={{ mt: 1.5, pt: 1.5, borderTop: 1, borderColor: 'divider' }}>
                <KillSwitchControl onPause={openPause} fullWidth />
                <Button component={RouterLink} to="/docs" color="inherit" onClick={() => setMenuOpen(false)} sx={{ justifyContent: 'flex-start' }}>
                  Docs
                </Button>
              </Stack>
            </Box>
          </Collapse>
        )}
        <KillSwitchBanner />
      </AppBar>
      <KillSwitchDialog open={pauseOpen} onClose={() => setPauseOpen(false)} />
    </>
  );
}

interface NavLinkProps {
  item: ConsoleNavItem;
  pathname: string;
  pending: number | undefined;
}

/** 'page' on the section's own page, 'true' on a page below it (an agent's, a payment's). */
function ariaCurrent(item: ConsoleNavItem, pathname: string): 'page' | 'true' | undefined {
  if (consoleSection(pathname) !== item.section) return undefined;
  return pathname.replace(/\/+$/, '') === item.to ? 'page' : 'true';
}

function NavTab({ item, pathname, pending }: NavLinkProps) {
  const current = ariaCurrent(item, pathname);
  return (
    <Link
      component={RouterLink}
      to={item.to}
      aria-current={current}
      underline="none"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        height: 44,
        px: 1.5,
        whiteSpace: 'nowrap',
        fontWeight: 600,
        fontSize: '0.875rem',
        color: current ? 'text.primary' : 'text.secondary',
        borderBottom: 2,
        borderColor: current ? 'primary.main' : 'transparent',
        '&:hover': { color: 'text.primary' },
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2, borderRadius: 1 },
      }}
    >
      <NavLabel item={item} pending={pending} />
    </Link>
  );
}

function MenuLink({ item, pathname, pending, onFollow }: NavLinkProps & { onFollow: () => void }) {
  const current = ariaCurrent(item, pathname);
  return (
    <Button
      component={RouterLink}
      to={item.to}
      aria-current={current}
      onClick={onFollow}
      fullWidth
      color="inherit"
      sx={{ justifyContent: 'flex-start', py: 1, bgcolor: current ? 'action.selected' : undefined }}
    >
      <NavLabel item={item} pending={pending} />
    </Button>
  );
}

/**
 * A section's label; Approvals adds the live count, drawn as a badge and spoken as words
 * ('Approvals, 2 waiting'), so the link's name is its visible text plus what the badge means.
 * The spoken words are inline text of no size: a visually hidden block (position: absolute)
 * would make Chrome put a space into the name ('Approvals , 2 waiting').
 */
function NavLabel({ item, pending }: { item: ConsoleNavItem; pending: number | undefined }) {
  if (item.section !== 'approvals') return <>{item.label}</>;
  const spoken = approvalsLabel(pending).slice(item.label.length);
  return (
    <>
      <span>
        {item.label}
        {spoken ? <Box component="span" sx={{ fontSize: 0 }}>{spoken}</Box> : null}
      </span>
      <ApprovalsBadge count={pending} />
    </>
  );
}

const badgeColors = (theme: Theme) =>
  theme.palette.mode === 'dark'
    ? { bgcolor: theme.palette.error.light, color: theme.palette.common.black }
    : { bgcolor: theme.palette.error.dark, color: theme.palette.common.white };

/**
 * The number of payments waiting, inline after the label. Zero is rendered and hidden (not
 * left out), so the badge always holds the current count as its text.
 */
function ApprovalsBadge({ count = 0 }: { count: number | undefined }) {
  return (
    <Badge
      badgeContent={count}
      showZero
      max={99}
      aria-hidden
      slotProps={{ badge: { 'data-testid': 'approvals-badge' } as object }}
      sx={(theme) => ({
        ml: count ? 1 : 0,
        '& .MuiBadge-badge': { position: 'static', transform: 'none', display: count ? 'flex' : 'none', fontWeight: 700, ...badgeColors(theme) },
      })}
    />
  );
}

/** The first stop of the keyboard: past the bar's links, to the page. */
function SkipLink() {
  return (
    <Box
      component="a"
      href={`#${CONSOLE_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(CONSOLE_CONTENT_ID)?.focus();
      }}
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: (theme) => theme.zIndex.appBar + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'text.primary',
        boxShadow: 3,
        '&:focus': { top: 8 },
      }}
    >
      Skip to content
    </Box>
  );
}
