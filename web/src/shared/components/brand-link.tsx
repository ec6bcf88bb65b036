// Logo and product name, linking home. Used by every top bar.
import AccountBalanceWalletRounded from '@mui/icons-material/AccountBalanceWalletRounded';
import { Box, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

export function BrandLink() {
  return (
    <Box
      component={RouterLink}
      to="/"
      aria-label="Purser home"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
    >
      <Box
        aria-hidden
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 32,
          height: 32,
          borderRadius: 2,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
        }}
      >
        <AccountBalanceWalletRounded fontSize="small" />
      </Box>
      <Typography component="span" variant="h6" sx={{ fontWeight: 700 }}>
        Purser
      </Typography>
    </Box>
  );
}
