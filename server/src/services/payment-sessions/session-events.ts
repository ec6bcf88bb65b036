/**
 * What a change of a payment session leaves behind, inside the change's own transaction: an entry
 * in the owner's audit chain (who asked or decided, the amounts, expiry, scope and note) and the
 * budget.* webhook event it announces, one delivery per live endpoint of the owner subscribed to
 * it, and a notice to the owner's live console (topic 'payment_sessions' on 'purser_events',
 * which PostgreSQL delivers only once the transaction commits). The deliveries' workflows start
 * after commit (startSessionEventDeliveries).
 *
 * Failure window: a delivery whose workflow could not be started (Temporal unreachable right
 * after the commit) stays pending in the delivery log with no attempt; the owner redelivers it
 * from the console. The session itself is committed either way.
 */
import { randomUUID } from 'node:crypto';
import type { PaymentSessionEvent, PaymentSessionEventView, PaymentSessionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { appendAuditEvent } from '../audit/append-audit-event';
import { EVENTS_CHANNEL } from '../realtime/event-bus';
import { recordEventDeliveries, startEventDeliveries } from '../webhooks/record-event-deliveries';

/** What a service that changes a session needs: the database, and Temporal to deliver its event. */
export type SessionServiceDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger'>;

export type SessionAuditAction = 'opened' | 'requested' | 'granted' | 'rejected' | 'revoked' | 'closed';

export interface SessionChange {
  /** `owner:<user id>`, `agent:<agent id>`, or the system that closed it (`system:...`). */
  actor: string;
  action: SessionAuditAction;
  ownerId: string;
  session: PaymentSessionView;
  event: PaymentSessionEvent;
  at: Date;
}

/** Appends the audit entry and records the webhook deliveries; answers the deliveries' ids. */
export async function recordSessionChange(tx: TransactionClient, change: SessionChange): Promise<string[]> {
  const { session } = change;
  await appendAuditEvent(tx, {
    actor: change.actor,
    action: `payment_session.${change.action}`,
    subject: `payment_session:${session.id}`,
    ownerId: change.ownerId,
    at: change.at,
    data: {
      agent_id: session.agentId,
      status: session.status,
      total: session.totalExact,
      per_payment_max: session.perPaymentMaxExact,
      expires_at: session.expiresAt,
      scope: session.scope,
      reason: session.reason,
      decision_note: session.decisionNote,
      closed_reason: session.closedReason,
    },
  });
  await announceToConsole(tx, change.ownerId, session);
  return recordDeliveries(tx, change.ownerId, change.event, session, change.at);
}

/** Ids only, never amounts, like the realtime triggers' payloads (event-bus.ts). */
async function announceToConsole(tx: TransactionClient, ownerId: string, session: PaymentSessionView): Promise<void> {
  const payload = JSON.stringify({ topic: 'payment_sessions', owner_id: ownerId, agent_id: session.agentId, session_id: session.id });
  await tx.$executeRaw`SELECT pg_notify(${EVENTS_CHANNEL}::text, ${payload}::text)`;
}

async function recordDeliveries(tx: TransactionClient, ownerId: string, type: PaymentSessionEvent, session: PaymentSessionView, at: Date): Promise<string[]> {
  const event: PaymentSessionEventView = { id: randomUUID(), type, createdAt: at.toISOString(), data: { session } };
  return recordEventDeliveries(tx, ownerId, event, at);
}

/** Starts the deliveries' workflows once their transaction committed; a failure is logged, not thrown. */
export function startSessionEventDeliveries(deps: Pick<AppDeps, 'temporal' | 'logger'>, deliveryIds: readonly string[]): Promise<void> {
  return startEventDeliveries(deps, deliveryIds, 'payment session');
}
