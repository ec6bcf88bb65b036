/**
 * Records a payment event and the webhook deliveries it causes, inside the caller's
 * transaction (the payment step that caused it). One event per intent and type: emitting
 * again (an activity retry, a replayed step) reuses the event and its deliveries and creates
 * nothing. The deliveries go to the owner's live, enabled endpoints subscribed to the type,
 * as they are when the event is first recorded; each delivery's payload is the event's body
 * (webhookEventView), whose `id` is the event id and the `webhook-id` of every attempt.
 */
import { randomUUID } from 'node:crypto';
import type { IntentView, WebhookEventType, WebhookEventView } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';

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
  const eventId = randomUUID();
  const payload: WebhookEventView = { id: eventId, type: input.type, createdAt: at.toISOString(), data: { intent: input.intent } };
  const json = JSON.parse(JSON.stringify(payload)) as Prisma.InputJsonObject;
  // ON CONFLICT DO NOTHING: a racing emit of the same event waits for the other's commit and
  // then inserts nothing, instead of aborting this transaction on a unique violation.
  const inserted = await tx.paymentEvent.createMany({
    data: [{ id: eventId, ownerId: input.ownerId, paymentIntentId: input.intentId, type: input.type, payload: json, createdAt: at }],
    skipDuplicates: true,
  });
  if (inserted.count === 0) {
    const existing = await tx.paymentEvent.findUniqueOrThrow({
      where: { paymentIntentId_type: { paymentIntentId: input.intentId, type: input.type } },
      select: { id: true },
    });
    return { eventId: existing.id, deliveryIds: await deliveryIdsOf(tx, existing.id) };
  }

  const endpoints = await tx.webhookEndpoint.findMany({
    where: { ownerId: input.ownerId, enabled: true, deletedAt: null, events: { has: input.type } },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  // A new event has no deliveries but those made here: none when no endpoint wants it.
  if (endpoints.length === 0) return { eventId, deliveryIds: [] };
  await tx.webhookDelivery.createMany({
    data: endpoints.map((endpoint) => ({ endpointId: endpoint.id, eventId, eventType: input.type, payload: json, createdAt: at })),
    skipDuplicates: true,
  });
  return { eventId, deliveryIds: await deliveryIdsOf(tx, eventId) };
}

async function deliveryIdsOf(tx: TransactionClient, eventId: string): Promise<string[]> {
  const rows = await tx.webhookDelivery.findMany({ where: { eventId }, orderBy: { id: 'asc' }, select: { id: true } });
  return rows.map((row) => row.id);
}
