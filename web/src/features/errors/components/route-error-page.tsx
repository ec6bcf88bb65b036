// Shown by the router when a route throws while rendering or loading.
import { Box, Button, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { describeRouteError } from '../utils/describe-route-error';

export function RouteErrorPage() {
  const error = useRouteError();

  useEffect(() => {
    console.error('Unexpected application error', error);
  }, [error]);

  return (
    <Box
      component="main"
      role="alert"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', alignContent: 'center', gap: 2, textAlign: 'center', p: 2 }}
    >
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        Unexpected Application Error!
      </Typography>
      <Typography component="pre" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace' }}>
        {describeRouteError(error)}
      </Typography>
      {/* A plain link reloads the app, which is what an error state needs. */}
      <Button href="/" variant="contained">
        Return to Home
      </Button>
    </Box>
  );
}
