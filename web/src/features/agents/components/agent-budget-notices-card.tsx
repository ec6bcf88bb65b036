// The budget notices one agent raised (budgetAlerts.list for the agent), newest first.
import { Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage } from '../utils/trpc-errors';
import { BudgetNoticeList } from './budget-notice-list';

const LIMIT = 20;

export function AgentBudgetNoticesCard({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const notices = useQuery(trpc.budgetAlerts.list.queryOptions({ agentId, limit: LIMIT }));
  return (
    <SectionCard title="Budget notices">
      {notices.isPending ? (
        <Skeleton variant="rounded" height={56} role="status" aria-label="Loading budget notices" />
      ) : notices.isError ? (
        <RetryAlert onRetry={() => void notices.refetch()}>
          {errorMessage(notices.error, 'Unable to load the budget notices.')}
        </RetryAlert>
      ) : notices.data.alerts.length === 0 ? (
        <Typography color="text.secondary">No budget notices. One appears when the agent spends 80% and again at 100% of its daily limit or of a policy&apos;s monthly budget.</Typography>
      ) : (
        <BudgetNoticeList alerts={notices.data.alerts} />
      )}
    </SectionCard>
  );
}
