// Above the overview while payments wait for the owner's approval: how many, and a way to them.
// Shares the top bar's intents.pendingCount query, kept live by the console's stream.
import { Alert, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { useTRPC } from '../../../shared/trpc';

export function PendingApprovalsNotice() {
  const trpc = useTRPC();
  const count = useQuery(trpc.intents.pendingCount.queryOptions()).data?.count ?? 0;
  if (count === 0) return null;
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
      {count === 1 ? '1 payment waits for your approval.' : `${count} payments wait for your approval.`}
    </Alert>
  );
}
