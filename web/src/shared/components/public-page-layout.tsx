// Frame of the public content pages (blog, docs, status, legal...): a top bar with the
// brand and page-specific links, then a title and the page body.
import { AppBar, Box, Container, Stack, Toolbar, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { BrandLink } from './brand-link';

interface PublicPageLayoutProps {
  title: string;
  subtitle?: string;
  /** Links shown at the right of the top bar, such as <BackToHomeLink />. */
  actions?: ReactNode;
  children: ReactNode;
}

export function PublicPageLayout({ title, subtitle, actions, children }: PublicPageLayoutProps) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="static" color="transparent" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar sx={{ gap: 2 }}>
          <BrandLink />
          <Box sx={{ flexGrow: 1 }} />
          <Stack direction="row" spacing={1} component="nav" aria-label="Page links">
            {actions}
          </Stack>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="md" sx={{ py: { xs: 4, md: 6 } }}>
        <Typography variant="h3" component="h1" sx={{ fontWeight: 700, mb: subtitle ? 1 : 3 }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="h6" component="p" color="text.secondary" sx={{ mb: 4 }}>
            {subtitle}
          </Typography>
        )}
        {children}
      </Container>
    </Box>
  );
}
