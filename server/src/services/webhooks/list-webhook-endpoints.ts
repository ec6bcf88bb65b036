/** The owner's live webhook endpoints, newest first; never their secrets. */
import type { WebhookEndpointListView } from '@purser/core';
import { assertIds, toWebhookEndpointView, webhookEndpointSelect, type WebhookServiceDeps } from './webhook-views';

export async function listWebhookEndpoints(deps: Pick<WebhookServiceDeps, 'db'>, ownerId: string): Promise<WebhookEndpointListView> {
  assertIds(ownerId);
  const rows = await deps.db.prisma.webhookEndpoint.findMany({
    where: { ownerId, deletedAt: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: webhookEndpointSelect,
  });
  return { endpoints: rows.map(toWebhookEndpointView) };
}
