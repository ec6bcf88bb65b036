/**
 * A new access token (1 hour) and refresh token (30 days) of a connection, neither outliving the
 * connection's own expiry, stored as their hashes; the answer of the token endpoint (RFC 6749
 * section 5.1) is the only place they are in clear.
 */
import type { OAuthTokens } from '@modelcontextprotocol/server';
import type { OAuthScope } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { hashOAuthSecret, newAccessToken, newRefreshToken } from './oauth-secrets';

export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;

export interface TokenConnection {
  id: string;
  /** Null: the connection does not expire. */
  expiresAt: Date | null;
  /** What the connection was granted: the refresh token keeps all of it. */
  scopes: readonly OAuthScope[];
}

function until(now: Date, ttlMs: number, end: Date | null): Date {
  const natural = new Date(now.getTime() + ttlMs);
  return end !== null && end < natural ? end : natural;
}

/** `accessScopes` may narrow the connection's scopes (a refresh that asks for fewer). */
export async function issueTokens(tx: TransactionClient, connection: TokenConnection, accessScopes: readonly OAuthScope[], now: Date): Promise<OAuthTokens> {
  const accessToken = newAccessToken();
  const refreshToken = newRefreshToken();
  const accessExpiresAt = until(now, ACCESS_TOKEN_TTL_MS, connection.expiresAt);
  await tx.oauthToken.createMany({
    data: [
      { connectionId: connection.id, kind: 'access', tokenHash: hashOAuthSecret(accessToken), scopes: [...accessScopes], expiresAt: accessExpiresAt, createdAt: now },
      { connectionId: connection.id, kind: 'refresh', tokenHash: hashOAuthSecret(refreshToken), scopes: [...connection.scopes], expiresAt: until(now, REFRESH_TOKEN_TTL_MS, connection.expiresAt), createdAt: now },
    ],
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(1, Math.floor((accessExpiresAt.getTime() - now.getTime()) / 1000)),
    refresh_token: refreshToken,
    scope: accessScopes.join(' '),
  };
}
