// One term of a description list (<dl>): its label, and what it says, which may wrap anywhere
// (an address, a URL). The payment-session cards of the approvals inbox and the agent page use it.
import { Typography } from '@mui/material';
import type { ReactNode } from 'react';

export function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}
