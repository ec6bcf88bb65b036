/**
 * The approval wait's database side. The owner's decision (services/intents/decide-intent.ts)
 * and the time box are both settled here under the intent's row lock, so whichever comes first
 * wins and the workflow follows the database's answer.
 */
import type { TransactionClient } from '@purser/db';
import { type ApprovalOutcome, type IntentStatus, PAYMENT_WORKFLOW_ACTOR } from '@purser/core';
import { lockIntent, transitionIntent } from '../intents/transition-intent';

const OUTCOME_BY_STATUS: Partial<Record<IntentStatus, ApprovalOutcome>> = {
  pending_approval: 'pending',
  approved: 'approved',
  processing: 'approved',
  settled: 'approved',
  rejected: 'rejected',
  expired: 'expired',
  cancelled: 'cancelled',
  blocked: 'blocked',
};

function outcomeOf(status: IntentStatus): ApprovalOutcome {
  // failed and anything unforeseen end the wait like a refusal: no money moves.
  return OUTCOME_BY_STATUS[status] ?? 'cancelled';
}

/**
 * Opens (or re-opens, when limits sent an approved intent back) the approval, expiring at
 * `expiresAt`; a new approval is dated `openedAt` (the time its time box counts from).
 */
export async function openApproval(tx: TransactionClient, intentId: string, expiresAt: Date, openedAt?: Date): Promise<ApprovalOutcome> {
  const intent = await lockIntent(tx, intentId);
  if (intent.status !== 'pending_approval') return outcomeOf(intent.status);
  const existing = await tx.approval.findUnique({ where: { paymentIntentId: intentId }, select: { status: true } });
  if (!existing) {
    await tx.approval.create({ data: { paymentIntentId: intentId, expiresAt, ...(openedAt ? { createdAt: openedAt } : {}) }, select: { id: true } });
  } else {
    await tx.approval.update({
      where: { paymentIntentId: intentId },
      data: { status: 'pending', expiresAt, reason: null, decidedBy: null, decidedAt: null },
      select: { id: true },
    });
  }
  await tx.paymentIntent.update({ where: { id: intentId }, data: { expiresAt }, select: { id: true } });
  return 'pending';
}

/** The outcome as the database holds it; when the time box ran out first, the intent expires. */
export async function resolveApproval(tx: TransactionClient, intentId: string, timedOut: boolean): Promise<ApprovalOutcome> {
  const intent = await lockIntent(tx, intentId);
  if (intent.status !== 'pending_approval' || !timedOut) return outcomeOf(intent.status);
  await tx.approval.updateMany({ where: { paymentIntentId: intentId, status: 'pending' }, data: { status: 'expired', decidedAt: new Date() } });
  await transitionIntent(tx, intent, {
    to: 'expired',
    actor: PAYMENT_WORKFLOW_ACTOR,
    data: { failureCode: 'APPROVAL_EXPIRED', failureMessage: 'Nobody approved the payment within its time box' },
  });
  return 'expired';
}
