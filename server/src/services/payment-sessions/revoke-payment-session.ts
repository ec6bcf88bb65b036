/**
 * The owner ends a payment session: a waiting request or an open session closes at once
 * (`revoked`), so no payment names it any more; audited and announced as budget.closed. What
 * its payments hold or paid stays as it is. A session already closed or rejected (or a request
 * past its expiry, which closes as expired) is a 409 that changes nothing. What it set aside, if
 * the owner reserved its budget, goes back to the agent.
 */
import { AppError, type PaymentSessionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { isUuid } from '../agents/owned-agent';
import { recordSessionChange, startSessionEventDeliveries, type SessionServiceDeps } from './session-events';
import { lockAgentWallet, releaseSessionReserve } from './session-reserve';
import { sessionNotFound, sessionSelect, viewSession } from './session-view';

export async function revokePaymentSession(deps: SessionServiceDeps, ownerId: string, sessionId: string, now = new Date()): Promise<PaymentSessionView> {
  if (!isUuid(ownerId) || !isUuid(sessionId)) throw sessionNotFound();
  const owned = await deps.db.prisma.paymentSession.findFirst({ where: { id: sessionId, ownerId }, select: { id: true, agentId: true, reserve: true } });
  if (!owned) throw sessionNotFound();
  const revoked = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    // What it sets aside goes back to the agent: the wallet first, as payments lock it.
    if (owned.reserve) await lockAgentWallet(tx, owned.agentId);
    const closing = { status: 'closed', closedReason: 'revoked', closedAt: now } as const;
    // Ending a waiting request answers it too: it gets its decision time (an open session has one).
    const answered = await tx.paymentSession.updateMany({ where: { id: sessionId, ownerId, status: 'requested', expiresAt: { gt: now } }, data: { ...closing, decidedAt: now } });
    const ended = answered.count > 0 ? answered : await tx.paymentSession.updateMany({ where: { id: sessionId, ownerId, status: 'open' }, data: closing });
    if (ended.count === 0) throw new AppError('CONFLICT', 'This payment session is already closed or was rejected');
    await releaseSessionReserve(tx, sessionId);
    const row = await tx.paymentSession.findUniqueOrThrow({ where: { id: sessionId }, select: sessionSelect });
    const session = await viewSession(tx, row, now);
    const deliveryIds = await recordSessionChange(tx, { actor: `owner:${ownerId}`, action: 'revoked', ownerId, session, event: 'budget.closed', at: now });
    return { session, deliveryIds };
  });
  await startSessionEventDeliveries(deps, revoked.deliveryIds);
  return revoked.session;
}
