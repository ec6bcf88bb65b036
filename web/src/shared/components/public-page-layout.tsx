// Frame of the public content pages (blog, docs, status, legal...): a skip link, a sticky top
// bar with the brand and page-specific links, then a title (or the page's own hero) and the body.
import { AppBar, Box, Container, Stack, Toolbar, Typography, type Breakpoint } from '@mui/material';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { BrandLink } from './brand-link';
import { PageHead, SITE_NAME } from './page-head';
import { ASSISTANT_BUTTON_CLEARANCE } from '../layout/assistant-button-space';

/** Height of the sticky top bar; pages that scroll to anchors keep their targets below it. */
export const PUBLIC_HEADER_HEIGHT = 64;

interface PublicPageLayoutProps {
  /** The page's h1, also used for the document title. */
  title: string;
  subtitle?: string;
  /** What search results and link previews show under the title. */
  description: string;
  /** Open Graph type of the page: 'article' for a blog post. */
  type?: 'website' | 'article';
  /** Replaces the default title block; it must contain the page's h1 itself. */
  hero?: ReactNode;
  /** Links shown at the right of the top bar, such as <BackToHomeLink />. */
  actions?: ReactNode;
  maxWidth?: Breakpoint;
  children: ReactNode;
}

export function PublicPageLayout({ title, subtitle, description, type, hero, actions, maxWidth = 'md', children }: PublicPageLayoutProps) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <PageHead title={`${title} · ${SITE_NAME}`} description={description} type={type} />
      <SkipLink />
      <AppBar
        position="sticky"
        color="transparent"
        elevation={0}
        sx={{
          borderBottom: 1,
          borderColor: 'divider',
          // Opaque enough that scrolled text never shows through behind the links.
          bgcolor: (theme) => alpha(theme.palette.background.default, 0.94),
          backdropFilter: 'blur(8px)',
        }}
      >
        <Toolbar
          sx={{
            gap: { xs: 1, sm: 2 },
            minHeight: { xs: PUBLIC_HEADER_HEIGHT },
            px: { xs: 1.5, sm: 3 },
            // On phones the page links need the room: the logo stays, the word 'Purser' goes,
            // and the links drop their icons.
            '& > a:first-of-type .MuiTypography-root': { display: { xs: 'none', sm: 'inline' } },
            '& nav .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } },
          }}
        >
          <BrandLink />
          <Box sx={{ flexGrow: 1 }} />
          <Stack
            direction="row"
            spacing={{ xs: 0, sm: 1 }}
            component="nav"
            aria-label="Page links"
            sx={{ '& .MuiButton-root': { px: { xs: 1, sm: 1.5 }, whiteSpace: 'nowrap' } }}
          >
            {actions}
          </Stack>
        </Toolbar>
      </AppBar>
      <Container
        component="main"
        id="main-content"
        tabIndex={-1}
        maxWidth={maxWidth}
        sx={{ pt: { xs: 4, md: 6 }, pb: ASSISTANT_BUTTON_CLEARANCE, outline: 'none' }}
      >
        {hero ?? (
          <Box sx={{ mb: { xs: 3, md: 4 } }}>
            <Typography variant="h3" component="h1" sx={{ fontWeight: 700, fontSize: { xs: '2.1rem', sm: '3rem' } }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 1, fontWeight: 400 }}>
                {subtitle}
              </Typography>
            )}
          </Box>
        )}
        {children}
      </Container>
    </Box>
  );
}

/** Hidden until focused: keyboard users jump past the top bar straight to the page. */
function SkipLink() {
  return (
    <Box
      component="a"
      href="#main-content"
      sx={{
        position: 'absolute',
        left: 8,
        top: -64,
        zIndex: 'tooltip',
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
