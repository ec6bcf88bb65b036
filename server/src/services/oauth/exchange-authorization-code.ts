/**
 * The authorization_code grant (RFC 6749 section 4.1.3, RFC 7636 section 4.6, RFC 8707): a
 * public client presents the code with its client_id, the very redirect URI of its request, the
 * PKCE verifier whose S256 hash is the request's challenge, and optionally the resource, which
 * must be the one authorized. Everything is checked before the code is spent, so a request that
 * fails a check changes nothing and the rightful client can still redeem the code.
 *
 * A code is good once. Presented again (a stolen copy, or the client racing itself) it ends its
 * connection and every token issued from it: the first redemption may have been the thief's.
 */
import { OAuthError, OAuthErrorCode, type OAuthTokens } from '@modelcontextprotocol/server';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordConnectionChange } from './connection-events';
import { connectionSelect, viewConnection } from './connection-view';
import { issueTokens } from './issue-tokens';
import { sameResource } from './oauth-discovery';
import { storedScopes } from './oauth-scopes';
import { hashOAuthSecret, isCodeVerifier, verifierMatches } from './oauth-secrets';
import { endConnection } from './revoke-connection';
import { invalidGrant, optionalParam, requiredParam, type FormParams, type TokenDeps } from './token-form';

export async function exchangeAuthorizationCode(deps: TokenDeps, form: FormParams, now = new Date()): Promise<OAuthTokens> {
  const code = requiredParam(form, 'code');
  const clientId = requiredParam(form, 'client_id');
  const redirectUri = requiredParam(form, 'redirect_uri');
  const verifier = requiredParam(form, 'code_verifier');
  const resource = optionalParam(form, 'resource');
  if (!isCodeVerifier(verifier)) throw new OAuthError(OAuthErrorCode.InvalidRequest, 'code_verifier must be 43 to 128 unreserved characters (RFC 7636)');

  const request = await deps.db.prisma.oauthAuthorizationRequest.findUnique({
    where: { codeHash: hashOAuthSecret(code) },
    select: { id: true, clientId: true, redirectUri: true, codeChallenge: true, resource: true, codeExpiresAt: true, codeUsedAt: true, connection: { select: { ...connectionSelect, ownerId: true } } },
  });
  if (!request?.connection || !request.codeExpiresAt) throw invalidGrant('The authorization code is not valid');
  const { ownerId, ...connectionRow } = request.connection;
  const actor = `oauth_client:${request.clientId}`;
  const replayed = async () => {
    await endConnection(deps, connectionRow.id, { reason: 'authorization_code_reuse', actor }, now);
    return invalidGrant('The authorization code was already used: the connection and every token issued with it are revoked');
  };
  if (request.clientId !== clientId) throw invalidGrant('The authorization code was issued to another client');
  if (request.codeUsedAt) throw await replayed();
  if (request.codeExpiresAt <= now) throw invalidGrant('The authorization code has expired');
  if (redirectUri !== request.redirectUri) throw invalidGrant('redirect_uri is not the one of the authorization request');
  if (!verifierMatches(verifier, request.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge');
  if (resource !== undefined && !sameResource(resource, request.resource)) throw new OAuthError(OAuthErrorCode.InvalidTarget, `The code was issued for ${request.resource}`);
  if (connectionRow.revokedAt) throw invalidGrant('The connection was revoked');
  if (connectionRow.expiresAt && connectionRow.expiresAt <= now) throw invalidGrant('The connection has expired');

  const tokens = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    // Guarded: of two redemptions at once, one spends the code; the other is a replay.
    const spent = await tx.oauthAuthorizationRequest.updateMany({ where: { id: request.id, codeUsedAt: null }, data: { codeUsedAt: now } });
    if (spent.count !== 1) return null;
    const scopes = storedScopes(connectionRow.scopes);
    const issued = await issueTokens(tx, { id: connectionRow.id, expiresAt: connectionRow.expiresAt, scopes }, scopes, now);
    await recordConnectionChange(tx, { actor, action: 'authorized', ownerId, connection: await viewConnection(tx, connectionRow), at: now });
    return issued;
  });
  if (!tokens) throw await replayed();
  return tokens;
}
