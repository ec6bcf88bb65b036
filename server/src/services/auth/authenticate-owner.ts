/**
 * Who is calling, for every owner-facing surface (tRPC, /auth/v1, /api/v1, /functions/v1).
 * Accepts `Authorization: Bearer <access token>`, `Authorization: Bearer <owner API key>`, or the
 * httpOnly access cookie the web app carries. An Authorization header, when present, is the
 * only credential considered: a bad header never falls back to a cookie. Who a key is says
 * nothing of what it may do: the REST routes check its scopes and expiry, and record its use
 * (register-route.ts); tRPC refuses keys (trpc/init.ts).
 */
import { authenticateOwnerApiKey } from '../api-keys/authenticate-owner-api-key';
import type { OwnerApiKeyGrant } from '../api-keys/owner-api-key-grant';
import { looksLikeOwnerApiKey } from '../api-keys/owner-api-key-secret';
import { readAccessToken, SESSION_COOKIES, type AccessTokenClaims, type AuthDeps } from './session-tokens';

/**
 * A session may do everything; a key only what its grant allows, checked per route with
 * authorizeOwnerApiKeyUse (register-route.ts). Surfaces that check no scope refuse keys.
 */
export type AuthenticatedOwner = { userId: string; via: 'session' } | { userId: string; via: 'api_key'; apiKey: OwnerApiKeyGrant };

export interface OwnerCredentials {
  authorization?: string;
  cookies?: Record<string, string | undefined>;
}

export async function authenticateOwner(deps: AuthDeps, credentials: OwnerCredentials): Promise<AuthenticatedOwner | null> {
  const header = credentials.authorization?.trim();
  if (header) {
    const token = bearerToken(header);
    if (!token) return null;
    if (looksLikeOwnerApiKey(token)) {
      const key = await authenticateOwnerApiKey(deps.db.prisma, token);
      return key ? { userId: key.userId, via: 'api_key', apiKey: key.apiKey } : null;
    }
    const session = await authenticateAccessToken(deps, token);
    return session ? { userId: session.userId, via: 'session' } : null;
  }
  const cookie = credentials.cookies?.[SESSION_COOKIES.access];
  if (!cookie) return null;
  const session = await authenticateAccessToken(deps, cookie);
  return session ? { userId: session.userId, via: 'session' } : null;
}

/**
 * A valid access token whose session family is still live. The signature and expiry are
 * checked in memory; the family costs one indexed lookup, so sign-out and refresh-token
 * replay take effect on the next request rather than when the token expires.
 */
export async function authenticateAccessToken(deps: AuthDeps, token: string): Promise<AccessTokenClaims | null> {
  const claims = await readAccessToken(deps.masterKey, token);
  if (!claims) return null;
  const live = await deps.db.prisma.session.findFirst({
    where: { familyId: claims.familyId, userId: claims.userId, revokedAt: null },
    select: { id: true },
  });
  return live ? claims : null;
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
