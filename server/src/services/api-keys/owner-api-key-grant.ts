/** What an authenticated owner API key was granted: its scopes and its expiry. */
import { OWNER_API_KEY_SCOPES, type OwnerApiKeyScope } from '@purser/core';

export interface OwnerApiKeyGrant {
  id: string;
  scopes: readonly OwnerApiKeyScope[];
  expiresAt: Date;
  lastUsedAt: Date | null;
}

/** The scopes a row holds that this version knows, in the canonical order; an unknown one grants nothing. */
export function ownerApiKeyScopesOf(stored: readonly string[]): OwnerApiKeyScope[] {
  return OWNER_API_KEY_SCOPES.filter((scope) => stored.includes(scope));
}
