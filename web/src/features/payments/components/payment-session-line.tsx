// On a payment's page, when the agent named a payment session for it: which session, where it
// stands (what it has left), and links to the session on the agent's page and to every payment
// it paid. The session is read once more whenever a payment or the session changes (the
// console's stream).
import { Link, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { sessionShortName, sessionStatusLabel } from '../../../shared/payment-sessions/session-text';
import { useTRPC } from '../../../shared/trpc';
import { amountDisplay } from '../utils/format';

export function PaymentSessionLine({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const trpc = useTRPC();
  const session = useQuery(trpc.paymentSessions.get.queryOptions({ sessionId })).data;
  const standing = session
    ? ` (${formatUsd(session.totalExact)} total, ${formatUsd(session.remainingExact)} left; ${sessionStatusLabel(session.status, session.closedReason).toLowerCase()})`
    : '';
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid="payment-session-line">
      Paid from{' '}
      <Link component={RouterLink} to={`/dashboard/agents/${agentId}#session-${sessionId}`}>
        payment {sessionShortName(sessionId).toLowerCase()}
      </Link>
      {standing}
      {' · '}
      <Link component={RouterLink} to={`/dashboard/payments?session=${sessionId}`}>
        its payments
      </Link>
    </Typography>
  );
}

function formatUsd(exact: string): string {
  return `$${amountDisplay(exact).text}`;
}
