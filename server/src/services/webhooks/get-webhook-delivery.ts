/** One of the owner's deliveries with the body it sends and every attempt, oldest first. */
import type { WebhookDeliveryDetailView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import {
  assertDeliveryIds,
  ownedDeliveryWhere,
  toWebhookDeliveryAttemptView,
  toWebhookDeliveryView,
  webhookDeliveryAttemptSelect,
  webhookDeliveryNotFound,
  webhookDeliverySelect,
  type WebhookServiceDeps,
} from './webhook-views';

export async function getWebhookDelivery(deps: Pick<WebhookServiceDeps, 'db'>, ownerId: string, deliveryId: string): Promise<WebhookDeliveryDetailView> {
  return readWebhookDelivery(deps.db.prisma, ownerId, deliveryId);
}

/** The detail view inside a transaction or outside of one (redelivery answers it too). */
export async function readWebhookDelivery(prisma: TransactionClient, ownerId: string, deliveryId: string): Promise<WebhookDeliveryDetailView> {
  assertDeliveryIds(ownerId, deliveryId);
  const row = await prisma.webhookDelivery.findFirst({
    where: ownedDeliveryWhere(ownerId, deliveryId),
    select: { ...webhookDeliverySelect, payload: true, attemptLog: { orderBy: { attempt: 'asc' }, select: webhookDeliveryAttemptSelect } },
  });
  if (!row) throw webhookDeliveryNotFound();
  return {
    ...toWebhookDeliveryView(row),
    payload: row.payload as WebhookDeliveryDetailView['payload'],
    attemptLog: row.attemptLog.map(toWebhookDeliveryAttemptView),
  };
}
