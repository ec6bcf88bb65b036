// The agent's payment sessions (paymentSessions.list for the agent, newest first): each with its
// status, what it spent and has left (a bar), its expiry, cap, scope, who asked and why, and a
// link to the payments it paid. The owner opens a session here and revokes one (asked first).
// Kept live by the console's stream: 'session' messages and every payment ('intent').
import { Alert, Box, Button, Chip, DialogContentText, LinearProgress, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { toast } from 'sonner';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SectionCard } from '../../../shared/components/section-card';
import { Term } from '../../../shared/components/term';
import { scopeText, sessionStatusLabel, spentPercent } from '../../../shared/payment-sessions/session-text';
import { useTRPC } from '../../../shared/trpc';
import type { AgentPaymentSession } from '../api/agent-types';
import { formatDateTime, formatDollars } from '../utils/money';
import { errorMessage } from '../utils/trpc-errors';
import { AgentConfirmDialog } from './agent-confirm-dialog';
import { OpenSessionDialog } from './open-session-dialog';

const STATUS_COLORS = { requested: 'warning', open: 'success', rejected: 'default', closed: 'default' } as const;

export function AgentPaymentSessionsCard({ agentId, agentName, canOpen }: { agentId: string; agentName: string; canOpen: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.paymentSessions.list.queryOptions({ agentId }));
  const [opening, setOpening] = useState(false);
  const [revoking, setRevoking] = useState<AgentPaymentSession | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const revoke = useMutation(trpc.paymentSessions.revoke.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.paymentSessions.pathKey() });

  const confirmRevoke = async () => {
    if (!revoking) return;
    setRevokeError(null);
    try {
      await revoke.mutateAsync({ sessionId: revoking.id });
      toast.success(revoking.status === 'requested' ? 'Budget request withdrawn' : 'Session revoked');
      setRevoking(null);
    } catch (error) {
      setRevokeError(errorMessage(error, 'Failed to revoke the session'));
    } finally {
      void refresh();
    }
  };

  return (
    <SectionCard title="Payment sessions">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}>
        <Typography variant="body2" color="text.secondary">
          Budgets for one task: payments naming a session count against what is left of it, on top of the spending rules.
        </Typography>
        {canOpen ? (
          <Button variant="outlined" onClick={() => setOpening(true)} sx={{ flexShrink: 0 }}>
            Open session
          </Button>
        ) : null}
      </Stack>
      {sessions.isPending ? (
        <Skeleton variant="rounded" height={120} role="status" aria-label="Loading payment sessions" />
      ) : sessions.isError ? (
        <RetryAlert onRetry={() => void sessions.refetch()}>{errorMessage(sessions.error, 'Unable to load the payment sessions.')}</RetryAlert>
      ) : sessions.data.sessions.length === 0 ? (
        <Typography color="text.secondary">No payment sessions yet. Open one, or let the agent ask for a budget (POST /budget/request).</Typography>
      ) : (
        <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {sessions.data.sessions.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              onRevoke={() => {
                setRevokeError(null);
                setRevoking(session);
              }}
            />
          ))}
        </Stack>
      )}
      <OpenSessionDialog open={opening} agentId={agentId} agentName={agentName} onClose={() => setOpening(false)} onOpened={() => void refresh()} />
      <AgentConfirmDialog
        id="revoke-session"
        open={revoking !== null}
        title={revoking?.status === 'requested' ? 'Withdraw budget request?' : 'Revoke payment session?'}
        confirmLabel={revoking?.status === 'requested' ? 'Withdraw request' : 'Revoke session'}
        busyLabel="Processing..."
        color="error"
        busy={revoke.isPending}
        error={revokeError}
        onConfirm={() => void confirmRevoke()}
        onClose={() => setRevoking(null)}
      >
        <DialogContentText>
          {revoking
            ? `The ${formatDollars(revoking.total)} session closes now: ${agentName} can no longer pay from the ${formatDollars(revoking.remaining)} left. Payments already made stay as they are.`
            : ''}
        </DialogContentText>
      </AgentConfirmDialog>
    </SectionCard>
  );
}

function SessionItem({ session, onRevoke }: { session: AgentPaymentSession; onRevoke: () => void }) {
  const titleId = useId();
  const percent = spentPercent(session.spent, session.total);
  const live = session.status === 'open' || session.status === 'requested';
  return (
    <Box component="li" id={`session-${session.id}`} aria-labelledby={titleId} data-testid="payment-session" data-session-id={session.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id={titleId} variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
          {formatDollars(session.total)} session
        </Typography>
        <Chip size="small" label={sessionStatusLabel(session.status, session.closedReason)} color={STATUS_COLORS[session.status]} variant={live ? 'filled' : 'outlined'} />
        <Typography variant="body2" color="text.secondary">
          {session.requestedBy === 'agent' ? 'Asked by the agent' : 'Opened by you'} · <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
        </Typography>
      </Stack>
      {session.reason ? (
        <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          {session.reason}
        </Typography>
      ) : null}
      {session.status !== 'requested' && session.status !== 'rejected' ? (
        <Box sx={{ mt: 1.5 }}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 0.5 }}>
            <Typography variant="body2" data-testid="session-spent">
              Spent {formatDollars(session.spent)}
            </Typography>
            <Typography variant="body2" data-testid="session-remaining">
              Remaining {formatDollars(session.remaining)}
            </Typography>
          </Stack>
          <LinearProgress variant="determinate" value={percent} aria-label={`Spent ${formatDollars(session.spent)} of ${formatDollars(session.total)}`} sx={{ height: 8, borderRadius: 4 }} />
        </Box>
      ) : null}
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, rowGap: 0.5, m: 0, mt: 1.5 }}>
        <Term label={session.status === 'closed' ? 'Ended' : 'Ends'}>
          <time dateTime={session.closedAt ?? session.expiresAt}>{formatDateTime(session.closedAt ?? session.expiresAt)}</time>
        </Term>
        <Term label="Per payment">{session.perPaymentMax === null ? 'No cap' : formatDollars(session.perPaymentMax)}</Term>
        <Term label="Scope">{scopeText(session.scope)}</Term>
        {session.allPayments ? <Term label="Charged">All the agent&apos;s payments</Term> : null}
        {session.reserve ? <Term label="Set aside">{formatDollars(session.reserved)}</Term> : null}
        {session.decisionNote ? <Term label="Your note">{session.decisionNote}</Term> : null}
      </Box>
      {session.status === 'requested' ? (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          The agent waits for your decision.{' '}
          <Link component={RouterLink} to="/dashboard/approvals" color="inherit" sx={{ fontWeight: 600 }}>
            Review in Approvals
          </Link>
        </Alert>
      ) : null}
      <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
        {session.status !== 'requested' && session.status !== 'rejected' ? (
          <Link component={RouterLink} to={`/dashboard/payments?session=${session.id}`} underline="hover" aria-describedby={titleId} sx={{ fontWeight: 600 }}>
            Payments of this session
          </Link>
        ) : null}
        {live ? (
          <Button size="small" color="error" variant="outlined" onClick={onRevoke} aria-describedby={titleId}>
            {session.status === 'requested' ? 'Withdraw request' : 'Revoke'}
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}
