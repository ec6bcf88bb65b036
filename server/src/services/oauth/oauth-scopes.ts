/**
 * The `scope` parameter (RFC 6749 section 3.3): space-delimited, each one of core's OAUTH_SCOPES.
 * Purser always issues a refresh token, so `offline_access`, which some clients add to ask for
 * one, is accepted and means nothing more.
 */
import { OAUTH_SCOPES, type OAuthScope } from '@purser/core';

const IMPLIED = new Set(['offline_access']);

/** The scopes asked for, in OAUTH_SCOPES order; `fallback` when none is named; null for an unknown scope. */
export function parseScopeParameter(scope: string | undefined, fallback: readonly OAuthScope[]): OAuthScope[] | null {
  const named = (scope ?? '').split(' ').filter((token) => token !== '' && !IMPLIED.has(token));
  if (!named.every((token) => (OAUTH_SCOPES as readonly string[]).includes(token))) return null;
  if (named.length === 0) return [...fallback];
  return OAUTH_SCOPES.filter((known) => named.includes(known));
}

/** Stored scopes as the type they are (the database holds text). */
export function storedScopes(scopes: readonly string[]): OAuthScope[] {
  return OAUTH_SCOPES.filter((known) => scopes.includes(known));
}
