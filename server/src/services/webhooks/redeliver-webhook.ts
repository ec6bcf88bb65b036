/**
 * Sends a delivery again on the owner's request, whatever its status: it is marked pending
 * and a new delivery run starts, with the same event id (so the same `webhook-id`) and the
 * endpoint's current URL and secret; its attempts join the delivery's log.
 *
 * Run numbers: each redelivery's run is numbered from the attempts made so far (+2, run 1 is
 * the first delivery). Two redeliveries before any new attempt pick the same number and so
 * join one run instead of sending twice; a number whose run already finished without an
 * attempt (its endpoint was disabled) is skipped for the next.
 */
import { AppError, type WebhookDeliveryView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { startWebhookDeliveryRun } from './start-webhook-deliveries';
import { assertDeliveryIds, toWebhookDeliveryView, webhookDeliveryNotFound, webhookDeliverySelect } from './webhook-views';

/** More spent run numbers in a row than this means something else is wrong. */
const MAX_RUN_PROBES = 20;

export async function redeliverWebhook(deps: Pick<AppDeps, 'db' | 'temporal'>, ownerId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  assertDeliveryIds(ownerId, deliveryId);
  const { firstRun, view } = await deps.db.prisma.$transaction(async (tx: TransactionClient) => {
    // Locks the delivery, so concurrent redeliveries of it serialize on the run number.
    const rows = await tx.$queryRaw<{ attempts: number; enabled: boolean; deleted: boolean }[]>`
      SELECT d.attempts, e.enabled, e.deleted_at IS NOT NULL AS deleted
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.id = ${deliveryId}::uuid AND e.owner_id = ${ownerId}::uuid
         FOR UPDATE OF d`;
    const row = rows[0];
    if (!row) throw webhookDeliveryNotFound();
    if (row.deleted) throw new AppError('CONFLICT', 'The webhook endpoint of this delivery was deleted; it cannot be redelivered');
    if (!row.enabled) throw new AppError('CONFLICT', 'The webhook endpoint of this delivery is disabled; enable it before redelivering');
    const updated = await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'pending', nextAttemptAt: new Date() },
      select: webhookDeliverySelect,
    });
    return { firstRun: Number(row.attempts) + 2, view: toWebhookDeliveryView(updated) };
  });

  for (let run = firstRun; run < firstRun + MAX_RUN_PROBES; run++) {
    if (await startWebhookDeliveryRun(deps.temporal, deliveryId, run)) return view;
  }
  throw new AppError('INTERNAL', 'Could not start a new delivery run; please try again');
}
