import type { IntentListView, ListIntentsInput } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { intentSelect, toIntentView } from './intent-view';

/** The owner's intents, newest first, a page at a time (cursor: the last id of the previous page). */
export async function listIntents(prisma: PrismaClient, ownerId: string, input: ListIntentsInput): Promise<IntentListView> {
  const rows = await prisma.paymentIntent.findMany({
    where: { ownerId, ...(input.agentId ? { agentId: input.agentId } : {}), ...(input.status ? { status: input.status } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
    select: intentSelect,
  });
  const page = rows.slice(0, input.limit);
  return { intents: page.map(toIntentView), nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null };
}
