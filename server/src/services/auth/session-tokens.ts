/**
 * The two halves of an owner session. The access token is a short-lived HS256 JWT (claims
 * sub = user id, sid = session family id) checked without a database write; the refresh
 * token is 32 bytes, random at sign-in and derived from its predecessor on each refresh, whose
 * SHA-256 alone is stored (sessions.refresh_token_hash).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '@purser/core';
import type { Database } from '@purser/db';
import { deriveKey, hashSecret } from '../../secrets';

/** What the auth services need from the process. AppDeps satisfies it. */
export interface AuthDeps {
  db: Database;
  masterKey: Buffer;
}

/** Where a session was opened from, kept on the session row for the owner's own review. */
export interface ClientInfo {
  userAgent?: string;
  ipAddress?: string;
}

/** A refresh token is good for 30 days after it was issued; each refresh issues a new one. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** httpOnly cookies that carry the session for the web app (set by /auth/v1). */
export const SESSION_COOKIES = { access: 'purser_access', refresh: 'purser_refresh' } as const;

const ISSUER = 'purser';
const AUDIENCE = 'purser:owner';
const MAX_TOKEN_LENGTH = 4096;

const signingKeys = new WeakMap<Buffer, Uint8Array>();
const successorKeys = new WeakMap<Buffer, Buffer>();

function accessTokenKey(masterKey: Buffer): Uint8Array {
  let key = signingKeys.get(masterKey);
  if (!key) {
    key = new Uint8Array(deriveKey(masterKey, 'access-token'));
    signingKeys.set(masterKey, key);
  }
  return key;
}

export interface AccessTokenClaims {
  userId: string;
  familyId: string;
}

export async function signAccessToken(
  masterKey: Buffer,
  claims: AccessTokenClaims,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + ACCESS_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({ sid: claims.familyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setJti(randomUUID())
    .setExpirationTime(expiresAt)
    .sign(accessTokenKey(masterKey));
  return { token, expiresAt };
}

/** The claims of a valid, unexpired access token, or null. Does not consult the database. */
export async function readAccessToken(masterKey: Buffer, token: string): Promise<AccessTokenClaims | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  try {
    const { payload } = await jwtVerify(token, accessTokenKey(masterKey), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'sid', 'exp'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return { userId: payload.sub, familyId: payload.sid };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The refresh token that rotating `token` issues: HMAC-SHA256 of it under a key derived from the
 * master key, in the same 43-character form as a random one. Only the hash of a token is
 * stored, so this is what lets a token rotated moments ago be answered with the successor it
 * was already rotated into (refresh-session.ts). Without the master key it is as unguessable as
 * a random token: a spent token leads to its successor only through the server, which answers
 * so only within the reuse interval after the rotation.
 */
export function successorRefreshToken(masterKey: Buffer, token: string): string {
  let key = successorKeys.get(masterKey);
  if (!key) {
    key = deriveKey(masterKey, 'refresh-token-successor');
    successorKeys.set(masterKey, key);
  }
  return createHmac('sha256', key).update(token).digest('base64url');
}

export function hashToken(token: string): string {
  return hashSecret(token);
}
