// The agent's budget: its spend per UTC day over the last 30 days against its daily limit
// (agents.spendHistory), the part paid from payment sessions, and a sentence with the figures
// that matter.
import { Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import { formatDay, formatDollars } from '../utils/money';
import { summarizeSpend } from '../utils/spend-chart';
import { errorMessage } from '../utils/trpc-errors';
import { SpendChart } from './spend-chart';

const DAYS = 30;

export function AgentBudgetCard({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.agents.spendHistory.queryOptions({ agentId, days: DAYS }));

  return (
    <SectionCard title="Budget">
      {history.isPending ? (
        <Skeleton variant="rounded" height={240} role="status" aria-label="Loading spend history" />
      ) : history.isError ? (
        <RetryAlert onRetry={() => void history.refetch()}>
          {errorMessage(history.error, 'Unable to load the spend history.')}
        </RetryAlert>
      ) : (
        <BudgetFigures days={history.data.days} dailyLimit={history.data.dailyLimit} />
      )}
    </SectionCard>
  );
}

function BudgetFigures({ days, dailyLimit }: { days: { date: string; spent: number; sessionSpent: number }[]; dailyLimit: number }) {
  const summary = summarizeSpend(days, dailyLimit);
  const currentYear = new Date().getUTCFullYear();
  const sentence =
    summary.highest === null
      ? `No spend in the last ${days.length} days. The daily limit is ${formatDollars(dailyLimit)}.`
      : `${formatDollars(summary.total)} spent over the last ${days.length} days, on ${summary.daysWithSpend} ${summary.daysWithSpend === 1 ? 'day' : 'days'}; ` +
        `the highest was ${formatDollars(summary.highest.spent)} on ${formatDay(summary.highest.date, currentYear)}.${sessionPart(days)} The daily limit is ${formatDollars(dailyLimit)}.`;
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="spend-summary">
        {sentence}
      </Typography>
      <SpendChart days={days} dailyLimit={dailyLimit} title={`Spend per UTC day over the last ${days.length} days`} description={sentence} />
    </>
  );
}

/** ' $3.00 of it from payment sessions.', or '' when none of it was. */
function sessionPart(days: readonly { sessionSpent: number }[]): string {
  const total = days.reduce((sum, day) => sum + day.sessionSpent, 0);
  return total > 0 ? ` ${formatDollars(total)} of it from payment sessions.` : '';
}
