/**
 * Registers a webhook endpoint. The signing secret (the owner's, or one generated here) is
 * encrypted before it reaches the database and is in the answer this once.
 */
import { randomUUID } from 'node:crypto';
import { AppError, MAX_WEBHOOK_ENDPOINTS, type CreateWebhookEndpointInput, type WebhookEndpointWithSecretView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordWebhookChange } from './record-webhook-change';
import { assertWebhookUrlAllowed } from './webhook-url';
import { encryptWebhookSecret, generateWebhookSecret } from './webhook-secret';
import { assertIds, toWebhookEndpointView, webhookEndpointSelect, type WebhookServiceDeps } from './webhook-views';

export async function createWebhookEndpoint(deps: WebhookServiceDeps, ownerId: string, input: CreateWebhookEndpointInput): Promise<WebhookEndpointWithSecretView> {
  assertIds(ownerId);
  await assertWebhookUrlAllowed(input.url, deps.outbound);
  // Chosen before the insert: the secret's ciphertext is bound to it.
  const endpointId = randomUUID();
  const secret = input.secret ?? generateWebhookSecret();
  const secretColumns = encryptWebhookSecret(deps.masterKey, endpointId, secret);
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    // Serialises registrations per owner, so the endpoint limit holds under concurrency.
    await tx.$queryRaw`SELECT id::text FROM users WHERE id = ${ownerId}::uuid FOR UPDATE`;
    const live = await tx.webhookEndpoint.count({ where: { ownerId, deletedAt: null } });
    if (live >= MAX_WEBHOOK_ENDPOINTS) {
      throw new AppError('CONFLICT', `You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one first.`);
    }
    const row = await tx.webhookEndpoint.create({
      data: { id: endpointId, ownerId, url: input.url, events: input.events, description: input.description, enabled: input.enabled, ...secretColumns },
      select: webhookEndpointSelect,
    });
    const endpoint = toWebhookEndpointView(row);
    await recordWebhookChange(tx, ownerId, endpointId, 'created', { url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled });
    return { endpoint, secret };
  });
}
