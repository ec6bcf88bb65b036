/**
 * The ownership checks and views every webhook service shares. An endpoint is found only by
 * its owner and a deleted one by nobody; a delivery only through an endpoint of its owner
 * (deleted endpoints included: their log still reads). Any other answer is the same 404, so
 * an id of somebody else's endpoint or delivery reveals nothing.
 */
import {
  AppError,
  WEBHOOK_DELIVERY_NOT_FOUND_MESSAGE,
  WEBHOOK_ENDPOINT_NOT_FOUND_MESSAGE,
  type WebhookSubscribableEvent,
  type WebhookDeliveryAttemptView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@purser/core';
import type { Prisma, TransactionClient, WebhookDeliveryStatus } from '@purser/db';
import type { AppDeps } from '../../deps';

export type WebhookServiceDeps = Pick<AppDeps, 'db' | 'masterKey' | 'outbound'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function webhookEndpointNotFound(): AppError {
  return new AppError('NOT_FOUND', WEBHOOK_ENDPOINT_NOT_FOUND_MESSAGE);
}

export function webhookDeliveryNotFound(): AppError {
  return new AppError('NOT_FOUND', WEBHOOK_DELIVERY_NOT_FOUND_MESSAGE);
}

/** What an endpoint view reads; never the secret columns. */
export const webhookEndpointSelect = {
  id: true,
  url: true,
  events: true,
  description: true,
  enabled: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookEndpointSelect;

export type WebhookEndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof webhookEndpointSelect }>;

export function toWebhookEndpointView(row: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookSubscribableEvent[],
    description: row.description,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The where clause of an owner's live endpoint. */
export function ownedEndpointWhere(ownerId: string, endpointId: string) {
  return { id: endpointId, ownerId, deletedAt: null };
}

/**
 * Locks the owner's live endpoint for the rest of the transaction (concurrent changes of one
 * endpoint serialize) and returns it; 404 when the owner has no such endpoint.
 */
export async function lockOwnedEndpoint(tx: TransactionClient, ownerId: string, endpointId: string): Promise<WebhookEndpointRow> {
  assertIds(ownerId, endpointId);
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM webhook_endpoints
     WHERE id = ${endpointId}::uuid AND owner_id = ${ownerId}::uuid AND deleted_at IS NULL
       FOR UPDATE`;
  if (!locked[0]) throw webhookEndpointNotFound();
  return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: webhookEndpointSelect });
}

/** Malformed ids are as unknown as foreign ones (and must not reach a ::uuid cast). */
export function assertIds(...ids: string[]): void {
  if (!ids.every((id) => UUID.test(id))) throw webhookEndpointNotFound();
}

/** The same for delivery ids: a malformed one is an unknown delivery. */
export function assertDeliveryIds(...ids: string[]): void {
  if (!ids.every((id) => UUID.test(id))) throw webhookDeliveryNotFound();
}

/** The where clause of a delivery the owner may read: through one of their endpoints. */
export function ownedDeliveryWhere(ownerId: string, deliveryId: string) {
  return { id: deliveryId, endpoint: { ownerId } };
}

export const webhookDeliverySelect = {
  id: true,
  endpointId: true,
  eventId: true,
  eventType: true,
  status: true,
  attempts: true,
  lastStatusCode: true,
  lastLatencyMs: true,
  lastError: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookDeliverySelect;

export type WebhookDeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof webhookDeliverySelect }>;

export function toWebhookDeliveryView(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType as WebhookSubscribableEvent,
    status: row.status satisfies WebhookDeliveryStatus,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastLatencyMs: row.lastLatencyMs,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const webhookDeliveryAttemptSelect = {
  attempt: true,
  statusCode: true,
  latencyMs: true,
  error: true,
  succeeded: true,
  at: true,
} as const satisfies Prisma.WebhookDeliveryAttemptSelect;

export function toWebhookDeliveryAttemptView(row: Prisma.WebhookDeliveryAttemptGetPayload<{ select: typeof webhookDeliveryAttemptSelect }>): WebhookDeliveryAttemptView {
  return { attempt: row.attempt, statusCode: row.statusCode, latencyMs: row.latencyMs, error: row.error, succeeded: row.succeeded, at: row.at.toISOString() };
}
