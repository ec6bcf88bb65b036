/**
 * Webhook verification against the reference implementation the server signs with
 * (`standardwebhooks`): what it signs verifies here, what this signs verifies there, and any
 * change to the body, the id, the timestamp or the secret is refused. And it runs where there
 * is no Node: bundled for the browser and run in a bare V8 context (no Buffer, no require, no
 * node:crypto), as on Cloudflare Workers, Deno or Vercel Edge.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { Webhook } from 'standardwebhooks';
import { build } from 'tsup';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, signWebhook, verifyWebhook, WebhookVerificationError, type WebhookVerificationFailure } from './webhooks';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
const sentAt = new Date('2026-11-23T10:00:00Z');
const id = 'evt_0a4c2f1e';
const payload = JSON.stringify({ id, type: 'settlement.completed', createdAt: sentAt.toISOString(), data: { intent: { id: 'i-1', amount: 2 } } });

/** The headers Purser sends (server/src/services/webhooks/deliver-webhook.ts). */
function delivery(options: { body?: string; key?: string; at?: Date; msgId?: string } = {}) {
  const at = options.at ?? sentAt;
  return {
    'content-type': 'application/json',
    'webhook-id': options.msgId ?? id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(options.key ?? secret).sign(options.msgId ?? id, at, options.body ?? payload),
  };
}

function failure(run: () => unknown): WebhookVerificationFailure | 'no error' {
  try {
    run();
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed the way Purser signs it and returns its event', () => {
    const event = verifyWebhook({ payload, headers: delivery(), secret, now: sentAt });
    expect(event).toMatchObject({ id, type: 'settlement.completed', data: { intent: { id: 'i-1' } } });
  });

  it('takes the body as bytes and the headers as a fetch Headers or in any case', () => {
    const headers = delivery();
    expect(verifyWebhook({ payload: Buffer.from(payload), headers: new Headers(headers), secret, now: sentAt }).id).toBe(id);
    const shouting = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook({ payload: new TextEncoder().encode(payload), headers: shouting, secret, now: sentAt }).id).toBe(id);
  });

  it('refuses a tampered body, a changed webhook-id or another secret', () => {
    const headers = delivery();
    expect(failure(() => verifyWebhook({ payload: payload.replace('"amount":2', '"amount":200'), headers, secret, now: sentAt }))).toBe('invalid_signature');
    expect(failure(() => verifyWebhook({ payload: `${payload} `, headers, secret, now: sentAt }))).toBe('invalid_signature');
    expect(failure(() => verifyWebhook({ payload, headers: { ...headers, 'webhook-id': 'evt_other' }, secret, now: sentAt }))).toBe('invalid_signature');
    expect(failure(() => verifyWebhook({ payload, headers, secret: otherSecret, now: sentAt }))).toBe('invalid_signature');
  });

  it('refuses a signature replayed under a new timestamp', () => {
    const original = delivery();
    const later = new Date(sentAt.getTime() + 60_000);
    const replayed = { ...original, 'webhook-timestamp': String(Math.floor(later.getTime() / 1000)) };
    expect(failure(() => verifyWebhook({ payload, headers: replayed, secret, now: later }))).toBe('invalid_signature');
  });

  it('refuses a timestamp outside the tolerance either way, and the tolerance is configurable', () => {
    const headers = delivery();
    const seconds = (n: number) => new Date(sentAt.getTime() + n * 1000);
    expect(failure(() => verifyWebhook({ payload, headers, secret, now: seconds(DEFAULT_WEBHOOK_TOLERANCE_SECONDS) }))).toBe('no error');
    expect(failure(() => verifyWebhook({ payload, headers, secret, now: seconds(DEFAULT_WEBHOOK_TOLERANCE_SECONDS + 1) }))).toBe('timestamp_too_old');
    expect(failure(() => verifyWebhook({ payload, headers, secret, now: seconds(-DEFAULT_WEBHOOK_TOLERANCE_SECONDS - 1) }))).toBe('timestamp_in_future');
    expect(failure(() => verifyWebhook({ payload, headers, secret, now: seconds(31), toleranceSeconds: 30 }))).toBe('timestamp_too_old');
    expect(failure(() => verifyWebhook({ payload, headers, secret, now: seconds(3600), toleranceSeconds: 3600 }))).toBe('no error');
  });

  it('accepts any one matching signature among several, and ignores other signature versions', () => {
    const headers = delivery();
    const wrong = `v1,${randomBytes(32).toString('base64')}`;
    const listed = { ...headers, 'webhook-signature': `v1a,${randomBytes(64).toString('base64')} ${wrong} ${headers['webhook-signature']}` };
    expect(verifyWebhook({ payload, headers: listed, secret, now: sentAt }).id).toBe(id);
    expect(failure(() => verifyWebhook({ payload, headers: { ...headers, 'webhook-signature': `${wrong} v2,abc` }, secret, now: sentAt }))).toBe('invalid_signature');
    // Node joins repeated headers into an array: every value counts.
    expect(verifyWebhook({ payload, headers: { ...headers, 'webhook-signature': [wrong, headers['webhook-signature']] }, secret, now: sentAt }).id).toBe(id);
  });

  it('accepts the old or the new secret during a rotation', () => {
    expect(verifyWebhook({ payload, headers: delivery({ key: otherSecret }), secret: [secret, otherSecret], now: sentAt }).id).toBe(id);
    expect(failure(() => verifyWebhook({ payload, headers: delivery({ key: otherSecret }), secret: [secret], now: sentAt }))).toBe('invalid_signature');
  });

  it('refuses a delivery without its three headers or with a malformed timestamp', () => {
    const headers = delivery();
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _dropped, ...rest } = headers;
      expect(failure(() => verifyWebhook({ payload, headers: rest, secret, now: sentAt }))).toBe('missing_header');
    }
    expect(failure(() => verifyWebhook({ payload, headers: { ...headers, 'webhook-timestamp': '1.7e9' }, secret, now: sentAt }))).toBe('invalid_timestamp');
  });

  it('refuses a signed body that is not JSON', () => {
    expect(failure(() => verifyWebhook({ payload: 'not json', headers: delivery({ body: 'not json' }), secret, now: sentAt }))).toBe('invalid_payload');
  });

  it('throws a TypeError for a secret that is not whsec_ and base64', () => {
    expect(() => verifyWebhook({ payload, headers: delivery(), secret: 'whsec_not base64!', now: sentAt })).toThrow(TypeError);
  });
});

describe('signWebhook', () => {
  it('signs what the reference implementation verifies', () => {
    const now = new Date();
    const timestamp = Math.floor(now.getTime() / 1000);
    const signature = signWebhook({ id, timestamp, payload, secret });
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(payload, headers)).toMatchObject({ id });
    expect(signature).toBe(new Webhook(secret).sign(id, new Date(timestamp * 1000), payload));
  });
});

describe('on a runtime without Node', () => {
  it('verifies and signs with Web APIs only: bundled for the browser and run in a bare V8 context', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'purser-sdk-webhooks-'));
    try {
      await build({
        entry: { webhooks: fileURLToPath(new URL('./webhooks.ts', import.meta.url)) },
        format: ['iife'],
        platform: 'browser',
        globalName: 'purserWebhooks',
        noExternal: [/.*/],
        outDir,
        config: false,
        dts: false,
        silent: true,
      });
      const bundle = readFileSync(join(outDir, 'webhooks.global.js'), 'utf8');
      expect(bundle).not.toMatch(/require\(["'](node:)?crypto["']\)/);
      const headers = delivery({ at: new Date() });
      // Only what a Web runtime has besides the language itself.
      const sandbox: Record<string, unknown> = { TextEncoder, TextDecoder, atob, btoa, input: { payload, headers, secret } };
      const answer = runInNewContext(
        `${bundle};
        const { verifyWebhook, signWebhook } = purserWebhooks;
        const event = verifyWebhook({ ...input, payload: new TextEncoder().encode(input.payload) });
        let refused = '';
        try { verifyWebhook({ ...input, payload: input.payload + ' ' }); } catch (error) { refused = error.reason; }
        const signature = signWebhook({ id: event.id, timestamp: Number(input.headers['webhook-timestamp']), payload: input.payload, secret: input.secret });
        JSON.stringify({ id: event.id, refused, signature, hasBuffer: typeof Buffer, hasRequire: typeof require });`,
        sandbox,
      ) as string;
      expect(JSON.parse(answer)).toEqual({ id, refused: 'invalid_signature', signature: headers['webhook-signature'], hasBuffer: 'undefined', hasRequire: 'undefined' });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);
});
