// A load that failed: what went wrong, and a Retry button that asks again.
import { Alert, Button } from '@mui/material';
import type { ReactNode } from 'react';

export function RetryAlert({ onRetry, children }: { onRetry: () => void; children: ReactNode }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
