/** Resolves an owner API key to its owner; revoked, unknown or malformed keys resolve to null. */
import type { TransactionClient } from '@purser/db';
import { hashOwnerApiKey, ownerApiKeyPrefix } from './owner-api-key-secret';
import { sameSecretHash } from '../../secrets';

/** lastUsedAt is a hint for the owner, not an audit trail: one write a minute per key is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function authenticateOwnerApiKey(
  prisma: TransactionClient,
  key: string,
  now: Date = new Date(),
): Promise<{ userId: string; apiKeyId: string } | null> {
  const prefix = ownerApiKeyPrefix(key);
  if (!prefix) return null;
  const row = await prisma.ownerApiKey.findUnique({
    where: { prefix },
    select: { id: true, userId: true, keyHash: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt || !sameSecretHash(row.keyHash, hashOwnerApiKey(key))) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await prisma.ownerApiKey.update({ where: { id: row.id }, data: { lastUsedAt: now }, select: { id: true } });
  }
  return { userId: row.userId, apiKeyId: row.id };
}
