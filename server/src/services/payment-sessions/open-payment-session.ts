/**
 * The owner opens a payment session for one of their agents: open at once (nothing to decide),
 * audited and announced as budget.granted, like a request the owner granted; its expiry timer
 * starts (session-expiry.ts). Opened for all the agent's payments, it is the only such session
 * of the agent open at a time (the agent's row is locked while it looks). Opened with `reserve`,
 * its total is set aside at once (session-reserve.ts), or nothing is opened when the agent's
 * balance is short (422 INSUFFICIENT_FUNDS).
 */
import type { OpenPaymentSessionInput, PaymentSessionView } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { agentNotFound, assertUuids, ownedAgentWhere } from '../agents/owned-agent';
import { recordSessionChange, startSessionEventDeliveries, type SessionServiceDeps } from './session-events';
import { assertNoOtherAllPaymentsSession, assertPerPaymentWithinTotal, assertSessionExpiry } from './session-terms';
import { startSessionExpiry } from './session-expiry';
import { reserveSessionBudget } from './session-reserve';
import { sessionSelect, toSessionView } from './session-view';

export async function openPaymentSession(deps: SessionServiceDeps, ownerId: string, input: OpenPaymentSessionInput, now = new Date()): Promise<PaymentSessionView> {
  assertUuids(ownerId, input.agentId);
  const expiresAt = new Date(input.expiresAt);
  assertSessionExpiry(expiresAt, now);
  assertPerPaymentWithinTotal(input.perPaymentMaxUsd, input.totalUsd);
  const opened = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await tx.agent.findFirst({ where: ownedAgentWhere(ownerId, input.agentId), select: { id: true } });
    if (!agent) throw agentNotFound();
    if (input.allPayments) await assertNoOtherAllPaymentsSession(tx, agent.id, now);
    const row = await tx.paymentSession.create({
      data: {
        ownerId,
        agentId: agent.id,
        status: 'open',
        requestedBy: 'owner',
        reason: input.reason || null,
        totalUnits: input.totalUsd,
        perPaymentUnits: input.perPaymentMaxUsd ?? null,
        scope: (input.scope ?? {}) as Prisma.InputJsonObject,
        expiresAt,
        allPayments: input.allPayments ?? false,
        reserve: input.reserve ?? false,
        decidedAt: now,
        createdAt: now,
      },
      select: { id: true },
    });
    if (input.reserve) await reserveSessionBudget(tx, { id: row.id, agentId: agent.id }, input.totalUsd);
    const session = toSessionView(await tx.paymentSession.findUniqueOrThrow({ where: { id: row.id }, select: sessionSelect }), 0n, now);
    const deliveryIds = await recordSessionChange(tx, { actor: `owner:${ownerId}`, action: 'opened', ownerId, session, event: 'budget.granted', at: now });
    return { session, deliveryIds };
  });
  await startSessionEventDeliveries(deps, opened.deliveryIds);
  await startSessionExpiry(deps, opened.session);
  return opened.session;
}
