// Above the overview while payments or budget requests wait for the owner's decision: how many,
// and a way to them. Shares the top bar's counts (intents.pendingCount and
// paymentSessions.pendingCount), kept live by the console's stream.
import { Alert, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { useTRPC } from '../../../shared/trpc';
import { pendingSentence } from '../utils/pending-sentence';

export function PendingApprovalsNotice() {
  const trpc = useTRPC();
  const payments = useQuery(trpc.intents.pendingCount.queryOptions()).data?.count ?? 0;
  const budgetRequests = useQuery(trpc.paymentSessions.pendingCount.queryOptions()).data?.count ?? 0;
  if (payments + budgetRequests === 0) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 3, alignItems: 'center' }}
      action={
        <Button component={RouterLink} to="/dashboard/approvals" color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }}>
          Review approvals
        </Button>
      }
    >
      {pendingSentence(payments, budgetRequests)}
    </Alert>
  );
}

