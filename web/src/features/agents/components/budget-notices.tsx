// The newest budget notices of all the owner's agents, for the dashboard overview: each says
// which agent spent what share of which limit, and opens that agent's page. Exported as
// <BudgetNotices /> (the dashboard feature places it; this feature owns it).
import { Alert, Button, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage } from '../utils/trpc-errors';
import { BudgetNoticeList } from './budget-notice-list';

export interface BudgetNoticesProps {
  /** How many of the newest notices to show. */
  limit?: number;
  /** Render nothing at all while there is no notice (and while loading), instead of an empty card. */
  hideWhenEmpty?: boolean;
}

export function BudgetNotices({ limit = 5, hideWhenEmpty = false }: BudgetNoticesProps) {
  const trpc = useTRPC();
  const notices = useQuery(trpc.budgetAlerts.list.queryOptions({ limit }));

  if (hideWhenEmpty && (notices.isPending || (notices.data && notices.data.alerts.length === 0))) return null;
  return (
    <SectionCard title="Budget notices">
      {notices.isPending ? (
        <Skeleton variant="rounded" height={56} aria-label="Loading budget notices" />
      ) : notices.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void notices.refetch()}>
              Retry
            </Button>
          }
        >
          {errorMessage(notices.error, 'Unable to load the budget notices.')}
        </Alert>
      ) : notices.data.alerts.length === 0 ? (
        <Typography color="text.secondary">No budget notices. One appears when an agent spends 80% and again at 100% of a limit.</Typography>
      ) : (
        <BudgetNoticeList alerts={notices.data.alerts} withAgent />
      )}
    </SectionCard>
  );
}
