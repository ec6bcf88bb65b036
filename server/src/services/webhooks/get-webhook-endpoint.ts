/** One of the owner's live webhook endpoints, without its secret. */
import type { WebhookEndpointView } from '@purser/core';
import { assertIds, ownedEndpointWhere, toWebhookEndpointView, webhookEndpointNotFound, webhookEndpointSelect, type WebhookServiceDeps } from './webhook-views';

export async function getWebhookEndpoint(deps: Pick<WebhookServiceDeps, 'db'>, ownerId: string, endpointId: string): Promise<WebhookEndpointView> {
  assertIds(ownerId, endpointId);
  const row = await deps.db.prisma.webhookEndpoint.findFirst({ where: ownedEndpointWhere(ownerId, endpointId), select: webhookEndpointSelect });
  if (!row) throw webhookEndpointNotFound();
  return toWebhookEndpointView(row);
}
