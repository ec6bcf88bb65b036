/**
 * Records a payment event and the webhook deliveries it causes, inside the caller's
 * transaction (the payment step that caused it), in one statement. One event per intent and
 * type: emitting again (an activity retry, a replayed step) reuses the event and its deliveries
 * and creates nothing. The deliveries go to the owner's live, enabled endpoints subscribed to the
 * type, as they are when the event is first recorded; each delivery's payload is the event's
 * body (webhookEventView), whose `id` is the event id and the `webhook-id` of every attempt.
 *
 * The statement is purser_record_payment_event (migration *_settle_in_one_step); SQL of its own
 * emits through purser_emit_payment_event, which answers the deliveries alone, and may take the
 * intent's view from purser_intent_view (the capture does both).
 */
import type { IntentView, WebhookEventType } from '@purser/core';
import type { TransactionClient } from '@purser/db';

export interface EmitPaymentEventInput {
  ownerId: string;
  intentId: string;
  type: WebhookEventType;
  /** The intent as it is when the event happens. */
  intent: IntentView;
  at?: Date;
}

export interface EmittedPaymentEvent {
  eventId: string;
  /** Every delivery of the event, whether made now or by an earlier emit. */
  deliveryIds: string[];
}

export async function emitPaymentEvent(tx: TransactionClient, input: EmitPaymentEventInput): Promise<EmittedPaymentEvent> {
  const at = input.at ?? new Date();
  // Through JSON once, as the body is stored: what was undefined is left out.
  const data = JSON.stringify({ intent: input.intent });
  const [row] = await tx.$queryRaw<EmittedPaymentEvent[]>`
    SELECT "event_id"::text AS "eventId", "delivery_ids"::text[] AS "deliveryIds"
      FROM "purser_record_payment_event"(${input.ownerId}::uuid, ${input.intentId}::uuid, ${input.type}, ${data}::jsonb, ${at.toISOString()}::timestamptz)`;
  if (!row) throw new Error('purser_record_payment_event answered no row');
  return row;
}
