/**
 * Creates an owner API key for the SDK and /api/v1, with the scopes and the lifetime the owner
 * chose (both validated by the contract: at least one known scope, 1 to 365 days). The whole
 * key is in the answer and nowhere else. Keys are managed from a signed-in session only: a
 * leaked key must not be able to mint its own replacements or revoke the owner's other keys.
 */
import {
  AppError,
  MAX_ACTIVE_OWNER_API_KEYS,
  type CreatedOwnerApiKeyView,
  type CreateOwnerApiKeyInput,
} from '@purser/core';
import { ownerApiKeyPublicSelect, Prisma, type PrismaClient, type TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import type { AuthenticatedOwner } from '../auth/authenticate-owner';
import { generateOwnerApiKey, toOwnerApiKeyView } from './owner-api-key-secret';

const DAY_MS = 86_400_000;

export async function createOwnerApiKey(
  prisma: PrismaClient,
  owner: AuthenticatedOwner,
  input: CreateOwnerApiKeyInput,
  now: Date = new Date(),
): Promise<CreatedOwnerApiKeyView> {
  assertSessionOwner(owner);
  const generated = generateOwnerApiKey();
  const expiresAt = new Date(now.getTime() + input.expires_in_days * DAY_MS);
  try {
    return await withAuditRetry(prisma, async (tx: TransactionClient) => {
      // Serialises key creation per owner, so the active-key limit holds under concurrency.
      await tx.$queryRaw`SELECT "id"::text FROM "users" WHERE "id" = ${owner.userId}::uuid FOR UPDATE`;
      // An expired key is as dead as a revoked one: it does not count.
      const active = await tx.ownerApiKey.count({ where: { userId: owner.userId, revokedAt: null, expiresAt: { gt: now } } });
      if (active >= MAX_ACTIVE_OWNER_API_KEYS) {
        throw new AppError('CONFLICT', `You can have at most ${MAX_ACTIVE_OWNER_API_KEYS} active API keys. Revoke one first.`);
      }
      const row = await tx.ownerApiKey.create({
        data: { userId: owner.userId, name: input.name, prefix: generated.prefix, keyHash: generated.keyHash, scopes: input.scopes, expiresAt },
        select: ownerApiKeyPublicSelect,
      });
      await appendAuditEvent(tx, {
        actor: `owner:${owner.userId}`,
        action: 'owner_api_key.created',
        subject: `owner_api_key:${row.id}`,
        ownerId: owner.userId,
        data: { name: row.name, scopes: row.scopes, expires_at: row.expiresAt.toISOString() },
      });
      return { ...toOwnerApiKeyView(row), key: generated.key };
    });
  } catch (error) {
    // 48 random bits of prefix: a collision is a once-in-a-lifetime event; the owner retries.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new AppError('CONFLICT', 'Could not create the API key. Please try again.');
    }
    throw error;
  }
}

export function assertSessionOwner(owner: AuthenticatedOwner): void {
  if (owner.via !== 'session') {
    throw new AppError('FORBIDDEN', 'API keys can only be managed from a signed-in session');
  }
}
