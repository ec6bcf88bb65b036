/** The signed-in owner's custodial wallet (spec section 7: one optional row by user_id). */
import type { OwnerWalletView } from '@purser/core';
import { ownerWalletSelect, type TransactionClient } from '@purser/db';
import { toOwnerWalletView } from './wallet-views';

export async function getOwnerWallet(prisma: TransactionClient, ownerId: string): Promise<OwnerWalletView | null> {
  const wallet = await prisma.ownerWallet.findUnique({ where: { userId: ownerId }, select: ownerWalletSelect });
  return wallet ? toOwnerWalletView(wallet) : null;
}
