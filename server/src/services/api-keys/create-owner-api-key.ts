/**
 * Creates an owner API key for the SDK and /api/v1. The whole key is in the answer and
 * nowhere else. Keys are managed from a signed-in session only: a leaked key must not be
 * able to mint its own replacements or revoke the owner's other keys.
 */
import {
  AppError,
  MAX_ACTIVE_OWNER_API_KEYS,
  type CreatedOwnerApiKeyView,
  type CreateOwnerApiKeyInput,
} from '@purser/core';
import { apiKeyPublicSelect, Prisma, type PrismaClient, type TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import type { AuthenticatedOwner } from '../auth/authenticate-owner';
import { generateOwnerApiKey, toOwnerApiKeyView } from './owner-api-key-secret';

export async function createOwnerApiKey(
  prisma: PrismaClient,
  owner: AuthenticatedOwner,
  input: CreateOwnerApiKeyInput,
): Promise<CreatedOwnerApiKeyView> {
  assertSessionOwner(owner);
  const generated = generateOwnerApiKey();
  try {
    return await withAuditRetry(prisma, async (tx: TransactionClient) => {
      // Serialises key creation per owner, so the active-key limit holds under concurrency.
      await tx.$queryRaw`SELECT "id"::text FROM "users" WHERE "id" = ${owner.userId}::uuid FOR UPDATE`;
      const active = await tx.ownerApiKey.count({ where: { userId: owner.userId, revokedAt: null } });
      if (active >= MAX_ACTIVE_OWNER_API_KEYS) {
        throw new AppError('CONFLICT', `You can have at most ${MAX_ACTIVE_OWNER_API_KEYS} active API keys. Revoke one first.`);
      }
      const row = await tx.ownerApiKey.create({
        data: { userId: owner.userId, name: input.name, prefix: generated.prefix, keyHash: generated.keyHash },
        select: apiKeyPublicSelect,
      });
      await appendAuditEvent(tx, {
        actor: `owner:${owner.userId}`,
        action: 'owner_api_key.created',
        subject: `owner_api_key:${row.id}`,
        ownerId: owner.userId,
        data: { name: row.name },
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
