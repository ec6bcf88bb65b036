/**
 * A payment session closes by itself when it is spent or expires; each close is written once,
 * audited (`payment_session.closed`) and announced as budget.closed, like a revocation.
 *
 * - Spent: in the transaction of the capture that paid the session's total (settle-payment.ts),
 *   counted from what its payments settled (evidence, not holds: a held payment may still be
 *   released and give the budget back).
 * - Expired: by the session's expiry timer (paymentSessionExpiryWorkflow, started when it opens;
 *   session-expiry.ts), through the worker's closer below; a session whose timer never started
 *   (Temporal away at the commit) is closed by the reconciler's sweep a minute later. A budget
 *   request its owner left undecided past the expiry it asked for closes the same way (its own
 *   timer, started when it is asked), as expired with no decision.
 *
 * A session that set its budget aside gives what is still set aside back to the agent in the
 * close's transaction (session-reserve.ts).
 *
 * Each close is an update guarded by the status (`open`, or `requested` for an expiry), so a
 * close racing a revocation, a decision, another capture or a retried activity closes once and
 * the other finds nothing to do.
 */
import { PAYMENT_WORKFLOW_ACTOR } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { PaymentSessionCloser } from '@purser/workflows';
import { withAuditRetry } from '../audit/append-audit-event';
import { isUuid } from '../agents/owned-agent';
import { recordSessionChange, startSessionEventDeliveries, type SessionServiceDeps } from './session-events';
import { lockAgentWallet, releaseSessionReserve } from './session-reserve';
import { sessionSelect, viewSession } from './session-view';

/** Who closes an expired session in the audit log. */
export const SESSION_EXPIRY_ACTOR = 'system:payment-session-expiry';

/** Closes the session when its settled payments reached its total; the budget.closed deliveries to start after commit. */
export async function closeSessionIfSpent(tx: TransactionClient, sessionId: string, at: Date): Promise<string[]> {
  const closed = await tx.$queryRaw<Array<{ ownerId: string }>>`
    UPDATE "payment_sessions" s SET "status" = 'closed', "closed_reason" = 'spent', "closed_at" = ${at}
     WHERE s."id" = ${sessionId}::uuid AND s."status" = 'open'
       AND s."total_units" <= (SELECT coalesce(sum(i."amount"), 0) FROM "payment_intents" i
                                WHERE i."payment_session_id" = s."id" AND i."settled_at" IS NOT NULL)
    RETURNING s."owner_id"::text AS "ownerId"`;
  if (closed.length === 0) return [];
  // The capture holds the agent's wallet already, so the reserve's lock order is kept.
  await releaseSessionReserve(tx, sessionId);
  return recordClose(tx, sessionId, closed[0]!.ownerId, PAYMENT_WORKFLOW_ACTOR, at);
}

/** Closes an open session, or a waiting request, whose expiry has passed at `now`; what it found. */
export async function closeExpiredSession(deps: SessionServiceDeps, sessionId: string, now = new Date()): Promise<'closed' | 'not_open' | 'not_yet'> {
  if (!isUuid(sessionId)) return 'not_open';
  const outcome = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const reserved = await tx.paymentSession.findUnique({ where: { id: sessionId }, select: { agentId: true, reserve: true } });
    // What it sets aside goes back to the agent: the wallet first, as payments lock it.
    if (reserved?.reserve) await lockAgentWallet(tx, reserved.agentId);
    const closed = await tx.$queryRaw<Array<{ ownerId: string }>>`
      UPDATE "payment_sessions" SET "status" = 'closed', "closed_reason" = 'expired', "closed_at" = "expires_at"
       WHERE "id" = ${sessionId}::uuid AND "status" IN ('open', 'requested') AND "expires_at" <= ${now}
      RETURNING "owner_id"::text AS "ownerId"`;
    if (closed.length > 0) {
      await releaseSessionReserve(tx, sessionId);
      return { closed: true as const, deliveryIds: await recordClose(tx, sessionId, closed[0]!.ownerId, SESSION_EXPIRY_ACTOR, now) };
    }
    const row = await tx.paymentSession.findUnique({ where: { id: sessionId }, select: { status: true } });
    return { closed: false as const, stillOpen: row?.status === 'open' || row?.status === 'requested' };
  });
  if (!outcome.closed) return outcome.stillOpen ? 'not_yet' : 'not_open';
  await startSessionEventDeliveries(deps, outcome.deliveryIds);
  return 'closed';
}

/** A session past its expiry by this much has missed its timer: the sweep closes it. */
const MISSED_EXPIRY_MS = 60_000;
const SWEEP_BATCH = 100;

/** The reconciler's sweep (app.ts): closes the open sessions and waiting requests whose expiry timer should have closed them. */
export async function sweepExpiredSessions(deps: SessionServiceDeps, now = new Date()): Promise<string[]> {
  const missed = await deps.db.prisma.paymentSession.findMany({
    where: { status: { in: ['open', 'requested'] }, expiresAt: { lt: new Date(now.getTime() - MISSED_EXPIRY_MS) } },
    select: { id: true },
    orderBy: { expiresAt: 'asc' },
    take: SWEEP_BATCH,
  });
  const closed: string[] = [];
  for (const { id } of missed) if ((await closeExpiredSession(deps, id, now)) === 'closed') closed.push(id);
  return closed;
}

/** The worker's side of the expiry timer (workflows' PaymentSessionCloser). */
export function createPaymentSessionCloser(deps: SessionServiceDeps): PaymentSessionCloser {
  return { closeExpiredSession: (sessionId) => closeExpiredSession(deps, sessionId) };
}

async function recordClose(tx: TransactionClient, sessionId: string, ownerId: string, actor: string, at: Date): Promise<string[]> {
  const row = await tx.paymentSession.findUniqueOrThrow({ where: { id: sessionId }, select: sessionSelect });
  const session = await viewSession(tx, row, at);
  return recordSessionChange(tx, { actor, action: 'closed', ownerId, session, event: 'budget.closed', at });
}
