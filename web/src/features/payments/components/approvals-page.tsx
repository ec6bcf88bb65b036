// Route '/dashboard/approvals': the owner's inbox of budget requests (payment sessions their
// agents asked for, budget-requests-section.tsx) and of payments waiting in pending_approval,
// each with the rules that asked, the time left before it expires, and Approve / Reject.
// Kept live by the console layout's stream: a payment asked for elsewhere appears, one
// decided elsewhere (or expired) goes.
import { Alert, Box, Button, Card, CardContent, Container, Skeleton, Stack, Typography } from '@mui/material';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import { useAgents } from '../hooks/use-agent-names';
import { errorMessage } from '../utils/flow-errors';
import { ApprovalCard } from './approval-card';
import { BudgetRequestsSection } from './budget-requests-section';

const PAGE_SIZE = 50;

export function ApprovalsPage() {
  return (
    <Container component="main" maxWidth="md" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        Approvals
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        Payments and budgets your agents asked for that need your decision. A payment expires if nobody decides in time.
      </Typography>
      <BudgetRequestsSection />
      <PendingApprovals />
    </Container>
  );
}

function PendingApprovals() {
  const trpc = useTRPC();
  const { names } = useAgents();
  const query = useInfiniteQuery(
    trpc.intents.list.infiniteQueryOptions(
      { status: ['pending_approval'], limit: PAGE_SIZE },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  const intents = useMemo(() => query.data?.pages.flatMap((page) => page.intents) ?? [], [query.data]);
  const budgetRequests = useQuery(trpc.paymentSessions.pendingCount.queryOptions()).data?.count ?? 0;

  if (query.isPending) return <ApprovalsSkeleton />;
  if (query.isError && !query.data) {
    return (
      <RetryAlert onRetry={() => void query.refetch()}>
        Unable to load the payments waiting for approval. {errorMessage(query.error, 'Check your connection and try again.')}
      </RetryAlert>
    );
  }
  if (intents.length === 0 && budgetRequests > 0) {
    // The budget requests above are what waits; no need for the empty inbox's explanation.
    return (
      <Typography variant="body2" color="text.secondary">
        No payments wait for your approval.
      </Typography>
    );
  }
  if (intents.length === 0) {
    return (
      <Card variant="outlined">
        <CardContent sx={{ py: 6, textAlign: 'center' }}>
          <Typography variant="h6" component="h2">
            Nothing waiting for your approval
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            A payment above an agent&apos;s approval threshold, or one a policy sends for approval, waits here until you approve or reject it.
          </Typography>
        </CardContent>
      </Card>
    );
  }

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {query.hasNextPage ? `The newest ${intents.length} waiting` : `${intents.length} waiting`}, newest first.
      </Typography>
      {query.isRefetchError ? (
        <Alert severity="warning" action={<Button color="inherit" size="small" onClick={() => void query.refetch()}>Retry</Button>}>
          Unable to refresh the list; it may be out of date.
        </Alert>
      ) : null}
      {intents.map((intent) => (
        <ApprovalCard key={intent.id} intent={intent} agentName={names.get(intent.agentId) ?? 'Unknown agent'} />
      ))}
      {query.hasNextPage ? (
        <Box sx={{ textAlign: 'center' }}>
          <Button variant="outlined" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </Box>
      ) : null}
      {query.isFetchNextPageError ? (
        <Alert severity="error">Unable to load more. {errorMessage(query.error, 'Check your connection and try again.')}</Alert>
      ) : null}
    </Stack>
  );
}

function ApprovalsSkeleton() {
  return (
    <Stack spacing={2} data-testid="approvals-skeleton" role="status" aria-label="Loading approvals">
      {Array.from({ length: 3 }, (_, index) => (
        <Card key={index} variant="outlined">
          <CardContent>
            <Skeleton variant="text" sx={{ width: '50%', fontSize: '1.2rem' }} />
            <Skeleton variant="text" sx={{ width: '35%' }} />
            <Skeleton variant="text" sx={{ width: '70%', mt: 1.5 }} />
            <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
              <Skeleton variant="rounded" sx={{ width: 110, height: 36 }} />
              <Skeleton variant="rounded" sx={{ width: 96, height: 36 }} />
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
