// Route '/dashboard/payments': every payment intent of the owner, newest first, filtered on
// the server by what the URL's search params say (utils/payment-filters.ts), a page at a time
// ('Load more' follows the server's cursor), kept live by the console layout's stream.
import { Alert, Box, Button, Card, Container, Divider, LinearProgress, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { sessionShortName } from '../../../shared/payment-sessions/session-text';
import { useAgents } from '../hooks/use-agent-names';
import { usePaymentsList } from '../hooks/use-payments-list';
import { errorMessage } from '../utils/flow-errors';
import { DEFAULT_FILTERS, PAGE_SIZES, filtersFromParams, hasActiveFilters, paramsFromFilters, type PageSize, type PaymentFilters } from '../utils/payment-filters';
import { PaymentFiltersBar } from './payment-filters-bar';
import { PaymentsTable } from './payments-table';

export function PaymentsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(searchParams), [searchParams]);
  // From the URL as it is when called, not as it was when this rendered: two debounced fields
  // committing in one tick (min, then max) must not each start from the URL before the other.
  // Filtering replaces the history entry: Back leaves the page instead of replaying keystrokes.
  const update = useCallback(
    (changes: Partial<PaymentFilters>) => {
      const current = filtersFromParams(new URLSearchParams(window.location.search));
      setSearchParams(paramsFromFilters({ ...current, ...changes }), { replace: true });
    },
    [setSearchParams],
  );
  const reset = () => update({ ...DEFAULT_FILTERS, pageSize: filters.pageSize });
  const { agents, names } = useAgents();

  return (
    <Container component="main" maxWidth="xl" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        Payments
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        Every payment your agents made or asked for, newest first.
      </Typography>
      {filters.sessionId ? (
        <Alert
          severity="info"
          sx={{ mb: 2, alignItems: 'center' }}
          action={
            <Button color="inherit" size="small" onClick={() => update({ sessionId: null })}>
              Show all
            </Button>
          }
        >
          Payments paid from {sessionShortName(filters.sessionId).toLowerCase()}.
        </Alert>
      ) : null}
      <Card variant="outlined" component="section" aria-label="Payments list">
        <Box sx={{ p: { xs: 1.5, sm: 2 } }}>
          <PaymentFiltersBar filters={filters} agents={agents} onChange={update} onReset={reset} />
        </Box>
        <Divider />
        <PaymentsResults filters={filters} agentNames={names} onReset={reset} onPageSize={(pageSize) => update({ pageSize })} />
      </Card>
    </Container>
  );
}

interface ResultsProps {
  filters: PaymentFilters;
  agentNames: ReadonlyMap<string, string>;
  onReset: () => void;
  onPageSize: (pageSize: PageSize) => void;
}

function PaymentsResults({ filters, agentNames, onReset, onPageSize }: ResultsProps) {
  const { query, intents } = usePaymentsList(filters);

  if (query.isPending) return <PaymentsSkeleton />;
  if (query.isError && !query.data) {
    return (
      <Box sx={{ p: 2 }}>
        <RetryAlert onRetry={() => void query.refetch()}>
          Unable to load payments. {errorMessage(query.error, 'Check your connection and try again.')}
        </RetryAlert>
      </Box>
    );
  }

  const filtered = hasActiveFilters(filters);
  return (
    <Box sx={{ position: 'relative' }}>
      {/* Only while new filters load (the rows shown are the old ones); live refreshes are quiet. */}
      {query.isPlaceholderData ? <LinearProgress aria-label="Loading payments" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} /> : null}
      {query.isRefetchError ? (
        <Alert severity="warning" sx={{ m: 2 }} action={<Button color="inherit" size="small" onClick={() => void query.refetch()}>Retry</Button>}>
          Unable to refresh the payments; showing what was loaded before.
        </Alert>
      ) : null}
      {intents.length === 0 ? (
        <EmptyState filtered={filtered} onReset={onReset} />
      ) : (
        <PaymentsTable intents={intents} agentNames={agentNames} />
      )}
      {query.isFetchNextPageError ? (
        <Alert severity="error" sx={{ mx: 2, mt: 2 }} action={<Button color="inherit" size="small" onClick={() => void query.fetchNextPage()}>Retry</Button>}>
          Unable to load more payments. {errorMessage(query.error, 'Check your connection and try again.')}
        </Alert>
      ) : null}
      {intents.length > 0 ? (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between', p: 2, borderTop: 1, borderColor: 'divider' }}
        >
          <Typography variant="body2" color="text.secondary">
            {query.hasNextPage ? `Showing the newest ${intents.length}` : `${intents.length} ${intents.length === 1 ? 'payment' : 'payments'}`}
            {filtered ? ' matching these filters' : ''}
          </Typography>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', justifyContent: { xs: 'space-between', sm: 'flex-end' } }}>
            <TextField
              select
              size="small"
              id="payments-page-size"
              label="Per page"
              value={filters.pageSize}
              onChange={(event) => onPageSize(Number(event.target.value) as PageSize)}
              sx={{ minWidth: 96 }}
            >
              {PAGE_SIZES.map((size) => (
                <MenuItem key={size} value={size}>
                  {size}
                </MenuItem>
              ))}
            </TextField>
            {query.hasNextPage ? (
              <Button variant="outlined" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            ) : null}
          </Stack>
        </Stack>
      ) : null}
    </Box>
  );
}

function EmptyState({ filtered, onReset }: { filtered: boolean; onReset: () => void }) {
  return (
    <Box sx={{ px: 2, py: 6, textAlign: 'center' }}>
      <Typography variant="h6" component="h2">
        {filtered ? 'No payments match these filters' : 'No payments yet'}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: filtered ? 2 : 0 }}>
        {filtered
          ? 'Try a wider date or amount range, or fewer statuses.'
          : 'When your agents pay through the agent API, MCP or the SDK, each payment shows here as it happens.'}
      </Typography>
      {filtered ? (
        <Button variant="outlined" onClick={onReset}>
          Show all payments
        </Button>
      ) : null}
    </Box>
  );
}

function PaymentsSkeleton() {
  return (
    <Box data-testid="payments-skeleton" role="status" aria-label="Loading payments" sx={{ p: 2 }}>
      {Array.from({ length: 8 }, (_, row) => (
        <Stack key={row} direction="row" spacing={2} sx={{ alignItems: 'center', py: 1 }}>
          <Skeleton variant="text" sx={{ width: '16%' }} />
          <Skeleton variant="text" sx={{ flexGrow: 1 }} />
          <Skeleton variant="text" sx={{ width: '14%' }} />
          <Skeleton variant="rounded" sx={{ width: 80, height: 24 }} />
        </Stack>
      ))}
    </Box>
  );
}
