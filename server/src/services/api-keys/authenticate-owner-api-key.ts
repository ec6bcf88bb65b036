/**
 * Resolves an owner API key to its owner and what it was granted; revoked, unknown or malformed
 * keys resolve to null. Reads only: whether the key may make the call, and the record of the
 * use, are authorizeOwnerApiKeyUse's.
 */
import type { TransactionClient } from '@purser/db';
import { ownerApiKeyScopesOf, type OwnerApiKeyGrant } from './owner-api-key-grant';
import { hashOwnerApiKey, ownerApiKeyPrefix } from './owner-api-key-secret';
import { sameSecretHash } from '../../secrets';

export async function authenticateOwnerApiKey(prisma: TransactionClient, key: string): Promise<{ userId: string; apiKey: OwnerApiKeyGrant } | null> {
  const prefix = ownerApiKeyPrefix(key);
  if (!prefix) return null;
  const row = await prisma.ownerApiKey.findUnique({
    where: { prefix },
    select: { id: true, userId: true, keyHash: true, revokedAt: true, scopes: true, expiresAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt || !sameSecretHash(row.keyHash, hashOwnerApiKey(key))) return null;
  return { userId: row.userId, apiKey: { id: row.id, scopes: ownerApiKeyScopesOf(row.scopes), expiresAt: row.expiresAt, lastUsedAt: row.lastUsedAt } };
}
