/**
 * The owner's webhook deliveries, newest first (ids are UUIDv7, so id order is creation
 * order), optionally of one endpoint and one status. A deleted endpoint's log still reads;
 * another owner's endpoint is 404.
 */
import type { ListWebhookDeliveriesInput, WebhookDeliveryListView } from '@purser/core';
import type { Prisma } from '@purser/db';
import { assertIds, toWebhookDeliveryView, webhookDeliverySelect, webhookEndpointNotFound, type WebhookServiceDeps } from './webhook-views';

export async function listWebhookDeliveries(
  deps: Pick<WebhookServiceDeps, 'db'>,
  ownerId: string,
  input: ListWebhookDeliveriesInput,
): Promise<WebhookDeliveryListView> {
  assertIds(ownerId);
  const prisma = deps.db.prisma;
  if (input.endpointId !== undefined) {
    assertIds(input.endpointId);
    const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id: input.endpointId, ownerId }, select: { id: true } });
    if (!endpoint) throw webhookEndpointNotFound();
  }
  const where: Prisma.WebhookDeliveryWhereInput = {
    endpoint: { ownerId },
    ...(input.endpointId !== undefined ? { endpointId: input.endpointId } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.cursor !== undefined ? { id: { lt: input.cursor } } : {}),
  };
  const rows = await prisma.webhookDelivery.findMany({ where, orderBy: { id: 'desc' }, take: input.limit + 1, select: webhookDeliverySelect });
  const page = rows.slice(0, input.limit);
  return { deliveries: page.map(toWebhookDeliveryView), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}
