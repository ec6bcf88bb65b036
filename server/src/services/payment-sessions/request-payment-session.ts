/**
 * The agent asks its owner for a payment session (POST /budget/request, the request_budget MCP
 * tool): it waits as `requested` until the owner decides, audited and announced as
 * budget.requested. An agent may have PAYMENT_SESSION_MAX_WAITING_REQUESTS requests waiting at
 * once (a request past its expiry no longer counts); the agent's row is locked while counting, so
 * two requests at once cannot both take the last place. The agent's answer carries the one-time
 * approval link it hands its owner (approval-link.ts), minted in the same transaction. A request
 * still waiting at the expiry it asked for is closed then, as expired (session-expiry.ts).
 */
import { AppError, PAYMENT_SESSION_MAX_WAITING_REQUESTS, type RequestPaymentSessionInput } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { withAuditRetry } from '../audit/append-audit-event';
import { lockOwnedAgent } from '../agents/owned-agent';
import { mintApprovalLink } from './approval-link';
import { recordSessionChange, startSessionEventDeliveries, type SessionServiceDeps } from './session-events';
import { startSessionExpiry } from './session-expiry';
import { assertPerPaymentWithinTotal, assertSessionExpiry } from './session-terms';
import { sessionSelect, toSessionView, type RequestedPaymentSession } from './session-view';

export async function requestPaymentSession(
  deps: SessionServiceDeps & Pick<AppDeps, 'publicUrl'>,
  agent: Pick<AuthenticatedAgent, 'agentId' | 'ownerId'>,
  input: RequestPaymentSessionInput,
  now = new Date(),
): Promise<RequestedPaymentSession> {
  const expiresAt = new Date(input.expires_at);
  assertSessionExpiry(expiresAt, now);
  assertPerPaymentWithinTotal(input.per_payment_max, input.total);
  const requested = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    await lockOwnedAgent(tx, agent.ownerId, agent.agentId);
    const waiting = await tx.paymentSession.count({ where: { agentId: agent.agentId, status: 'requested', expiresAt: { gt: now } } });
    if (waiting >= PAYMENT_SESSION_MAX_WAITING_REQUESTS) {
      throw new AppError('CONFLICT', `${waiting} budget requests already wait for the owner; wait for a decision before asking again`);
    }
    const row = await tx.paymentSession.create({
      data: {
        ownerId: agent.ownerId,
        agentId: agent.agentId,
        status: 'requested',
        requestedBy: 'agent',
        reason: input.reason,
        totalUnits: input.total,
        perPaymentUnits: input.per_payment_max ?? null,
        scope: (input.scope ?? {}) as Prisma.InputJsonObject,
        expiresAt,
        createdAt: now,
      },
      select: sessionSelect,
    });
    const session = toSessionView(row, 0n, now);
    const deliveryIds = await recordSessionChange(tx, { actor: `agent:${agent.agentId}`, action: 'requested', ownerId: agent.ownerId, session, event: 'budget.requested', at: now });
    const approvalUrl = await mintApprovalLink(tx, { sessionId: session.id, ownerId: agent.ownerId, publicUrl: deps.publicUrl, now });
    return { session, approvalUrl, deliveryIds };
  });
  await startSessionEventDeliveries(deps, requested.deliveryIds);
  await startSessionExpiry(deps, requested.session);
  return { ...requested.session, approvalUrl: requested.approvalUrl };
}
