/**
 * How the agent API answers for a payment intent: settled is 200, waiting for the owner (or
 * still on its way) is 202 with the intent's id and status, and every refusal is an AppError
 * with a stable code, so REST, MCP and n8n report the same thing.
 */
import { AppError, ERROR_STATUS, TERMINAL_INTENT_STATUSES, type AgentPaymentView, type ErrorCode, type IntentView } from '@purser/core';

/** How long an agent call waits for its payment before answering 202 with where it stands. */
export const PAYMENT_WAIT_MS = 30_000;

/** The states an agent call can answer with: final, or waiting for the owner. */
export function isAnswerable(intent: IntentView): boolean {
  return TERMINAL_INTENT_STATUSES.includes(intent.status) || intent.status === 'pending_approval';
}

/** The refusal behind a final, unsuccessful intent; null for settled and unfinished ones. */
export function refusalOf(intent: IntentView): AppError | null {
  const reason = intent.failureMessage ?? 'The payment did not go through';
  switch (intent.status) {
    case 'blocked':
      return new AppError('POLICY_VIOLATION', `${reason} (${intent.failureCode ?? 'POLICY_VIOLATION'}; payment intent ${intent.id})`);
    case 'failed': {
      const code = intent.failureCode && intent.failureCode in ERROR_STATUS ? (intent.failureCode as ErrorCode) : 'PAYMENT_DECLINED';
      return new AppError(code, `${reason} (payment intent ${intent.id})`);
    }
    case 'rejected':
      return new AppError('PAYMENT_DECLINED', `The owner rejected the payment${intent.approval?.reason ? `: ${intent.approval.reason}` : ''} (payment intent ${intent.id})`);
    case 'expired':
      return new AppError('PAYMENT_DECLINED', `Nobody approved the payment within its time box (payment intent ${intent.id})`);
    case 'cancelled':
      return new AppError('CONFLICT', `The owner cancelled the payment (payment intent ${intent.id})`);
    default:
      return null;
  }
}

const NEXT_STEP: Partial<Record<IntentView['status'], string>> = {
  settled: 'Settled.',
  pending_approval: 'The payment waits for the owner to approve it. Read GET /payment/{intent_id}, or repeat this call with the same Idempotency-Key, to see the outcome.',
};

export function agentPaymentView(intent: IntentView): AgentPaymentView {
  return {
    intent_id: intent.id,
    status: intent.status,
    amount: intent.amount,
    amount_exact: intent.amountExact,
    currency: intent.currency,
    to_address: intent.toAddress,
    rail: intent.rail,
    sandbox: intent.sandbox,
    failure_code: intent.failureCode,
    failure_message: intent.failureMessage,
    settled_at: intent.settledAt,
    message:
      NEXT_STEP[intent.status] ??
      'The payment is still being processed. Repeat this call with the same Idempotency-Key to see the outcome.',
  };
}
