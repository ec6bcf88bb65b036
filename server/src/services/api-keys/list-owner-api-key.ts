/** The owner's API keys, newest first, revoked ones included; prefixes only, never secrets. */
import type { OwnerApiKeyListView } from '@purser/core';
import { ownerApiKeyPublicSelect, type TransactionClient } from '@purser/db';
import type { AuthenticatedOwner } from '../auth/authenticate-owner';
import { toOwnerApiKeyView } from './owner-api-key-secret';

export async function listOwnerApiKeys(prisma: TransactionClient, owner: AuthenticatedOwner): Promise<OwnerApiKeyListView> {
  const rows = await prisma.ownerApiKey.findMany({
    where: { userId: owner.userId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: ownerApiKeyPublicSelect,
  });
  return { api_keys: rows.map(toOwnerApiKeyView) };
}
