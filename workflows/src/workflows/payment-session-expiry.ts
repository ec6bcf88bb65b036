// Closes an open payment session at its expiry: a durable timer to the expiry, then the close
// (audited, announced as budget.closed). One run per session, started when it opens; a session
// revoked or spent before then is left as it is. The same run, under another id, closes an
// agent's budget request its owner has not decided by the expiry it asked for. The gate refuses an expired session's payments
// on its own (the expiry is in the row), so this run only makes the close a fact others hear of.
// Two events and a timer: far from the history limit, whatever the expiry (at most 30 days).
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { ExpiredSessionOutcome, PaymentSessionActivities } from '../activities/payment-sessions';

const { closeExpiredPaymentSession } = proxyActivities<PaymentSessionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export interface PaymentSessionExpiryInput {
  sessionId: string;
  /** ISO 8601. */
  expiresAt: string;
}

/** A worker's clock ahead of the server's by more than this many seconds gives up (the row still reads closed). */
const MAX_EARLY_TRIES = 30;

export async function paymentSessionExpiryWorkflow({ sessionId, expiresAt }: PaymentSessionExpiryInput): Promise<ExpiredSessionOutcome> {
  const wait = Date.parse(expiresAt) - Date.now();
  if (wait > 0) await sleep(wait);
  for (let tries = 1; ; tries++) {
    const outcome = await closeExpiredPaymentSession(sessionId);
    if (outcome !== 'not_yet' || tries >= MAX_EARLY_TRIES) return outcome;
    await sleep('1 second');
  }
}
