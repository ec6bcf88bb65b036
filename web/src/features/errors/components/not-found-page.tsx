// Any path no route matches.
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
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', alignContent: 'center', gap: 2, textAlign: 'center', p: 2 }}
    >
      <Typography variant="h1" component="p" sx={{ fontWeight: 800 }}>
        404
      </Typography>
      <Typography variant="h5" component="h1" color="text.secondary">
        Oops! Page not found
      </Typography>
      <Button component={RouterLink} to="/" variant="contained">
        Return to Home
      </Button>
    </Box>
  );
}
