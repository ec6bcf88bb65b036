/**
 * Deletes an endpoint: the row stays (its delivery log still reads) with deletedAt set and
 * disabled, so it receives no new events and its pending retries stop at their next attempt.
 */
import type { DeleteWebhookEndpointResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordWebhookChange } from './record-webhook-change';
import { assertIds, lockOwnedEndpoint, type WebhookServiceDeps } from './webhook-views';

export async function deleteWebhookEndpoint(
  deps: Pick<WebhookServiceDeps, 'db'>,
  ownerId: string,
  endpointId: string,
  now = new Date(),
): Promise<DeleteWebhookEndpointResult> {
  assertIds(ownerId, endpointId);
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const endpoint = await lockOwnedEndpoint(tx, ownerId, endpointId);
    await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { deletedAt: now, enabled: false }, select: { id: true } });
    await recordWebhookChange(tx, ownerId, endpoint.id, 'deleted', { url: endpoint.url, was_enabled: endpoint.enabled });
    return { id: endpoint.id, deleted: true as const, deletedAt: now.toISOString() };
  });
}
