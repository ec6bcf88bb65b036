// Shown by the router when a route throws while rendering or loading, including when a page's
// code cannot be downloaded. Spec section 8: 'Unexpected Application Error!' with the error's
// status or message; the stack trace goes to the console only. Both actions load the app
// afresh, which is what recovers from a failed download.
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import { CONTACT_EMAILS } from '@purser/docs-content/browser';
import { Box, Button, Link, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { describeRouteError, isChunkLoadError } from '../utils/describe-route-error';

export function RouteErrorPage() {
  const error = useRouteError();

  useEffect(() => {
    console.error('Unexpected application error', error);
  }, [error]);

  const advice = isChunkLoadError(error)
    ? 'This page could not be downloaded. Check your connection, then reload the page.'
    : 'Something went wrong while showing this page. Reloading usually helps.';

  return (
    <Box
      component="main"
      role="alert"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', alignContent: 'center', gap: 2, textAlign: 'center', p: 3, bgcolor: 'background.default' }}
    >
      <title>Error · Purser</title>
      <ErrorOutlineRounded aria-hidden color="error" sx={{ fontSize: 56 }} />
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '1.7rem', sm: '2.125rem' } }}>
        Unexpected Application Error!
      </Typography>
      <Typography sx={{ maxWidth: '48ch' }}>{advice}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '60ch', overflowWrap: 'anywhere' }} data-testid="route-error-detail">
        {describeRouteError(error)}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center', mt: 1 }}>
        <Button variant="contained" onClick={() => window.location.reload()}>
          Reload page
        </Button>
        {/* A plain link, not a router link: it loads the app afresh. */}
        <Button variant="outlined" href="/">
          Return to Home
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        If it keeps happening, write to <Link href={`mailto:${CONTACT_EMAILS.support}`}>{CONTACT_EMAILS.support}</Link>.
      </Typography>
    </Box>
  );
}
