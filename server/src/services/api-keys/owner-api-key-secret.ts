/**
 * The shape of an owner API key: `psk_<12 hex>_<43 base64url>`. The first part
 * (`psk_<12 hex>`) is the visible prefix that finds the row; the whole key is stored only
 * as its SHA-256, so the key is shown once, when it is created.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../secrets';
import type { OwnerApiKeyView } from '@purser/core';
import type { ownerApiKeyPublicSelect, Prisma } from '@purser/db';
import { ownerApiKeyScopesOf } from './owner-api-key-grant';

export const OWNER_API_KEY_PREFIX = 'psk_';
const KEY_PATTERN = /^(psk_[0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

export interface GeneratedOwnerApiKey {
  key: string;
  prefix: string;
  keyHash: string;
}

export function generateOwnerApiKey(): GeneratedOwnerApiKey {
  const prefix = `${OWNER_API_KEY_PREFIX}${randomBytes(6).toString('hex')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, keyHash: hashOwnerApiKey(key) };
}

/** True for anything that claims to be an owner API key (as opposed to an access JWT). */
export function looksLikeOwnerApiKey(token: string): boolean {
  return token.startsWith(OWNER_API_KEY_PREFIX);
}

/** The prefix of a well-formed key, or null. */
export function ownerApiKeyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

export function hashOwnerApiKey(key: string): string {
  return hashSecret(key);
}

export type PublicOwnerApiKey = Prisma.OwnerApiKeyGetPayload<{ select: typeof ownerApiKeyPublicSelect }>;

export function toOwnerApiKeyView(row: PublicOwnerApiKey): OwnerApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: ownerApiKeyScopesOf(row.scopes),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}
