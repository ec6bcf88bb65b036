/**
 * Ending a connection: it and every token of it stop at once (verify-access-token.ts reads the
 * revocation on the next request), audited in the owner's chain and announced
 * (connection.revoked). The owner revokes from the console; the client through RFC 7009 with its
 * refresh token; the server itself when a code or refresh token is replayed (the whole family
 * goes, RFC 6749 section 10.5 and OAuth 2.1 section 4.3.1). Revoking what is revoked changes
 * nothing and answers the connection as it is.
 */
import { AppError, type OAuthConnectionView, type OAuthRevocationReason } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { withAuditRetry } from '../audit/append-audit-event';
import { isUuid } from '../agents/owned-agent';
import { recordConnectionChange, startConnectionEventDeliveries } from './connection-events';
import { connectionSelect, viewConnection } from './connection-view';

export type RevokeDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger'>;

export const CONNECTION_NOT_FOUND = 'Connection not found';

/** The owner revokes one of their connections (404 for anybody else's). */
export async function revokeConnection(deps: RevokeDeps, ownerId: string, connectionId: string, now = new Date()): Promise<OAuthConnectionView> {
  if (!isUuid(ownerId) || !isUuid(connectionId)) throw new AppError('NOT_FOUND', CONNECTION_NOT_FOUND);
  const owned = await deps.db.prisma.oauthConnection.findFirst({ where: { id: connectionId, ownerId }, select: { id: true } });
  if (!owned) throw new AppError('NOT_FOUND', CONNECTION_NOT_FOUND);
  return endConnection(deps, connectionId, { reason: 'owner', actor: `owner:${ownerId}` }, now);
}

/** Ends the connection and its tokens; who ends it and why go to the audit entry. */
export async function endConnection(
  deps: RevokeDeps,
  connectionId: string,
  why: { reason: OAuthRevocationReason; actor: string },
  now = new Date(),
): Promise<OAuthConnectionView> {
  const ended = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const revoked = await tx.oauthConnection.updateMany({ where: { id: connectionId, revokedAt: null }, data: { revokedAt: now, revokedReason: why.reason } });
    const row = await tx.oauthConnection.findUniqueOrThrow({ where: { id: connectionId }, select: { ...connectionSelect, ownerId: true } });
    const { ownerId, ...fields } = row;
    const connection = await viewConnection(tx, fields);
    if (revoked.count === 0) return { connection, deliveryIds: [] };
    await tx.oauthToken.updateMany({ where: { connectionId, revokedAt: null }, data: { revokedAt: now } });
    const deliveryIds = await recordConnectionChange(tx, {
      actor: why.actor,
      action: 'revoked',
      ownerId,
      connection,
      data: { reason: why.reason },
      event: 'connection.revoked',
      at: now,
    });
    return { connection, deliveryIds };
  });
  await startConnectionEventDeliveries(deps, ended.deliveryIds);
  return ended.connection;
}
