/**
 * The deliveries of an event the owner's endpoints subscribed to, written in the transaction that
 * made the event (one statement: a row per enabled endpoint naming its type), and their workflows
 * started once that transaction committed. The connection.* and budget.* events use it; payment
 * events are written by the payment engine's own SQL functions.
 */
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { startWebhookDeliveries } from './start-webhook-deliveries';

/** The delivery ids of `event` (its `id` and `type` as its payload says), one per subscribed endpoint. */
export async function recordEventDeliveries(tx: TransactionClient, ownerId: string, event: { id: string; type: string }, at: Date): Promise<string[]> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "webhook_deliveries" ("id", "endpoint_id", "event_id", "event_type", "payload", "created_at", "updated_at")
    SELECT "purser_uuid_v7"(), e."id", ${event.id}, ${event.type}, ${JSON.stringify(event)}::jsonb, ${at}, ${at}
      FROM "webhook_endpoints" e
     WHERE e."owner_id" = ${ownerId}::uuid AND e."enabled" AND e."deleted_at" IS NULL AND e."events" @> ARRAY[${event.type}]::text[]
    RETURNING "id"::text AS "id"`;
  return rows.map((row) => row.id);
}

/** Starts the deliveries' workflows after the commit; a failure is logged (`what` names them), not thrown. */
export async function startEventDeliveries(deps: Pick<AppDeps, 'temporal' | 'logger'>, deliveryIds: readonly string[], what: string): Promise<void> {
  if (deliveryIds.length === 0) return;
  try {
    await startWebhookDeliveries(deps.temporal, deliveryIds);
  } catch (error) {
    deps.logger.warn({ err: error, deliveryIds }, `${what} webhook deliveries could not be started; they stay pending for a redelivery`);
  }
}
