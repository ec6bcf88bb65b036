// Route '/dashboard/agents/:agentId/transactions': one agent's transactions, newest first,
// with client-side filters (utils/transaction-filters.ts).
import { Box, Card, CardContent, Container, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { isAgentId } from '../utils/agent-id';
import { DEFAULT_FILTERS, filterTransactions } from '../utils/transaction-filters';
import { errorMessage, isNotFoundError } from '../utils/trpc-errors';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { BackToDashboardButton } from './back-to-dashboard-button';
import { TransactionFiltersBar } from './transaction-filters-bar';
import { TransactionsTable } from './transactions-table';

const MISSING_ID_MESSAGE = 'Missing agent identifier.';
const LOAD_FAILED_MESSAGE = 'Unable to load transactions.';
const NOT_FOUND_TITLE = 'Agent not found';
const NOT_FOUND_MESSAGE = "We couldn't locate the requested agent.";

export function AgentTransactionsPage() {
  const { agentId } = useParams();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Container component="main" maxWidth="xl" sx={{ pt: 4, pb: ASSISTANT_BUTTON_CLEARANCE }}>
        <BackToDashboardButton />
        {!agentId ? (
          <MessageCard title="Unable to load transactions" message={MISSING_ID_MESSAGE} />
        ) : isAgentId(agentId) ? (
          <AgentTransactions agentId={agentId} />
        ) : (
          // Not a UUID, so no agent's id: the server would only refuse the format.
          <MessageCard title={NOT_FOUND_TITLE} message={NOT_FOUND_MESSAGE} />
        )}
      </Container>
    </Box>
  );
}

function AgentTransactions({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const agent = useQuery(trpc.agents.get.queryOptions({ agent_id: agentId }));
  const transactions = useQuery(trpc.agents.transactions.queryOptions({ agent_id: agentId }));
  const [filters, setFilters] = useState(DEFAULT_FILTERS);

  // The server answers NOT_FOUND alike for an unknown id and another owner's agent.
  const notFound = isNotFoundError(agent.error) || isNotFoundError(transactions.error);
  const failure = notFound ? null : (agent.error ?? transactions.error);
  const failureMessage = failure ? errorMessage(failure, LOAD_FAILED_MESSAGE) : null;

  useEffect(() => {
    // A fixed id: a re-run effect (StrictMode, refetch) replaces the toast instead of stacking it.
    if (failureMessage) toast.error(failureMessage, { id: 'agent-transactions-error' });
  }, [failureMessage]);

  if (notFound) return <MessageCard title={NOT_FOUND_TITLE} message={NOT_FOUND_MESSAGE} />;
  if (failureMessage) return <MessageCard title="Unable to load transactions" message={failureMessage} />;
  if (!agent.data || !transactions.data) return <LoadingState />;

  const wallet = agent.data.agent_wallets;
  const visible = filterTransactions(transactions.data, filters);

  return (
    <>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mt: 2, overflowWrap: 'anywhere' }}>
        {agent.data.name}
      </Typography>
      {agent.data.description ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {agent.data.description}
        </Typography>
      ) : null}
      <Stack spacing={0.5} sx={{ mt: 2 }}>
        <DetailLine label="DID">{agent.data.did}</DetailLine>
        {wallet ? (
          <DetailLine label="Wallet">{wallet.evm_wallet_address ?? wallet.wallet_address}</DetailLine>
        ) : (
          <Typography color="text.secondary">This agent does not yet have a wallet.</Typography>
        )}
      </Stack>
      <Card variant="outlined" component="section" aria-label="Transactions" sx={{ mt: 3 }}>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            Transactions
          </Typography>
          <TransactionFiltersBar transactions={transactions.data} filters={filters} onChange={setFilters} />
          <Box sx={{ mt: 2 }}>
            {visible.length === 0 ? (
              <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
                No transactions match the selected filters.
              </Typography>
            ) : (
              <>
                <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', lg: 'none' }, mb: 1 }}>
                  Scroll the table sideways to see every column.
                </Typography>
                <TransactionsTable transactions={visible} />
              </>
            )}
          </Box>
        </CardContent>
      </Card>
    </>
  );
}

function DetailLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
      <Box component="span" sx={{ color: 'text.secondary', mr: 1 }}>
        {label}
      </Box>
      <Box component="span" sx={{ fontFamily: 'monospace' }}>
        {children}
      </Box>
    </Typography>
  );
}

function MessageCard({ title, message }: { title: string; message: string }) {
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ mt: 3 }}>
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          {title}
        </Typography>
        <Typography color="text.secondary">{message}</Typography>
      </CardContent>
    </Card>
  );
}

function LoadingState() {
  return (
    <Box aria-busy="true" aria-label="Loading transactions" sx={{ mt: 2 }}>
      <Skeleton variant="text" width="40%" height={48} />
      <Skeleton variant="text" width="60%" />
      <Skeleton variant="rounded" height={240} sx={{ mt: 3 }} />
    </Box>
  );
}
