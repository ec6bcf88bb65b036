// Payment session activities. Closing a session (its audit entry, its budget.closed webhook) is
// the server's (services/payment-sessions/close-payment-session.ts), handed in here, so this
// workspace never imports the server.

/**
 * What closing an expired session (or a budget request undecided at its expiry) found: `closed`
 * now, `not_open` (revoked, spent, rejected or closed already: nothing to do), or `not_yet` (the
 * server's clock has not reached the expiry).
 */
export type ExpiredSessionOutcome = 'closed' | 'not_open' | 'not_yet';

export interface PaymentSessionCloser {
  closeExpiredSession(sessionId: string): Promise<ExpiredSessionOutcome>;
}

export function createPaymentSessionActivities(closer: PaymentSessionCloser) {
  return {
    closeExpiredPaymentSession(sessionId: string): Promise<ExpiredSessionOutcome> {
      return closer.closeExpiredSession(sessionId);
    },
  };
}

export type PaymentSessionActivities = ReturnType<typeof createPaymentSessionActivities>;
