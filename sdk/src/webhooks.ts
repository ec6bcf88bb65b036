/**
 * Verifying the webhooks Purser sends, per Standard Webhooks (https://www.standardwebhooks.com):
 * `webhook-id` is the event id (the same on every retry, so a receiver can drop duplicates),
 * `webhook-timestamp` the attempt's time in seconds, and `webhook-signature` a space-separated
 * list of `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the endpoint's secret
 * (`whsec_` + base64 of the key bytes).
 *
 * The signatures are made by the `standardwebhooks` package, the one the server signs with
 * (pure JavaScript: it runs on Node, Deno, Bun, Cloudflare Workers, Vercel Edge and in
 * browsers). Around it this file reads the headers in any shape, checks the timestamp against a
 * tolerance and clock of the caller's choosing, accepts several secrets during a rotation, and
 * answers each failure with a reason. Nothing here needs Node: no Buffer, no node:crypto.
 *
 * Verify the raw body exactly as received, before any JSON parsing: re-serialised JSON is not
 * the same bytes and will not verify.
 */
import { Webhook } from 'standardwebhooks';
import { PurserError } from './errors';
import type { WebhookEvent } from './types';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Standard Webhooks' recommendation: five minutes either way. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export type WebhookVerificationFailure =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'invalid_signature'
  | 'invalid_payload';

export class WebhookVerificationError extends PurserError {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

/** A fetch `Headers`, or a plain object such as Node's `request.headers` (any case, arrays allowed). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** The raw request body, as received. */
  payload: string | Uint8Array;
  headers: WebhookHeaders;
  /** The endpoint's secret; during a rotation, the new and the old one (any may match). */
  secret: string | readonly string[];
  /** How far `webhook-timestamp` may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The clock; the current time when absent. */
  now?: Date;
}

/**
 * Checks a delivery's signature and timestamp and returns its event. Throws a
 * WebhookVerificationError (answer 400 and drop the delivery) when any check fails, and a
 * TypeError when the secret itself is malformed.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('missing_header', 'The webhook-id, webhook-timestamp and webhook-signature headers are all required');
  }

  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp must be whole seconds since the epoch');
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const sentSeconds = Number(timestamp);
  if (nowSeconds - sentSeconds > tolerance) throw new WebhookVerificationError('timestamp_too_old', `The webhook is older than ${tolerance} seconds`);
  if (sentSeconds - nowSeconds > tolerance) throw new WebhookVerificationError('timestamp_in_future', `The webhook is dated more than ${tolerance} seconds ahead`);

  const payload = payloadText(options.payload);
  const sentAt = new Date(sentSeconds * 1000);
  const expected = (typeof options.secret === 'string' ? [options.secret] : options.secret).map((secret) => signatureValue(webhookFor(secret).sign(id, sentAt, payload)));
  const offered = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    // Other versions (v1a, asymmetric) are not what Purser sends: skipped, not failed.
    .filter((parts): parts is [string, string] => parts.length === 2 && parts[0] === 'v1')
    .map(([, value]) => value);
  // Every pair is compared, matched or not, so the time taken says nothing about which was close.
  const matches = expected.map((signature) => offered.map((candidate) => constantTimeEqual(candidate, signature)).includes(true)).includes(true);
  if (!matches) throw new WebhookVerificationError('invalid_signature', 'No webhook-signature matches the payload under the secret');

  try {
    return JSON.parse(payload) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The signed webhook body is not JSON');
  }
}

/**
 * The `webhook-signature` value for a delivery: what Purser sends, for testing a receiver.
 * `timestamp` is in seconds.
 */
export function signWebhook(options: { id: string; timestamp: number; payload: string | Uint8Array; secret: string }): string {
  return webhookFor(options.secret).sign(options.id, new Date(options.timestamp * 1000), payloadText(options.payload));
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The package's signer for a secret, after the secret's shape is checked (its own errors are plain Errors). */
function webhookFor(secret: string): Webhook {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  if (!encoded || !BASE64.test(encoded)) throw new TypeError('A webhook secret is whsec_ followed by base64, as Purser shows it when the endpoint is created');
  return new Webhook(encoded);
}

/**
 * The body as the package signs it: text. Purser's bodies are UTF-8 JSON; bytes are decoded
 * here with TextDecoder (any runtime), since the package reads only strings and Node Buffers.
 */
function payloadText(payload: string | Uint8Array): string {
  return typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
}

function signatureValue(signature: string): string {
  return signature.slice(signature.indexOf(',') + 1);
}

/** Compares two signature strings in time that depends only on their lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.join(' ');
}
