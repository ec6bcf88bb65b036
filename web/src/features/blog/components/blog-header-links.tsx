// The blog pages' top-bar links (spec: Back to home and Explore docs).
import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';

export function BlogHeaderLinks() {
  return (
    <>
      <BackToHomeLink />
      <Button component={RouterLink} to="/docs" color="inherit">
        Explore docs
      </Button>
    </>
  );
}
