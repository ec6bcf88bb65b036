import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';

export function BackToDashboardButton() {
  return (
    <Button component={RouterLink} to="/dashboard" startIcon={<ArrowBackRounded />} color="inherit">
      Back to dashboard
    </Button>
  );
}
