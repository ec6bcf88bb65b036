/**
 * The owner answers an agent's request: grant it (open, possibly for less than asked or until
 * sooner, never more or later) or reject it with a note; audited and announced as budget.granted
 * or budget.rejected. Only a waiting request is decided: the update is guarded by its status, so
 * two decisions at once decide once and the other is a 409 that changed nothing. A request past
 * the expiry it asked for is no longer waiting (it reads closed, expired; its timer closes it):
 * a 409 too.
 */
import { AppError, toDecimalString, type DecidePaymentSessionInput, type PaymentSessionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { isUuid } from '../agents/owned-agent';
import { recordSessionChange, startSessionEventDeliveries, type SessionServiceDeps } from './session-events';
import { startSessionExpiry } from './session-expiry';
import { lockAgentWallet, reserveSessionBudget } from './session-reserve';
import { assertNoOtherAllPaymentsSession, assertSessionExpiry } from './session-terms';
import { assertRequestWaiting, sessionNotFound, sessionSelect, viewSession, type SessionRow } from './session-view';

const ALREADY_DECIDED = 'This budget request was already decided';

export async function decidePaymentSession(deps: SessionServiceDeps, ownerId: string, input: DecidePaymentSessionInput, now = new Date()): Promise<PaymentSessionView> {
  if (!isUuid(ownerId) || !isUuid(input.sessionId)) throw sessionNotFound();
  const decided = await withAuditRetry(deps.db.prisma, (tx: TransactionClient) => decidePaymentSessionIn(tx, ownerId, input, now));
  await startSessionEventDeliveries(deps, decided.deliveryIds);
  await startSessionExpiry(deps, decided.session);
  return decided.session;
}

/**
 * The decision inside the caller's transaction (an audited one: withAuditRetry), for a caller that
 * writes something with it (the approval link it consumes); it answers the budget.* deliveries to
 * start once that transaction committed. A refusal throws, so the caller's writes roll back too.
 */
export async function decidePaymentSessionIn(
  tx: TransactionClient,
  ownerId: string,
  input: DecidePaymentSessionInput,
  now: Date,
): Promise<{ session: PaymentSessionView; deliveryIds: string[] }> {
  if (!isUuid(ownerId) || !isUuid(input.sessionId)) throw sessionNotFound();
  const asked = await tx.paymentSession.findFirst({ where: { id: input.sessionId, ownerId }, select: sessionSelect });
  if (!asked) throw sessionNotFound();
  assertRequestWaiting(asked, now);
  const decision = input.approve ? grantedTerms(asked, input, now) : rejection(input);
  // Locks in the order payments take them: the agent's row, then its wallet (a grant that sets
  // the budget aside moves money), then the session.
  if (input.approve && input.allPayments) await assertNoOtherAllPaymentsSession(tx, asked.agentId, now);
  if (input.approve && input.reserve) await lockAgentWallet(tx, asked.agentId);
  const updated = await tx.paymentSession.updateMany({
    where: { id: asked.id, ownerId, status: 'requested', expiresAt: { gt: now } },
    data: { ...decision, decisionNote: input.note || null, decidedAt: now },
  });
  if (updated.count === 0) throw new AppError('CONFLICT', ALREADY_DECIDED);
  if ('reserve' in decision && decision.reserve) await reserveSessionBudget(tx, asked, decision.totalUnits);
  const row = await tx.paymentSession.findUniqueOrThrow({ where: { id: asked.id }, select: sessionSelect });
  const session = await viewSession(tx, row, now);
  const deliveryIds = await recordSessionChange(tx, {
    actor: `owner:${ownerId}`,
    action: input.approve ? 'granted' : 'rejected',
    ownerId,
    session,
    event: input.approve ? 'budget.granted' : 'budget.rejected',
    at: now,
  });
  return { session, deliveryIds };
}

/** What a grant writes: the total and expiry asked for, or the lower and sooner ones the owner chose. */
function grantedTerms(asked: SessionRow, input: DecidePaymentSessionInput, now: Date) {
  const totalUnits = input.totalUsd ?? asked.totalUnits;
  if (totalUnits > asked.totalUnits) {
    throw new AppError('VALIDATION_FAILED', `The total granted can be at most the ${toDecimalString(asked.totalUnits)} USDC asked for`);
  }
  const expiresAt = input.expiresAt === undefined ? asked.expiresAt : new Date(input.expiresAt);
  if (expiresAt.getTime() > asked.expiresAt.getTime()) {
    throw new AppError('VALIDATION_FAILED', `The expiry granted can be at most the one asked for, ${asked.expiresAt.toISOString()}`);
  }
  assertSessionExpiry(expiresAt, now);
  // A lower total lowers the cap per payment with it: a payment can never be more than the whole.
  const perPaymentUnits = asked.perPaymentUnits !== null && asked.perPaymentUnits > totalUnits ? totalUnits : asked.perPaymentUnits;
  return { status: 'open' as const, totalUnits, perPaymentUnits, expiresAt, allPayments: input.allPayments ?? false, reserve: input.reserve ?? false };
}

function rejection(input: DecidePaymentSessionInput) {
  if (input.totalUsd !== undefined || input.expiresAt !== undefined || input.allPayments !== undefined || input.reserve !== undefined) {
    throw new AppError('VALIDATION_FAILED', 'A rejection takes only a note: totalUsd, expiresAt, allPayments and reserve are for a grant');
  }
  return { status: 'rejected' as const };
}
