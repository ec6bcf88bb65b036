/**
 * The landing page's three integration snippets (web/src/features/landing/snippets/) run, as
 * a reader would run them with tsx, against a started product: the API on a real port, a
 * payments worker on a real Temporal dev server. They call Purser through @purser/sdk, run from
 * its sources (the `@purser/source` export condition), so no build comes first. The webhook
 * listener registers its endpoint and verifies, with the SDK, the signature of every delivery
 * of the payment that create-intent starts and attach-policy constrains; a redelivered event is
 * handled once and a forged delivery is refused. Run twice, create-intent answers the same
 * intent: its idempotency key names the purchase.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryView } from '@purser/core';
import { freePort } from '../../scripts/lib.mjs';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const snippet = (name: string) => fileURLToPath(new URL(`../../web/src/features/landing/snippets/${name}`, import.meta.url));

let env: TemporalTestEnv;
let owner: SignedUpOwner;
let variables: Record<string, string>;
let listener: ChildProcess | undefined;

async function call<T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
  const response = await env.testApp.app.inject({ method, url, headers: owner.headers, ...(payload && { payload }) });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json() as T;
}

function start(name: string, extra: Record<string, string> = {}) {
  // As the SDK's README runs its sources: @purser/sdk resolves to sdk/src, which tsx compiles.
  const child = spawn(process.execPath, ['--conditions=@purser/source', '--import', 'tsx', snippet(name)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...variables, ...extra },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exited, output: () => output };
}

async function run(name: string, extra: Record<string, string> = {}): Promise<string> {
  const { exited, output } = start(name, extra);
  const code = await exited;
  expect(code, output()).toBe(0);
  return output();
}

async function waitFor(what: string, read: () => string, test: (text: string) => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test(read())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output so far:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitForStatus(intentId: string, status: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const intent = await call<{ status: string }>('GET', `/api/v1/intents/${intentId}`);
    if (intent.status === status) return;
    if (Date.now() > deadline) throw new Error(`intent ${intentId} is ${intent.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The endpoint's one delivery of an event type, once `test` holds for it. */
async function waitForDelivery(endpointId: string, eventType: WebhookDeliveryView['eventType'], test: (delivery: WebhookDeliveryView) => boolean): Promise<WebhookDeliveryView> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { deliveries } = await call<{ deliveries: WebhookDeliveryView[] }>('GET', `/api/v1/webhooks/${endpointId}/deliveries`);
    const matching = deliveries.filter((delivery) => delivery.eventType === eventType);
    expect(matching.length).toBeLessThanOrEqual(1);
    if (matching[0] && test(matching[0])) return matching[0];
    if (Date.now() > deadline) throw new Error(`no ${eventType} delivery as expected: ${JSON.stringify(matching)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  env = await startTemporalTestEnv();
  const { app, deps } = env.testApp;
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(app, deps.db.prisma);
  await call('POST', '/api/v1/wallet/top-up', { amount: 1000 });
  const created = await call<{ agent: { id: string } }>('POST', '/api/v1/agents', { name: 'Snippet agent', max_transaction_amount: 100, max_daily_limit: 1000 });
  await call('POST', '/api/v1/wallet/fund-agent', { agent_id: created.agent.id, amount: 200 });
  // Above 10 dollars the owner approves: the intent waits at its gate, where a policy may still be attached.
  await call('POST', '/api/v1/policies', { name: 'Approve above 10', agentId: created.agent.id, rules: { approvalThreshold: 10 } });
  // The scopes the three snippets need: create an intent, attach a policy to it, register a webhook endpoint.
  const apiKey = await call<{ key: string }>('POST', '/api/v1/api-keys', { name: 'landing snippets', scopes: ['payments:create', 'webhooks:admin'], expires_in_days: 30 });
  const port = await freePort();
  variables = {
    PURSER_URL: url,
    PURSER_API_KEY: apiKey.key,
    AGENT_ID: created.agent.id,
    PORT: String(port),
    WEBHOOK_URL: `http://127.0.0.1:${port}/purser-events`,
  };
}, 300_000);

afterAll(async () => {
  listener?.kill('SIGTERM');
  await env?.close();
});

describe('the landing page snippets', () => {
  it('create an intent, attach a policy, and receive its signed events', async () => {
    await env.runWorker(async () => {
      const webhooks = start('listen-to-webhooks.ts');
      listener = webhooks.child;
      await waitFor('the webhook listener', webhooks.output, (text) => text.includes('listening for Purser events'), 30_000);

      const created = await run('create-intent.ts');
      const intentId = /intent ([0-9a-f-]{36}) is created/.exec(created)?.[1];
      expect(intentId, created).toBeDefined();
      // The same purchase again, under the same key: the same intent, never a second payment.
      expect(await run('create-intent.ts')).toMatch(new RegExp(`intent ${intentId} is (created|pending_approval)`));
      expect(await env.testApp.deps.db.prisma.paymentIntent.count({ where: { agentId: variables.AGENT_ID! } })).toBe(1);

      const attached = await run('attach-policy.ts', { INTENT_ID: intentId! });
      expect(attached).toMatch(new RegExp(`intent ${intentId} is (created|pending_approval)`));
      const attachedPolicy = await env.testApp.deps.db.prisma.policy.findFirst({ where: { paymentIntentId: intentId! }, select: { rules: true } });
      expect(attachedPolicy?.rules).toMatchObject({ allowedCategories: ['data', 'compute'], kyaEscalation: 'moderate', timeBox: '24h' });
      expect(Number((attachedPolicy?.rules as { dailyLimit?: string }).dailyLimit)).toBe(100);

      // The gate, run again with the attached policy, still asks the owner (above 10 dollars).
      await waitForStatus(intentId!, 'pending_approval');
      await call('POST', `/api/v1/intents/${intentId}/approve`, {});

      await waitFor('settlement.completed', webhooks.output, (text) => text.includes(`settlement.completed: intent ${intentId} is settled`));
      const events = webhooks.output();
      expect(events).toContain(`intent.created: intent ${intentId}`);
      expect(events).toContain(`intent.approved: intent ${intentId}`);

      // Redelivered, the settlement keeps its event id: the listener answers 2xx and handles it no second time.
      const { endpoints } = await call<{ endpoints: Array<{ id: string }> }>('GET', '/api/v1/webhooks');
      expect(endpoints).toHaveLength(1);
      const settlement = await waitForDelivery(endpoints[0]!.id, 'settlement.completed', (delivery) => delivery.status === 'succeeded');
      await call('POST', `/api/v1/webhook-deliveries/${settlement.id}/redeliver`, {});
      const redelivered = await waitForDelivery(
        endpoints[0]!.id,
        'settlement.completed',
        (delivery) => delivery.status !== 'pending' && delivery.attempts > settlement.attempts,
      );
      expect(redelivered).toMatchObject({ status: 'succeeded', lastStatusCode: 204 });
      // A handled event is logged in the tick that sends the 204, before Purser can record it: a second line would be here by now.
      expect(webhooks.output().split(`settlement.completed: intent ${intentId} is settled`)).toHaveLength(2);

      // A delivery without a valid signature is refused and never handled.
      const forged = await fetch(variables.WEBHOOK_URL!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': 'evt_forged',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
        },
        body: JSON.stringify({ id: 'evt_forged', type: 'settlement.completed', data: { intent: { id: 'forged', status: 'settled' } } }),
      });
      expect(forged.status).toBe(400);
      expect(await forged.text()).toBe('invalid_signature');
      expect(webhooks.output()).not.toContain('forged');
    });
  });

  it('leave the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
