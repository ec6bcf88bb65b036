// The approvals inbox's budget requests: payment sessions the owner's agents asked for
// (status `requested`), newest first, each to grant or reject. Shown only while some wait (or
// the list cannot be read); kept live by the console's stream ('session' messages).
import { Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { useTRPC } from '../../../shared/trpc';
import { useAgents } from '../hooks/use-agent-names';
import { errorMessage } from '../utils/flow-errors';
import { BudgetRequestCard } from './budget-request-card';

export function BudgetRequestsSection() {
  const trpc = useTRPC();
  const { names } = useAgents();
  const query = useQuery(trpc.paymentSessions.list.queryOptions({ status: 'requested' }));
  const sessions = query.data?.sessions ?? [];

  if (query.isError && !query.data) {
    return (
      <RetryAlert onRetry={() => void query.refetch()}>
        Unable to load the budget requests. {errorMessage(query.error, 'Check your connection and try again.')}
      </RetryAlert>
    );
  }
  if (sessions.length === 0) return null;
  return (
    <Stack component="section" aria-labelledby="budget-requests-title" spacing={2} sx={{ mb: 4 }}>
      <div>
        <Typography id="budget-requests-title" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
          Budget requests
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {sessions.length === 1 ? '1 request waits' : `${sessions.length} requests wait`} for your decision. You may grant less than asked, or for a shorter time.
        </Typography>
      </div>
      {sessions.map((session) => (
        <BudgetRequestCard key={session.id} session={session} agentName={names.get(session.agentId) ?? 'Unknown agent'} />
      ))}
    </Stack>
  );
}
