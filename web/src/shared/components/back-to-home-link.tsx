import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';

export function BackToHomeLink() {
  return (
    <Button component={RouterLink} to="/" startIcon={<ArrowBackRounded />} color="inherit">
      Back to home
    </Button>
  );
}
