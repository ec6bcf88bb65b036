/**
 * The owner decides an agent's budget request through its one-time approval link
 * (approval-link.ts), signed in. One transaction consumes the link and decides: the link's update
 * is guarded (its token, unused, unexpired, this owner's, this request's), then the decision
 * runs as decide-payment-session.ts does it. A refusal of either rolls both back: the request
 * stays waiting and the link unused, with no audit entry and no webhook delivery.
 */
import type { DecidePaymentSessionByLinkInput, PaymentSessionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { isUuid } from '../agents/owned-agent';
import { approvalLinkNotFound, approvalLinkSelect, approvalLinkUsed, approvalTokenHash, assertApprovalLinkUsable } from './approval-link';
import { decidePaymentSessionIn } from './decide-payment-session';
import { startSessionEventDeliveries, type SessionServiceDeps } from './session-events';
import { startSessionExpiry } from './session-expiry';

export async function decidePaymentSessionByLink(deps: SessionServiceDeps, ownerId: string, input: DecidePaymentSessionByLinkInput, now = new Date()): Promise<PaymentSessionView> {
  if (!isUuid(ownerId)) throw approvalLinkNotFound();
  const { token, ...decision } = input;
  const tokenHash = approvalTokenHash(token);
  const decided = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const consumed = await tx.paymentSessionApprovalLink.updateMany({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now }, ownerId, sessionId: decision.sessionId },
      data: { usedAt: now },
    });
    if (consumed.count === 0) {
      // Say why: read the link as this transaction sees it (a link used meanwhile reads used).
      const link = await tx.paymentSessionApprovalLink.findUnique({ where: { tokenHash }, select: approvalLinkSelect });
      assertApprovalLinkUsable(link, ownerId, now, decision.sessionId);
      throw approvalLinkUsed();
    }
    return decidePaymentSessionIn(tx, ownerId, decision, now);
  });
  await startSessionEventDeliveries(deps, decided.deliveryIds);
  await startSessionExpiry(deps, decided.session);
  return decided.session;
}
