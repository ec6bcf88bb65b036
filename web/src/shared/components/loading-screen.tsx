import { Box, CircularProgress, Typography } from '@mui/material';

/** Full-page waiting state, e.g. while the session is checked. */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <Box
      role="status"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', alignContent: 'center', gap: 2 }}
    >
      <CircularProgress aria-hidden />
      <Typography color="text.secondary">{label}</Typography>
    </Box>
  );
}
