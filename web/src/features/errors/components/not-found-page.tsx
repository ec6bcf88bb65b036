// Any path no route matches (spec: 404, 'Oops! Page not found', Return to Home; the bad path
// is logged).
import { Box, Button, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';

export function NotFoundPage() {
  const { pathname } = useLocation();

  useEffect(() => {
    // Logged so broken links show up in the console and in error reporting.
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', alignContent: 'center', gap: 2, textAlign: 'center', p: 3, bgcolor: 'background.default' }}
    >
      <title>Page not found · Purser</title>
      <Typography
        variant="h1"
        component="p"
        sx={(theme) => ({
          fontWeight: 800,
          fontSize: { xs: '5rem', sm: '7rem' },
          lineHeight: 1,
          letterSpacing: '-0.04em',
          color: 'primary.main',
          // A gradient fill where the browser supports it; the solid colour above otherwise.
          '@supports (-webkit-background-clip: text)': {
            background: `linear-gradient(135deg, ${theme.palette.primary.main}, ${theme.palette.secondary.main})`,
            WebkitBackgroundClip: 'text',
            WebkitTextFillColor: 'transparent',
          },
        })}
      >
        404
      </Typography>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, fontSize: { xs: '1.6rem', sm: '2.125rem' } }}>
        Oops! Page not found
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: '42ch' }}>
        The address may be mistyped, or the page may have moved.
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" size="large" sx={{ mt: 1 }}>
        Return to Home
      </Button>
    </Box>
  );
}
