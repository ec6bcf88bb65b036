/** The owner wallet's transactions, newest first (the dashboard shows the newest 10). */
import { RECENT_TRANSACTIONS_LIMIT, type OwnerTransactionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { ownerTransactionViewSelect, toOwnerTransactionView } from './wallet-views';

const MAX_LIMIT = 100;

export async function listOwnerTransactions(
  prisma: TransactionClient,
  ownerId: string,
  options: { limit?: number } = {},
): Promise<OwnerTransactionView[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? RECENT_TRANSACTIONS_LIMIT), 1), MAX_LIMIT);
  const rows = await prisma.ownerTransaction.findMany({
    where: { wallet: { userId: ownerId } },
    // Ids are uuid v7 (creation time first): a stable tie-break within one millisecond.
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
    select: ownerTransactionViewSelect,
  });
  return rows.map(toOwnerTransactionView);
}
