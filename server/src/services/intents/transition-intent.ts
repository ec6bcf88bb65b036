/**
 * The intent lifecycle as one transition table, enforced in one place. Every status change
 * locks the intent's row, checks the table, writes the change and appends its audit event in
 * the caller's transaction, so a workflow step and an owner's action that race are ordered by
 * the database and the loser sees the winner's status.
 */
import { AppError, INTENT_NOT_FOUND_MESSAGE, type IntentStatus } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import type { AuditData } from '../audit/audit-hash';
import { isUuid } from '../agents/owned-agent';
import { appendAuditEvent } from '../audit/append-audit-event';
import { countPaymentTransition } from '../../metrics/metrics';

/** From each status, where an intent may go. Terminal statuses go nowhere. */
export const INTENT_TRANSITIONS: Readonly<Record<IntentStatus, readonly IntentStatus[]>> = {
  created: ['pending_approval', 'approved', 'blocked', 'cancelled', 'failed'],
  // blocked: a policy attached while waiting denies it; approved without the owner when it allows it.
  pending_approval: ['approved', 'rejected', 'expired', 'cancelled', 'blocked', 'failed'],
  // pending_approval: limits moved since the gate and the owner must now approve (reserve).
  approved: ['processing', 'pending_approval', 'blocked', 'cancelled', 'failed'],
  processing: ['settled', 'failed'],
  settled: [],
  rejected: [],
  blocked: [],
  failed: [],
  expired: [],
  cancelled: [],
};

export interface LockedIntent {
  id: string;
  ownerId: string;
  agentId: string;
  status: IntentStatus;
  amount: bigint;
  currency: 'USDC' | 'USDT';
  reservedAt: Date | null;
  releasedAt: Date | null;
  settledAt: Date | null;
  /** The payment session it is charged to (as lockIntent reads it). */
  paymentSessionId?: string | null;
}

/** Locks the intent's row for the rest of the transaction. Scoped to an owner when one is given. */
export async function lockIntent(tx: TransactionClient, intentId: string, ownerId?: string): Promise<LockedIntent> {
  if (!isUuid(intentId)) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  const rows = await tx.$queryRaw<LockedIntent[]>`
    SELECT "id"::text AS "id", "owner_id"::text AS "ownerId", "agent_id"::text AS "agentId", "status"::text AS "status",
           "amount", "currency"::text AS "currency", "reserved_at" AS "reservedAt", "released_at" AS "releasedAt",
           "settled_at" AS "settledAt", "payment_session_id"::text AS "paymentSessionId"
      FROM "payment_intents" WHERE "id" = ${intentId}::uuid FOR UPDATE`;
  const row = rows[0];
  if (!row || (ownerId !== undefined && row.ownerId !== ownerId)) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  return { ...row, amount: BigInt(row.amount) };
}

export function canTransition(from: IntentStatus, to: IntentStatus): boolean {
  return INTENT_TRANSITIONS[from].includes(to);
}

export interface Transition {
  to: IntentStatus;
  /** Who caused it: "owner:<id>", "system" (the payment workflow). */
  actor: string;
  data?: Prisma.PaymentIntentUpdateInput;
  audit?: AuditData;
}

/**
 * Moves a locked intent to `to`, or throws 409 CONFLICT naming both statuses. Appends
 * `payment_intent.<to>` to the audit log in the same transaction.
 */
export async function transitionIntent(tx: TransactionClient, intent: LockedIntent, { to, actor, data = {}, audit = {} }: Transition): Promise<LockedIntent> {
  if (!canTransition(intent.status, to)) {
    throw new AppError('CONFLICT', `The payment intent is ${intent.status.replace('_', ' ')} and cannot become ${to.replace('_', ' ')}`);
  }
  const written = await tx.paymentIntent.update({ where: { id: intent.id }, data: { ...data, status: to }, select: { rail: true, createdAt: true } });
  await appendAuditEvent(tx, {
    actor,
    action: `payment_intent.${to}`,
    subject: `payment_intent:${intent.id}`,
    ownerId: intent.ownerId,
    data: { from: intent.status, to, ...audit },
  });
  countPaymentTransition(to, written);
  return { ...intent, status: to };
}
