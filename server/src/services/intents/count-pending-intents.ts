import type { PendingIntentCountView } from '@purser/core';
import type { PrismaClient } from '@purser/db';

/** The owner's intents waiting for their approval: the console's inbox badge (an index count). */
export async function countPendingIntents(prisma: PrismaClient, ownerId: string): Promise<PendingIntentCountView> {
  return { count: await prisma.paymentIntent.count({ where: { ownerId, status: 'pending_approval' } }) };
}
