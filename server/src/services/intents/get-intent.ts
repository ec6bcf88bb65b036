import { AppError, INTENT_NOT_FOUND_MESSAGE, type IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { isUuid } from '../agents/owned-agent';
import { intentSelect, toIntentView } from './intent-view';

/** One of the owner's intents; any other id (another owner's included) is the same 404. */
export async function getIntent(prisma: PrismaClient, ownerId: string, intentId: string): Promise<IntentView> {
  if (!isUuid(intentId)) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  const row = await prisma.paymentIntent.findFirst({ where: { id: intentId, ownerId }, select: intentSelect });
  if (!row) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  return toIntentView(row);
}
