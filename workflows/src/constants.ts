/** Task queue the payments worker polls (ARCHITECTURE: "N replicas on task queue `payments`"). */
export const TASK_QUEUE = 'payments';

/** Workflow type names, so clients can start workflows without loading workflow code. */
export const WORKFLOW_NAMES = {
  healthCheck: 'healthCheckWorkflow',
  payment: 'paymentWorkflow',
  webhookDelivery: 'webhookDeliveryWorkflow',
  paymentSessionExpiry: 'paymentSessionExpiryWorkflow',
} as const;

/** The payment workflow of an intent: the intent id is the business id (STYLE.md, Money). */
export function paymentWorkflowId(intentId: string): string {
  return `payment-${intentId}`;
}

/** The timer that closes an open payment session at its expiry: one per session, never reused. */
export function paymentSessionExpiryWorkflowId(sessionId: string): string {
  return `payment-session-expiry-${sessionId}`;
}

/**
 * The timer that closes an agent's budget request its owner has not decided by the expiry it
 * asked for. Apart from the open session's: a grant may set a sooner expiry, which gets a timer
 * of its own, and whichever comes second finds nothing left to close.
 */
export function paymentSessionRequestExpiryWorkflowId(sessionId: string): string {
  return `payment-session-request-expiry-${sessionId}`;
}

/** One delivery run of a webhook; `run` counts redeliveries (1 for the first). */
export function webhookDeliveryWorkflowId(deliveryId: string, run: number): string {
  return `webhook-delivery-${deliveryId}-${run}`;
}

/**
 * How a webhook delivery retries: exponential backoff from initialIntervalMs, doubling up to
 * maximumIntervalMs, for retryForMs after the first attempt (then the delivery is failed).
 */
export interface WebhookRetryPolicy {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  retryForMs: number;
}

/** 10 s, 20 s, 40 s, ... capped at one hour, for 25 hours: about 30 attempts. */
export const DEFAULT_WEBHOOK_RETRY: WebhookRetryPolicy = {
  initialIntervalMs: 10_000,
  maximumIntervalMs: 60 * 60_000,
  retryForMs: 25 * 60 * 60_000,
};

/** Business failures of payment activities, by AppError code: their ApplicationFailure type. Never retried. */
export const PAYMENT_FAILURES = {
  POLICY_VIOLATION: 'PolicyViolation',
  INSUFFICIENT_FUNDS: 'InsufficientFunds',
  PAYMENT_DECLINED: 'Declined',
  RAIL_UNAVAILABLE: 'RailUnavailable',
  AGENT_SUSPENDED: 'AgentSuspended',
  NOT_FOUND: 'NotFound',
  // Not a decline: the capture is refused for good with the funds still held, for an operator.
  CAPTURE_INVARIANT: 'CaptureInvariant',
} as const;

/** How long an approval waits when no policy sets a time box (spec sample: 24h). */
export const DEFAULT_APPROVAL_TIME_BOX_MS = 24 * 60 * 60_000;
