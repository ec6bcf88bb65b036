/**
 * POST /oauth/revoke (RFC 7009) for a public client: its client_id and the token. A refresh
 * token ends the whole connection (the client disconnects); an access token ends alone. An
 * unknown or already revoked token is answered like a revoked one (section 2.2: the client
 * cannot do anything else about it); a token of another client is refused.
 */
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordConnectionChange } from './connection-events';
import { connectionSelect, viewConnection } from './connection-view';
import { hashOAuthSecret } from './oauth-secrets';
import { endConnection } from './revoke-connection';
import { optionalParam, requiredParam, type FormParams, type TokenDeps } from './token-form';

export async function revokeToken(deps: TokenDeps, form: FormParams, now = new Date()): Promise<void> {
  const token = requiredParam(form, 'token');
  const clientId = requiredParam(form, 'client_id');
  optionalParam(form, 'token_type_hint');
  const row = await deps.db.prisma.oauthToken.findUnique({
    where: { tokenHash: hashOAuthSecret(token) },
    select: { id: true, kind: true, revokedAt: true, connection: { select: { ...connectionSelect, ownerId: true } } },
  });
  if (!row) return;
  const { ownerId, ...connectionRow } = row.connection;
  if (connectionRow.clientId !== clientId) throw new OAuthError(OAuthErrorCode.InvalidClient, 'The token was not issued to this client');
  const actor = `oauth_client:${clientId}`;
  if (row.kind === 'refresh') {
    await endConnection(deps, connectionRow.id, { reason: 'client', actor }, now);
    return;
  }
  await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const revoked = await tx.oauthToken.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
    if (revoked.count === 1) await recordConnectionChange(tx, { actor, action: 'access_token_revoked', ownerId, connection: await viewConnection(tx, connectionRow), at: now });
  });
}
