/**
 * Replaces an endpoint's signing secret. The new one signs every delivery from now on (retries
 * of older events too) and is in the answer this once. The one it replaces keeps signing beside
 * it for the overlap the owner chose (24 h by default, 0 to stop it at once), so receivers verify
 * every delivery while they are updated; it stays encrypted as it was until then, and is erased
 * after (deliver-webhook.ts) or at the next rotation, which replaces it.
 */
import {
  AppError,
  WEBHOOK_SECRET_OVERLAP_DEFAULT_SECONDS,
  WEBHOOK_SECRET_OVERLAP_MAX_SECONDS,
  WEBHOOK_SECRET_OVERLAP_MESSAGE,
  type RotateWebhookSecretRequest,
  type RotatedWebhookSecretView,
} from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { recordWebhookChange } from './record-webhook-change';
import { encryptWebhookSecret, generateWebhookSecret } from './webhook-secret';
import { assertIds, lockOwnedEndpoint, toWebhookEndpointView, webhookEndpointSelect, type WebhookServiceDeps } from './webhook-views';

export async function rotateWebhookSecret(
  deps: Pick<WebhookServiceDeps, 'db' | 'masterKey'>,
  ownerId: string,
  input: RotateWebhookSecretRequest,
  now: Date = new Date(),
): Promise<RotatedWebhookSecretView> {
  assertIds(ownerId, input.endpointId);
  const overlapSeconds = input.overlapSeconds ?? WEBHOOK_SECRET_OVERLAP_DEFAULT_SECONDS;
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > WEBHOOK_SECRET_OVERLAP_MAX_SECONDS) {
    throw new AppError('VALIDATION_FAILED', WEBHOOK_SECRET_OVERLAP_MESSAGE);
  }
  const secret = input.secret ?? generateWebhookSecret();
  const previousExpiresAt = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null;
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const endpoint = await lockOwnedEndpoint(tx, ownerId, input.endpointId);
    // The current secret's ciphertext becomes the previous one as it is: same key, same binding.
    const current = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id }, select: { secretCiphertext: true, secretIv: true, secretTag: true } });
    const previous = previousExpiresAt
      ? { previousSecretCiphertext: current.secretCiphertext, previousSecretIv: current.secretIv, previousSecretTag: current.secretTag, previousSecretExpiresAt: previousExpiresAt }
      : { previousSecretCiphertext: null, previousSecretIv: null, previousSecretTag: null, previousSecretExpiresAt: null };
    const row = await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { ...encryptWebhookSecret(deps.masterKey, endpoint.id, secret), ...previous },
      select: webhookEndpointSelect,
    });
    const previousSecretExpiresAt = previousExpiresAt?.toISOString() ?? null;
    await recordWebhookChange(tx, ownerId, endpoint.id, 'secret_rotated', { generated: input.secret === undefined, previous_secret_expires_at: previousSecretExpiresAt });
    return { endpoint: toWebhookEndpointView(row), secret, previousSecretExpiresAt };
  });
}
