/**
 * Changes an endpoint's URL, events, description or enabled flag. Only what the input names
 * changes; the audit event says what did (enabling and disabling are their own actions, so
 * the log reads like the owner's intent). Disabling stops pending retries at their next
 * attempt; deliveries already made are kept.
 */
import type { UpdateWebhookEndpointInput, WebhookEndpointView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AuditData } from '../audit/audit-hash';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordWebhookChange } from './record-webhook-change';
import { assertWebhookUrlAllowed } from './webhook-url';
import { assertIds, lockOwnedEndpoint, toWebhookEndpointView, webhookEndpointSelect, type WebhookServiceDeps } from './webhook-views';

export async function updateWebhookEndpoint(
  deps: Pick<WebhookServiceDeps, 'db' | 'outbound'>,
  ownerId: string,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointView> {
  assertIds(ownerId, input.endpointId);
  if (input.url !== undefined) await assertWebhookUrlAllowed(input.url, deps.outbound);
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const before = await lockOwnedEndpoint(tx, ownerId, input.endpointId);
    const row = await tx.webhookEndpoint.update({
      where: { id: before.id },
      data: { url: input.url, events: input.events, description: input.description, enabled: input.enabled },
      select: webhookEndpointSelect,
    });

    const changed: AuditData = {};
    if (row.url !== before.url) changed.url = row.url;
    if (row.events.join() !== before.events.join()) changed.events = row.events;
    if (row.description !== before.description) changed.description = row.description;
    if (Object.keys(changed).length > 0) await recordWebhookChange(tx, ownerId, row.id, 'updated', changed);
    if (row.enabled !== before.enabled) await recordWebhookChange(tx, ownerId, row.id, row.enabled ? 'enabled' : 'disabled', { enabled: row.enabled });
    return toWebhookEndpointView(row);
  });
}
