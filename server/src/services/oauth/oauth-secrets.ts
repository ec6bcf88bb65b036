/**
 * The secrets of the OAuth server: authorization codes, access tokens (`purser_at_...`) and
 * refresh tokens (`purser_rt_...`), each 32 random bytes, stored only as their SHA-256 (the way
 * API keys and session refresh tokens are, secrets.ts), shown once; and the PKCE check (RFC 7636,
 * S256 only). The prefixes let a bearer token be told apart from an agent API key at a glance.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../../secrets';

export const ACCESS_TOKEN_PREFIX = 'purser_at_';
export const REFRESH_TOKEN_PREFIX = 'purser_rt_';
const CODE_PREFIX = 'purser_ac_';

const random = () => randomBytes(32).toString('base64url');

export const newAccessToken = () => `${ACCESS_TOKEN_PREFIX}${random()}`;
export const newRefreshToken = () => `${REFRESH_TOKEN_PREFIX}${random()}`;
export const newAuthorizationCode = () => `${CODE_PREFIX}${random()}`;
/** The consent page's `request` parameter: unguessable, so a leaked id is the only way to it. */
export const newAuthorizationRequestId = () => random();

/** True for anything that claims to be a Purser OAuth access token (not an agent API key). */
export function looksLikeAccessToken(token: string): boolean {
  return token.startsWith(ACCESS_TOKEN_PREFIX);
}

export function hashOAuthSecret(secret: string): string {
  return hashSecret(secret);
}

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: base64url of a SHA-256, without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function isCodeVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** True when `verifier` hashes to `challenge` (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier) || !isS256Challenge(challenge)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
