import { router } from '../init';
import { approvalLink } from './approval-link';
import { countWaitingRequests } from './count-waiting-requests';
import { decideByLink } from './decide-by-link';
import { decidePaymentSession } from './decide-payment-session';
import { getPaymentSession } from './get-payment-session';
import { listPaymentSessions } from './list-payment-sessions';
import { openPaymentSession } from './open-payment-session';
import { revokePaymentSession } from './revoke-payment-session';

/** Payment sessions: budgets for one agent and one task, opened by the owner or requested by the agent. */
export const paymentSessionsRouter = router({
  open: openPaymentSession,
  list: listPaymentSessions,
  get: getPaymentSession,
  decide: decidePaymentSession,
  revoke: revokePaymentSession,
  approvalLink,
  decideByLink,
  pendingCount: countWaitingRequests,
});
