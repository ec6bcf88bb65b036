/**
 * The refresh_token grant (RFC 6749 section 6, OAuth 2.1 section 4.3): the refresh token is
 * rotated on every use (the answer carries its successor) and may narrow the access token's
 * scopes, never widen them. Checks run before the token is spent, so a refused refresh changes
 * nothing; a refresh for a suspended agent is refused and can be tried again once it is active.
 *
 * Replay detection (OAuth 2.1 section 4.3.1): a refresh token presented after it was spent means
 * two parties hold it, and Purser cannot tell which one is the client, so the whole family goes:
 * the connection and every token of it are revoked.
 */
import { OAuthError, OAuthErrorCode, type OAuthTokens } from '@modelcontextprotocol/server';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordConnectionChange } from './connection-events';
import { connectionSelect, viewConnection } from './connection-view';
import { issueTokens } from './issue-tokens';
import { sameResource } from './oauth-discovery';
import { parseScopeParameter, storedScopes } from './oauth-scopes';
import { hashOAuthSecret } from './oauth-secrets';
import { pruneConnectionTokens } from './prune-oauth-rows';
import { endConnection } from './revoke-connection';
import { invalidGrant, optionalParam, requiredParam, type FormParams, type TokenDeps } from './token-form';

export async function refreshAccessToken(deps: TokenDeps, form: FormParams, now = new Date()): Promise<OAuthTokens> {
  const refreshToken = requiredParam(form, 'refresh_token');
  const clientId = requiredParam(form, 'client_id');
  const scope = optionalParam(form, 'scope');
  const resource = optionalParam(form, 'resource');

  const token = await deps.db.prisma.oauthToken.findUnique({
    where: { tokenHash: hashOAuthSecret(refreshToken) },
    select: { id: true, kind: true, expiresAt: true, usedAt: true, revokedAt: true, connection: { select: { ...connectionSelect, ownerId: true, agent: { select: { status: true } } } } },
  });
  if (!token || token.kind !== 'refresh') throw invalidGrant('The refresh token is not valid');
  const { ownerId, agent, ...connectionRow } = token.connection;
  const actor = `oauth_client:${connectionRow.clientId}`;
  const replayed = async () => {
    await endConnection(deps, connectionRow.id, { reason: 'refresh_token_reuse', actor }, now);
    return invalidGrant('The refresh token was already used: the connection and every token of it are revoked');
  };
  if (connectionRow.clientId !== clientId) throw invalidGrant('The refresh token was issued to another client');
  if (token.usedAt) throw await replayed();
  if (token.revokedAt || connectionRow.revokedAt) throw invalidGrant('The refresh token was revoked');
  if (token.expiresAt <= now || (connectionRow.expiresAt && connectionRow.expiresAt <= now)) throw invalidGrant('The refresh token has expired');
  if (agent.status !== 'active') throw invalidGrant(`The agent is ${agent.status}`);
  if (resource !== undefined && !sameResource(resource, connectionRow.resource)) throw new OAuthError(OAuthErrorCode.InvalidTarget, `The connection is for ${connectionRow.resource}`);
  const granted = storedScopes(connectionRow.scopes);
  const asked = parseScopeParameter(scope, granted);
  if (!asked || asked.some((name) => !granted.includes(name))) throw new OAuthError(OAuthErrorCode.InvalidScope, `scope may only name what was granted: ${granted.join(' ')}`);

  const tokens = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    // Guarded: of two refreshes with one token at once, one rotates it; the other is a replay.
    const spent = await tx.oauthToken.updateMany({ where: { id: token.id, usedAt: null, revokedAt: null }, data: { usedAt: now } });
    if (spent.count !== 1) return null;
    const issued = await issueTokens(tx, { id: connectionRow.id, expiresAt: connectionRow.expiresAt, scopes: granted }, asked, now);
    await pruneConnectionTokens(tx, connectionRow.id, now);
    await recordConnectionChange(tx, { actor, action: 'refreshed', ownerId, connection: await viewConnection(tx, connectionRow), data: { scopes: asked }, at: now });
    return issued;
  });
  if (!tokens) throw await replayed();
  return tokens;
}
