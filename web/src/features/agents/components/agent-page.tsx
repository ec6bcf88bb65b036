// Route '/dashboard/agents/:agentId': one agent's controls. Its spending rules, status
// (suspend, reactivate, delete), KYA tier and escalations, credential, the key that signs its
// requests to sellers, the last 30 days of spend against its daily limit, the budget
// notices it raised, and the apps connected to it through OAuth.
import { Alert, Box, Button, Card, CardContent, Container, Grid, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import { isAgentId } from '../utils/agent-id';
import { errorMessage, isNotFoundError } from '../utils/trpc-errors';
import { AgentBudgetCard } from './agent-budget-card';
import { AgentBudgetNoticesCard } from './agent-budget-notices-card';
import { AgentConnectionsCard } from './agent-connections-card';
import { AgentCredentialCard } from './agent-credential-card';
import { AgentHeader } from './agent-header';
import { AgentIdentityCard } from './agent-identity-card';
import { AgentKyaCard } from './agent-kya-card';
import { AgentPaymentSessionsCard } from './agent-payment-sessions-card';
import { AgentSpendingRulesCard } from './agent-spending-rules-card';
import { AgentStatusCard } from './agent-status-card';
import { BackToDashboardButton } from './back-to-dashboard-button';

export function AgentPage() {
  const { agentId } = useParams();
  return (
    <Container component="main" maxWidth="lg" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <BackToDashboardButton />
      {/* Not a UUID, so no agent's id: the server would only refuse the format. */}
      {agentId && isAgentId(agentId) ? <AgentControls agentId={agentId} /> : <AgentNotFound />}
    </Container>
  );
}

function AgentControls({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  // NOT_FOUND covers an unknown id, a deleted agent and another owner's agent alike.
  const agent = useQuery(trpc.agents.get.queryOptions({ agent_id: agentId }));

  if (agent.isPending) return <AgentPageSkeleton />;
  if (agent.isError) {
    if (isNotFoundError(agent.error)) return <AgentNotFound />;
    return (
      <Alert
        severity="error"
        sx={{ mt: 3 }}
        action={
          <Button color="inherit" size="small" onClick={() => void agent.refetch()}>
            Retry
          </Button>
        }
      >
        {errorMessage(agent.error, 'Unable to load the agent.')}
      </Alert>
    );
  }

  const details = agent.data;
  return (
    <>
      <AgentHeader agent={details} />
      <Grid container spacing={3} sx={{ mt: 1 }}>
        <Grid size={{ xs: 12, md: 7 }}>
          {/* Re-keyed on the saved figures, so the form starts again from them after a save. */}
          <AgentSpendingRulesCard
            key={`${details.spending_rules?.max_transaction_amount_exact}/${details.spending_rules?.max_daily_limit_exact}/${details.spending_rules?.approval_threshold_exact}`}
            agentId={details.id}
            rules={details.spending_rules}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={3}>
            <AgentStatusCard agent={details} />
            {/* A verification answers for the status at the time: a status change clears it. */}
            <AgentCredentialCard key={details.status} agent={details} />
          </Stack>
        </Grid>
        <Grid size={12}>
          <AgentIdentityCard agent={details} />
        </Grid>
        <Grid size={12}>
          <AgentBudgetCard agentId={details.id} />
        </Grid>
        <Grid size={12}>
          <AgentPaymentSessionsCard agentId={details.id} agentName={details.name} canOpen={details.status === 'active'} />
        </Grid>
        <Grid size={12}>
          <AgentBudgetNoticesCard agentId={details.id} />
        </Grid>
        <Grid size={12}>
          <AgentConnectionsCard agentId={details.id} />
        </Grid>
        <Grid size={12}>
          <AgentKyaCard agent={details} />
        </Grid>
      </Grid>
    </>
  );
}

function AgentNotFound() {
  return (
    <Card variant="outlined" component="section" aria-label="Agent not found" sx={{ mt: 3 }}>
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          Agent not found
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          We couldn&apos;t locate the requested agent. It may have been deleted.
        </Typography>
        <Button component={RouterLink} to="/dashboard" variant="contained">
          Return to dashboard
        </Button>
      </CardContent>
    </Card>
  );
}

function AgentPageSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading agent" sx={{ mt: 2 }}>
      <Skeleton variant="text" width="45%" height={48} />
      <Skeleton variant="text" width="70%" />
      <Skeleton variant="text" width="30%" sx={{ mb: 2 }} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Skeleton variant="rounded" height={280} />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Skeleton variant="rounded" height={280} />
        </Grid>
        <Grid size={12}>
          <Skeleton variant="rounded" height={260} />
        </Grid>
      </Grid>
    </Box>
  );
}
