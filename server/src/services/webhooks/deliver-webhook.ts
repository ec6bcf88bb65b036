/**
 * The HTTP side of webhook delivery, handed to the workflow activities as their WebhookSender.
 * One call is one signed POST of the stored event body, recorded as one attempt in the
 * delivery's log together with the delivery's summary, in one transaction.
 *
 * Signing follows the Standard Webhooks specification (the `standardwebhooks` package):
 * `webhook-id` is the event id, the same on every retry and redelivery so receivers can drop
 * duplicates; `webhook-timestamp` is the time of this attempt; `webhook-signature` signs
 * id.timestamp.body with the endpoint's current secret and, within a rotation's overlap, with
 * the secret it replaced too: space-delimited `v1,<signature>` entries, the specification's way
 * of carrying several, any one of which verifies. A replaced secret past its expiry signs
 * nothing and is erased here.
 *
 * Outbound safety comes from the outbound client (services/outbound/): the outbound policy
 * checked before connecting and in the connection's own DNS lookup, no redirects (a 3xx is a
 * failed attempt), a time limit on the whole exchange; at most 4 KiB of the answer is read.
 * A refused destination is a failed attempt in the log, like any other.
 */
import { isAppError } from '@purser/core';
import { Webhook } from 'standardwebhooks';
import type { Database, PrismaClient, TransactionClient, WebhookDeliveryStatus } from '@purser/db';
import type { WebhookAttemptOptions, WebhookAttemptResult, WebhookSender } from '@purser/workflows';
import type { OutboundPolicy } from '../outbound/outbound-policy';
import { sendOutbound } from '../outbound/outbound-request';
import { decryptWebhookSecret } from './webhook-secret';
import { countWebhookAttempt, countWebhookGivenUp } from '../../metrics/metrics';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an endpoint's answer is read; the rest is discarded unread. */
export const RESPONSE_READ_LIMIT_BYTES = 4096;
/** How much of it the log keeps with a failed attempt. */
const ERROR_EXCERPT_CHARS = 1024;
export const WEBHOOK_USER_AGENT = 'Purser-Webhooks/1.0';

export interface WebhookSenderOptions {
  db: Pick<Database, 'prisma'>;
  masterKey: Buffer;
  /** Where endpoints may be reached (AppDeps.outbound). */
  outbound: OutboundPolicy;
  /** Limit of one attempt, connection to last byte read. */
  fetchTimeoutMs?: number;
}

interface HttpOutcome {
  statusCode: number | null;
  error: string | null;
}

export function createWebhookSender({ db, masterKey, outbound, fetchTimeoutMs = DEFAULT_WEBHOOK_TIMEOUT_MS }: WebhookSenderOptions): WebhookSender {
  const prisma = db.prisma;

  return {
    async attemptDelivery(deliveryId: string, options: WebhookAttemptOptions = {}): Promise<WebhookAttemptResult> {
      const delivery = await prisma.webhookDelivery.findUnique({
        where: { id: deliveryId },
        select: {
          eventId: true,
          status: true,
          attempts: true,
          lastStatusCode: true,
          payload: true,
          endpoint: {
            select: {
              id: true,
              url: true,
              enabled: true,
              deletedAt: true,
              secretCiphertext: true,
              secretIv: true,
              secretTag: true,
              previousSecretCiphertext: true,
              previousSecretIv: true,
              previousSecretTag: true,
              previousSecretExpiresAt: true,
            },
          },
        },
      });
      if (!delivery) return { delivered: false, stop: true, statusCode: null, attempt: 0 };
      // Another run (a redelivery racing an old retry loop) got it there first.
      if (delivery.status === 'succeeded') return { delivered: true, stop: true, statusCode: delivery.lastStatusCode, attempt: delivery.attempts };

      const endpoint = delivery.endpoint;
      if (endpoint.deletedAt || !endpoint.enabled) {
        await prisma.webhookDelivery.updateMany({
          where: { id: deliveryId, status: 'pending' },
          data: { status: 'failed', nextAttemptAt: null, lastError: endpoint.deletedAt ? 'Endpoint deleted' : 'Endpoint disabled' },
        });
        return { delivered: false, stop: true, statusCode: null, attempt: 0 };
      }

      const body = JSON.stringify(delivery.payload);
      const sentAt = new Date();
      const secrets = await signingSecrets(prisma, masterKey, endpoint, sentAt);
      const headers = {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(delivery.eventId, sentAt, body)).join(' '),
      };

      const started = performance.now();
      const outcome = await postWebhook(endpoint.url, headers, body, { policy: outbound, timeoutMs: fetchTimeoutMs });
      const latencyMs = Math.max(0, Math.round(performance.now() - started));
      const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;

      const attempt = await prisma.$transaction(async (tx: TransactionClient) => {
        // The increment locks the row: concurrent runs of one delivery number attempts in turn.
        const counted = await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { attempts: { increment: 1 } }, select: { attempts: true, status: true } });
        const at = new Date();
        await tx.webhookDeliveryAttempt.create({
          data: { deliveryId, attempt: counted.attempts, statusCode: outcome.statusCode, latencyMs, error: outcome.error, succeeded, at },
          select: { id: true },
        });
        const status: WebhookDeliveryStatus = succeeded || counted.status === 'succeeded' ? 'succeeded' : 'pending';
        const retryInMs = options.retryInMs ?? null;
        await tx.webhookDelivery.update({
          where: { id: deliveryId },
          data: {
            status,
            lastStatusCode: outcome.statusCode,
            lastLatencyMs: latencyMs,
            lastError: outcome.error,
            ...(succeeded ? { deliveredAt: at } : {}),
            nextAttemptAt: status === 'pending' && retryInMs !== null ? new Date(at.getTime() + retryInMs) : null,
          },
          select: { id: true },
        });
        return counted.attempts;
      });
      countWebhookAttempt(outcome.statusCode);
      return { delivered: succeeded, stop: succeeded, statusCode: outcome.statusCode, attempt };
    },

    async giveUpDelivery(deliveryId: string): Promise<void> {
      const given = await prisma.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { status: 'failed', nextAttemptAt: null } });
      if (given.count > 0) countWebhookGivenUp();
    },
  };
}

type SecretColumns = { secretCiphertext: Uint8Array; secretIv: Uint8Array; secretTag: Uint8Array };

/**
 * The secrets that sign an attempt at `at`: the current one, then the one a rotation replaced
 * while its overlap lasts. One past its expiry is erased (the update re-checks the expiry, so a
 * rotation that just set a new one is left alone).
 */
async function signingSecrets(
  prisma: PrismaClient,
  masterKey: Buffer,
  endpoint: SecretColumns & { id: string; previousSecretCiphertext: Uint8Array | null; previousSecretIv: Uint8Array | null; previousSecretTag: Uint8Array | null; previousSecretExpiresAt: Date | null },
  at: Date,
): Promise<string[]> {
  const current = decryptWebhookSecret(masterKey, endpoint.id, endpoint);
  const { previousSecretCiphertext, previousSecretIv, previousSecretTag, previousSecretExpiresAt } = endpoint;
  if (!previousSecretCiphertext || !previousSecretIv || !previousSecretTag || !previousSecretExpiresAt) return [current];
  if (at < previousSecretExpiresAt) {
    return [current, decryptWebhookSecret(masterKey, endpoint.id, { secretCiphertext: previousSecretCiphertext, secretIv: previousSecretIv, secretTag: previousSecretTag })];
  }
  await prisma.webhookEndpoint.updateMany({
    where: { id: endpoint.id, previousSecretExpiresAt: { lte: at } },
    data: { previousSecretCiphertext: null, previousSecretIv: null, previousSecretTag: null, previousSecretExpiresAt: null },
  });
  return [current];
}

/**
 * One POST; never throws for what the endpoint or the network does: a response is its status
 * (with an excerpt of the body when not 2xx), anything else is an error message for the log.
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { policy: OutboundPolicy; timeoutMs: number },
): Promise<HttpOutcome> {
  try {
    const response = await sendOutbound(
      { url, method: 'POST', headers, body },
      { policy: options.policy, peer: 'webhook endpoint', timeoutMs: options.timeoutMs, maxResponseBytes: RESPONSE_READ_LIMIT_BYTES, body: 'excerpt' },
    );
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}${excerpt(response.body)}` };
  } catch (error) {
    if (isAppError(error)) return { statusCode: null, error: error.message.slice(0, 300) };
    throw error;
  }
}

function excerpt(bytes: Buffer): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is stripped
  const text = bytes.toString('utf8').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return text ? `: ${text.slice(0, ERROR_EXCERPT_CHARS)}` : '';
}
