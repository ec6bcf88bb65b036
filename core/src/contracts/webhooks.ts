/**
 * Contracts of webhooks: the endpoints an owner registers for payment events, the delivery
 * log and redelivery (owner tRPC `webhooks.*` and /api/v1/webhooks). camelCase, like the
 * intents surface. An endpoint's signing secret follows the Standard Webhooks form
 * (`whsec_` + base64 of 24 to 64 random bytes); it is in a response only when it is created
 * or rotated, and never in a view of the endpoint.
 */
import { z } from 'zod';
import { BUDGET_THRESHOLD_EVENT } from './budget-alerts';
import { WEBHOOK_EVENT_TYPES } from './intents';
import { OAUTH_CONNECTION_EVENTS } from './oauth';
import { PAYMENT_SESSION_EVENTS } from './payment-sessions';

/**
 * What an endpoint may subscribe to: the four payment events of the spec (WEBHOOK_EVENT_TYPES,
 * whose body carries the intent), budget.threshold (budget-alerts.ts, whose body carries the
 * alert), connection.created / connection.revoked (oauth.ts, whose body carries the OAuth
 * connection) and budget.requested / granted / rejected / closed (payment-sessions.ts, whose
 * body carries the payment session). A new endpoint gets the four payment events unless it names
 * its events, so a receiver written for intent events never meets another body unasked.
 */
export const WEBHOOK_SUBSCRIBABLE_EVENTS = [...WEBHOOK_EVENT_TYPES, BUDGET_THRESHOLD_EVENT, ...OAUTH_CONNECTION_EVENTS, ...PAYMENT_SESSION_EVENTS] as const;
export type WebhookSubscribableEvent = (typeof WEBHOOK_SUBSCRIBABLE_EVENTS)[number];

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_MIN_BYTES = 24;
export const WEBHOOK_SECRET_MAX_BYTES = 64;
/**
 * After a rotation the replaced secret keeps signing beside the new one for this long by
 * default (24 h), so receivers verify every delivery while they are updated; a rotation may
 * choose 0 (it stops at once: a leaked secret) up to the maximum (7 days).
 */
export const WEBHOOK_SECRET_OVERLAP_DEFAULT_SECONDS = 86_400;
export const WEBHOOK_SECRET_OVERLAP_MAX_SECONDS = 7 * 86_400;
export const WEBHOOK_SECRET_OVERLAP_MESSAGE = `overlapSeconds must be a whole number of seconds from 0 to ${WEBHOOK_SECRET_OVERLAP_MAX_SECONDS} (7 days)`;
/** Live endpoints per owner: every event fans out to each of them. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatusName = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const WEBHOOK_ENDPOINT_NOT_FOUND_MESSAGE = 'Webhook endpoint not found';
export const WEBHOOK_DELIVERY_NOT_FOUND_MESSAGE = 'Webhook delivery not found';
export const WEBHOOK_URL_MESSAGE = 'Webhook URL must be an absolute http:// or https:// URL';
export const WEBHOOK_EVENTS_MESSAGE = `Webhook events must be one or more of ${WEBHOOK_SUBSCRIBABLE_EVENTS.join(', ')}`;
export const WEBHOOK_SECRET_MESSAGE =
  `Webhook secret must be ${WEBHOOK_SECRET_PREFIX} followed by the base64 of ${WEBHOOK_SECRET_MIN_BYTES} to ` +
  `${WEBHOOK_SECRET_MAX_BYTES} random bytes; leave it out to have one generated`;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True for a Standard Webhooks secret of an acceptable length (no I/O, so core stays pure). */
export function isWebhookSecret(value: string): boolean {
  if (!value.startsWith(WEBHOOK_SECRET_PREFIX)) return false;
  const encoded = value.slice(WEBHOOK_SECRET_PREFIX.length);
  if (encoded.length === 0 || !BASE64.test(encoded)) return false;
  const padding = encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0;
  const bytes = (encoded.length / 4) * 3 - padding;
  return bytes >= WEBHOOK_SECRET_MIN_BYTES && bytes <= WEBHOOK_SECRET_MAX_BYTES;
}

/**
 * An absolute http(s) URL without credentials in it. Whether its host may be private is the
 * server's call (it resolves the name); this only checks the form.
 */
export const webhookUrlSchema = z
  .string({ error: WEBHOOK_URL_MESSAGE })
  .trim()
  .min(1, { error: WEBHOOK_URL_MESSAGE })
  .max(WEBHOOK_URL_MAX_LENGTH, { error: `Webhook URL must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` })
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: WEBHOOK_URL_MESSAGE });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: WEBHOOK_URL_MESSAGE });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'Webhook URL must not contain a user name or password' });
      return z.NEVER;
    }
    if (!url.hostname) {
      ctx.addIssue({ code: 'custom', message: WEBHOOK_URL_MESSAGE });
      return z.NEVER;
    }
    const normalized = url.toString();
    if (normalized.length > WEBHOOK_URL_MAX_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `Webhook URL must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` });
      return z.NEVER;
    }
    return normalized;
  });

/** One or more event types, each once, in the order WEBHOOK_SUBSCRIBABLE_EVENTS lists them. */
export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_SUBSCRIBABLE_EVENTS, { error: WEBHOOK_EVENTS_MESSAGE }), { error: WEBHOOK_EVENTS_MESSAGE })
  .min(1, { error: WEBHOOK_EVENTS_MESSAGE })
  .transform((events) => WEBHOOK_SUBSCRIBABLE_EVENTS.filter((type) => events.includes(type)));

export const webhookSecretSchema = z
  .string({ error: WEBHOOK_SECRET_MESSAGE })
  .trim()
  .refine(isWebhookSecret, { error: WEBHOOK_SECRET_MESSAGE });

const descriptionSchema = z
  .string({ error: 'Description must be text' })
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, { error: `Description must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters` });
const enabledSchema = z.boolean({ error: 'enabled must be true or false' });

export const webhookEndpointIdSchema = z.uuid({ error: 'Webhook endpoint id must be a UUID' });
export const webhookDeliveryIdSchema = z.uuid({ error: 'Webhook delivery id must be a UUID' });

// ---------------------------------------------------------------- requests

export const createWebhookEndpointInput = z.object({
  url: webhookUrlSchema,
  events: webhookEventsSchema.default([...WEBHOOK_EVENT_TYPES]),
  /** Leave out to have one generated (and shown once in the answer). */
  secret: webhookSecretSchema.optional(),
  description: descriptionSchema.default(''),
  enabled: enabledSchema.default(true),
});
export type CreateWebhookEndpointBody = z.input<typeof createWebhookEndpointInput>;
export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointInput>;

const endpointChangeFields = {
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  description: descriptionSchema.optional(),
  enabled: enabledSchema.optional(),
};

const namesOneChange = [
  (input: { url?: unknown; events?: unknown; description?: unknown; enabled?: unknown }) =>
    input.url !== undefined || input.events !== undefined || input.description !== undefined || input.enabled !== undefined,
  { error: 'Give at least one of url, events, description or enabled to change' },
] as const;

/** The changes of PATCH /webhooks/:endpointId (the id comes from the path). */
export const webhookEndpointChanges = z.object(endpointChangeFields).refine(...namesOneChange);
export type WebhookEndpointChanges = z.output<typeof webhookEndpointChanges>;

/** Changes only the fields it names; at least one. */
export const updateWebhookEndpointInput = z.object({ endpointId: webhookEndpointIdSchema, ...endpointChangeFields }).refine(...namesOneChange);
export type UpdateWebhookEndpointBody = z.input<typeof updateWebhookEndpointInput>;
export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointInput>;

export const webhookEndpointIdInput = z.object({ endpointId: webhookEndpointIdSchema });
export type WebhookEndpointIdInput = z.output<typeof webhookEndpointIdInput>;

const overlapSecondsSchema = z
  .number({ error: WEBHOOK_SECRET_OVERLAP_MESSAGE })
  .int({ error: WEBHOOK_SECRET_OVERLAP_MESSAGE })
  .min(0, { error: WEBHOOK_SECRET_OVERLAP_MESSAGE })
  .max(WEBHOOK_SECRET_OVERLAP_MAX_SECONDS, { error: WEBHOOK_SECRET_OVERLAP_MESSAGE })
  .default(WEBHOOK_SECRET_OVERLAP_DEFAULT_SECONDS);

const rotationFields = {
  /** The new secret; generated when left out. */
  secret: webhookSecretSchema.optional(),
  /**
   * How long the secret being replaced keeps signing beside the new one: 0 stops it at once
   * (it leaked); default 24 h, at most 7 days. A secret replaced before stops with that rotation.
   */
  overlapSeconds: overlapSecondsSchema,
};

/** The body of POST /webhooks/:endpointId/rotate-secret. */
export const rotateWebhookSecretBody = z.object(rotationFields);
export const rotateWebhookSecretInput = z.object({ endpointId: webhookEndpointIdSchema, ...rotationFields });
export type RotateWebhookSecretInput = z.output<typeof rotateWebhookSecretInput>;
/** What the rotation service takes: the overlap may be left to its default. */
export type RotateWebhookSecretRequest = z.input<typeof rotateWebhookSecretInput>;

export const WEBHOOK_DELIVERIES_LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';

/** Query of the delivery log (REST passes everything but endpointId in the query string). */
export const webhookDeliveriesQuery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: `status must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
  limit: z.coerce
    .number({ error: WEBHOOK_DELIVERIES_LIMIT_MESSAGE })
    .int({ error: WEBHOOK_DELIVERIES_LIMIT_MESSAGE })
    .min(1, { error: WEBHOOK_DELIVERIES_LIMIT_MESSAGE })
    .max(100, { error: WEBHOOK_DELIVERIES_LIMIT_MESSAGE })
    .default(50),
  /** The id of the last delivery of the previous page. */
  cursor: z.uuid({ error: 'cursor must be a webhook delivery id' }).optional(),
});

export const listWebhookDeliveriesInput = webhookDeliveriesQuery.extend({ endpointId: webhookEndpointIdSchema.optional() });
export type ListWebhookDeliveriesInput = z.output<typeof listWebhookDeliveriesInput>;

export const webhookDeliveryIdInput = z.object({ deliveryId: webhookDeliveryIdSchema });
export type WebhookDeliveryIdInput = z.output<typeof webhookDeliveryIdInput>;

export const redeliverWebhookInput = webhookDeliveryIdInput;
export type RedeliverWebhookInput = WebhookDeliveryIdInput;

// ---------------------------------------------------------------- responses

/** A registered endpoint. Never carries its secret. */
export const webhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_SUBSCRIBABLE_EVENTS)),
  description: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;

/** The answer to create and rotate-secret: the only time the signing secret is shown. */
export const webhookEndpointWithSecretView = z.object({
  endpoint: webhookEndpointView,
  /** Keep it: it verifies the `webhook-signature` header and is not shown again. */
  secret: z.string(),
});
export type WebhookEndpointWithSecretView = z.infer<typeof webhookEndpointWithSecretView>;

/** The answer to rotate-secret: the new secret, and until when the replaced one still signs. */
export const rotatedWebhookSecretView = webhookEndpointWithSecretView.extend({
  /** Until then deliveries carry a signature by the replaced secret too; null when it stopped at once. */
  previousSecretExpiresAt: z.string().nullable(),
});
export type RotatedWebhookSecretView = z.infer<typeof rotatedWebhookSecretView>;

export const webhookEndpointListView = z.object({ endpoints: z.array(webhookEndpointView) });
export type WebhookEndpointListView = z.infer<typeof webhookEndpointListView>;

export const deleteWebhookEndpointResult = z.object({ id: z.string(), deleted: z.literal(true), deletedAt: z.string() });
export type DeleteWebhookEndpointResult = z.infer<typeof deleteWebhookEndpointResult>;

/** One delivery of one event to one endpoint, with its latest attempt summarised. */
export const webhookDeliveryView = z.object({
  id: z.string(),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: z.enum(WEBHOOK_SUBSCRIBABLE_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastLatencyMs: z.number().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

export const webhookDeliveryListView = z.object({
  deliveries: z.array(webhookDeliveryView),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveryListView = z.infer<typeof webhookDeliveryListView>;

/** One HTTP attempt: the delivery log. */
export const webhookDeliveryAttemptView = z.object({
  attempt: z.number(),
  statusCode: z.number().nullable(),
  latencyMs: z.number(),
  /** Network error, timeout or a short excerpt of a non-2xx response. */
  error: z.string().nullable(),
  succeeded: z.boolean(),
  at: z.string(),
});
export type WebhookDeliveryAttemptView = z.infer<typeof webhookDeliveryAttemptView>;

/**
 * A delivery with the body that is sent (the webhookEventView of intents.ts, or the
 * budgetThresholdEventView of budget-alerts.ts, as stored when the event happened: `data` is
 * kept as it was, so old events read even after the contracts grow) and every attempt, oldest first.
 */
export const webhookDeliveryDetailView = webhookDeliveryView.extend({
  payload: z.object({
    id: z.string(),
    type: z.enum(WEBHOOK_SUBSCRIBABLE_EVENTS),
    createdAt: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
  attemptLog: z.array(webhookDeliveryAttemptView),
});
export type WebhookDeliveryDetailView = z.infer<typeof webhookDeliveryDetailView>;
