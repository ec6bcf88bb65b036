/**
 * Whom a request is counted against by the owner rate limits, before its surface authenticates
 * it: the owner its credential names, or null (then the client address is). The credential is
 * read as authenticateOwner reads it (the Authorization header alone when there is one, else the
 * access cookie) and must be genuine: an access token's signature and expiry, checked in memory,
 * or an owner API key found by the read that finds it. Whether the session was signed out, or
 * the key may make this call, is the surface's own check: such requests still count against
 * their owner.
 */
import { authenticateOwnerApiKey } from '../api-keys/authenticate-owner-api-key';
import { looksLikeOwnerApiKey } from '../api-keys/owner-api-key-secret';
import { bearerToken, type OwnerCredentials } from './authenticate-owner';
import { readAccessToken, SESSION_COOKIES, type AuthDeps } from './session-tokens';

export async function claimedOwnerId(deps: AuthDeps, credentials: OwnerCredentials): Promise<string | null> {
  const header = credentials.authorization?.trim();
  const token = header ? bearerToken(header) : credentials.cookies?.[SESSION_COOKIES.access];
  if (!token) return null;
  if (looksLikeOwnerApiKey(token)) return (await authenticateOwnerApiKey(deps.db.prisma, token))?.userId ?? null;
  return (await readAccessToken(deps.masterKey, token))?.userId ?? null;
}
