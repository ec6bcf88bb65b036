/**
 * What a change of an OAuth connection leaves behind, inside the change's own transaction: an
 * entry in the owner's audit chain (every grant, token refresh and revocation; the client's id
 * and name, the agent, scopes and cap, never a token or code), and for a grant or a revocation
 * the connection.created / connection.revoked webhook event, one delivery per live endpoint of
 * the owner subscribed to it. The deliveries' workflows start after commit
 * (startConnectionEventDeliveries).
 *
 * Failure window: a delivery whose workflow could not be started (Temporal unreachable right
 * after the commit) stays pending in the delivery log with no attempt; the owner redelivers it
 * from the console. The connection itself is committed either way.
 */
import { randomUUID } from 'node:crypto';
import type { OAuthConnectionEvent, OAuthConnectionEventView, OAuthConnectionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import type { AuditData } from '../audit/audit-hash';
import { appendAuditEvent } from '../audit/append-audit-event';
import { recordEventDeliveries, startEventDeliveries } from '../webhooks/record-event-deliveries';

export type ConnectionAuditAction = 'created' | 'authorized' | 'refreshed' | 'access_token_revoked' | 'revoked';

export interface ConnectionChange {
  /** `owner:<id>`, or `oauth_client:<client id>` for what the client did. */
  actor: string;
  action: ConnectionAuditAction;
  ownerId: string;
  connection: OAuthConnectionView;
  data?: AuditData;
  /** The webhook event it announces, if any. */
  event?: OAuthConnectionEvent;
  at: Date;
}

/** Appends the audit entry and records the webhook deliveries; answers the deliveries' ids. */
export async function recordConnectionChange(tx: TransactionClient, change: ConnectionChange): Promise<string[]> {
  const { connection } = change;
  await appendAuditEvent(tx, {
    actor: change.actor,
    action: `oauth_connection.${change.action}`,
    subject: `oauth_connection:${connection.id}`,
    ownerId: change.ownerId,
    at: change.at,
    data: {
      agent_id: connection.agentId,
      client_id: connection.clientId,
      client_name: connection.clientName,
      scopes: connection.scopes,
      cap: connection.capExact,
      resource: connection.resource,
      ...change.data,
    },
  });
  return change.event ? recordDeliveries(tx, change.ownerId, change.event, connection, change.at) : [];
}

async function recordDeliveries(tx: TransactionClient, ownerId: string, type: OAuthConnectionEvent, connection: OAuthConnectionView, at: Date): Promise<string[]> {
  const event: OAuthConnectionEventView = { id: randomUUID(), type, createdAt: at.toISOString(), data: { connection } };
  return recordEventDeliveries(tx, ownerId, event, at);
}

/** Starts the deliveries' workflows once their transaction committed; a failure is logged, not thrown. */
export function startConnectionEventDeliveries(deps: Pick<AppDeps, 'temporal' | 'logger'>, deliveryIds: readonly string[]): Promise<void> {
  return startEventDeliveries(deps, deliveryIds, 'connection');
}
