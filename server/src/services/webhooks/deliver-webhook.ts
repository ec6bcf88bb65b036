/**
 * The HTTP side of webhook delivery, handed to the workflow activities as their WebhookSender.
 * One call is one signed POST of the stored event body, recorded as one attempt in the
 * delivery's log together with the delivery's summary, in one transaction.
 *
 * Signing follows the Standard Webhooks specification (the `standardwebhooks` package):
 * `webhook-id` is the event id, the same on every retry and redelivery so receivers can drop
 * duplicates; `webhook-timestamp` is the time of this attempt; `webhook-signature` signs
 * id.timestamp.body with the endpoint's current secret.
 *
 * Outbound safety: http(s) only; no redirects (a 3xx is a failed attempt); a time limit on
 * the whole exchange; at most 4 KiB of the answer is read. Unless private URLs are allowed,
 * the connection only reaches public addresses, checked in its own DNS lookup.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Database, TransactionClient, WebhookDeliveryStatus } from '@purser/db';
import type { WebhookAttemptOptions, WebhookAttemptResult, WebhookSender } from '@purser/workflows/activities/webhooks';
import { decryptWebhookSecret } from './webhook-secret';
import { isPublicAddress, PrivateAddressError, publicOnlyLookup, urlHost } from './webhook-url';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an endpoint's answer is read; the rest is discarded unread. */
export const RESPONSE_READ_LIMIT_BYTES = 4096;
/** How much of it the log keeps with a failed attempt. */
const ERROR_EXCERPT_CHARS = 1024;
export const WEBHOOK_USER_AGENT = 'Purser-Webhooks/1.0';

export interface WebhookSenderOptions {
  db: Pick<Database, 'prisma'>;
  masterKey: Buffer;
  allowPrivateUrls: boolean;
  /** Limit of one attempt, connection to last byte read. */
  fetchTimeoutMs?: number;
}

interface HttpOutcome {
  statusCode: number | null;
  error: string | null;
}

export function createWebhookSender({ db, masterKey, allowPrivateUrls, fetchTimeoutMs = DEFAULT_WEBHOOK_TIMEOUT_MS }: WebhookSenderOptions): WebhookSender {
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
          endpoint: { select: { id: true, url: true, enabled: true, deletedAt: true, secretCiphertext: true, secretIv: true, secretTag: true } },
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
      const secret = decryptWebhookSecret(masterKey, endpoint.id, endpoint);
      const headers = {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(delivery.eventId, sentAt, body),
      };

      const started = performance.now();
      const outcome = await postWebhook(endpoint.url, headers, body, { allowPrivateUrls, timeoutMs: fetchTimeoutMs });
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
      return { delivered: succeeded, stop: succeeded, statusCode: outcome.statusCode, attempt };
    },

    async giveUpDelivery(deliveryId: string): Promise<void> {
      await prisma.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { status: 'failed', nextAttemptAt: null } });
    },
  };
}

/**
 * One POST; never throws for what the endpoint or the network does: a response is its status
 * (with an excerpt of the body when not 2xx), anything else is an error message for the log.
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivateUrls: boolean; timeoutMs: number },
): Promise<HttpOutcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { statusCode: null, error: 'Invalid endpoint URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { statusCode: null, error: 'Endpoint URL is not http or https' };
  const host = urlHost(target);
  // Literal addresses skip the lookup below, so they are checked here.
  if (!options.allowPrivateUrls && isIP(host) && !isPublicAddress(host)) {
    return { statusCode: null, error: `Refused: ${host} is not a public address` };
  }

  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise<HttpOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: HttpOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    // Set once the status line is in: a body cut short afterwards still reports that status.
    let finishResponse: (() => void) | null = null;
    const failWith = (error: unknown) => (finishResponse ? finishResponse() : settle({ statusCode: null, error: describeError(error, signal, options.timeoutMs) }));

    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // A fresh connection per attempt: every attempt goes through the address check.
        agent: false,
        signal,
        ...(options.allowPrivateUrls ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        const statusCode = response.statusCode ?? null;
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
          settle({ statusCode, error: ok ? null : `HTTP ${statusCode}${excerpt(Buffer.concat(chunks))}` });
        };
        finishResponse = finish;
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_READ_LIMIT_BYTES) chunks.push(chunk.subarray(0, RESPONSE_READ_LIMIT_BYTES - size));
          size += chunk.length;
          if (size >= RESPONSE_READ_LIMIT_BYTES) {
            finish();
            response.destroy();
          }
        });
        response.on('error', finish);
        response.on('close', finish);
      },
    );
    request.on('error', failWith);
    request.end(body);
  });
}

function excerpt(bytes: Buffer): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is stripped
  const text = bytes.toString('utf8').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return text ? `: ${text.slice(0, ERROR_EXCERPT_CHARS)}` : '';
}

function describeError(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `Timed out after ${timeoutMs} ms`;
  if (error instanceof PrivateAddressError) return `Refused: ${error.message}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 300);
}
