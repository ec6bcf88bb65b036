/**
 * Replaces an endpoint's signing secret: deliveries from now on are signed with the new one
 * (retries of older events too), and the new secret is in the answer this once.
 */
import type { RotateWebhookSecretInput, WebhookEndpointWithSecretView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordWebhookChange } from './record-webhook-change';
import { encryptWebhookSecret, generateWebhookSecret } from './webhook-secret';
import { assertIds, lockOwnedEndpoint, toWebhookEndpointView, webhookEndpointSelect, type WebhookServiceDeps } from './webhook-views';

export async function rotateWebhookSecret(
  deps: Pick<WebhookServiceDeps, 'db' | 'masterKey'>,
  ownerId: string,
  input: RotateWebhookSecretInput,
): Promise<WebhookEndpointWithSecretView> {
  assertIds(ownerId, input.endpointId);
  const secret = input.secret ?? generateWebhookSecret();
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const endpoint = await lockOwnedEndpoint(tx, ownerId, input.endpointId);
    const row = await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: encryptWebhookSecret(deps.masterKey, endpoint.id, secret),
      select: webhookEndpointSelect,
    });
    await recordWebhookChange(tx, ownerId, endpoint.id, 'secret_rotated', { generated: input.secret === undefined });
    return { endpoint: toWebhookEndpointView(row), secret };
  });
}
