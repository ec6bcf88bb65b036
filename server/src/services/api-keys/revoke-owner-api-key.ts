/**
 * Revokes one of the owner's API keys; it stops authenticating at once. Revoking a revoked
 * key answers the key as it is. Another owner's key is "not found", never "forbidden", so
 * ids of other owners' keys cannot be probed.
 */
import { AppError, type OwnerApiKeyView, type RevokeOwnerApiKeyInput } from '@purser/core';
import { ownerApiKeyPublicSelect, type PrismaClient, type TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import type { AuthenticatedOwner } from '../auth/authenticate-owner';
import { assertSessionOwner } from './create-owner-api-key';
import { toOwnerApiKeyView } from './owner-api-key-secret';

export async function revokeOwnerApiKey(
  prisma: PrismaClient,
  owner: AuthenticatedOwner,
  input: RevokeOwnerApiKeyInput,
  now: Date = new Date(),
): Promise<OwnerApiKeyView> {
  assertSessionOwner(owner);
  const where = { id: input.id, userId: owner.userId };
  return withAuditRetry(prisma, async (tx: TransactionClient) => {
    const revoked = await tx.ownerApiKey.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: now } });
    const row = await tx.ownerApiKey.findFirst({ where, select: ownerApiKeyPublicSelect });
    if (!row) throw new AppError('NOT_FOUND', 'API key not found');
    if (revoked.count > 0) {
      await appendAuditEvent(tx, {
        actor: `owner:${owner.userId}`,
        action: 'owner_api_key.revoked',
        subject: `owner_api_key:${row.id}`,
        ownerId: owner.userId,
        data: { name: row.name },
      });
    }
    return toOwnerApiKeyView(row);
  });
}
