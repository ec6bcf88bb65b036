/**
 * Webhook delivery end to end: a real Temporal dev server, a real worker running
 * webhookDeliveryWorkflow with the server's sender, a real database and a real receiver on
 * 127.0.0.1. Retries back off and succeed, give up after the retry window, stop when the
 * endpoint is disabled, and redelivery sends the same event again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { intentSelect, toIntentView } from '../src/services/intents/intent-view';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookEndpointInput, type WebhookEndpointWithSecretView } from '@purser/core';
import {
  ensureTemporalCli,
  startTemporalDevServer,
  WORKFLOWS_PATH,
  webhookDeliveryWorkflowId,
  createWebhookActivities,
  type DevServer,
  type WebhookRetryPolicy,
  type WebhookDeliveryResult,
  type webhookDeliveryWorkflow,
} from '@purser/workflows';
import { createWebhookEndpoint } from '../src/services/webhooks/create-webhook-endpoint';
import { createWebhookSender } from '../src/services/webhooks/deliver-webhook';
import { emitPaymentEvent } from '../src/services/webhooks/emit-payment-event';
import { getWebhookDelivery } from '../src/services/webhooks/get-webhook-delivery';
import { redeliverWebhook } from '../src/services/webhooks/redeliver-webhook';
import { rotateWebhookSecret } from '../src/services/webhooks/rotate-webhook-secret';
import { startWebhookDeliveries } from '../src/services/webhooks/start-webhook-deliveries';
import { updateWebhookEndpoint } from '../src/services/webhooks/update-webhook-endpoint';
import type { TemporalDeps } from '../src/deps';
import { createTestApp, type TestApp } from './support/test-app';
import { createAgent, createOwner } from './support/wallet-fixtures';

const log = (message: string) => process.stderr.write(`[webhooks temporal test] ${message}\n`);

/** Short enough for a test, the same shape as the 25-hour default. */
const RETRY: WebhookRetryPolicy = { initialIntervalMs: 200, maximumIntervalMs: 1_000, retryForMs: 60_000 };

let dir: string;
let server: DevServer;
let clientConnection: Connection;
let workerConnection: NativeConnection;
let worker: Worker;
let running: Promise<void>;
let temporal: TemporalDeps;
let t: TestApp;

beforeAll(async () => {
  const cliPath = process.env.TEMPORAL_CLI_PATH ?? (await ensureTemporalCli({ log }));
  dir = mkdtempSync(join(tmpdir(), 'purser-webhooks-temporal-'));
  server = await startTemporalDevServer({ cliPath, dbFile: join(dir, 'temporal.db'), log });
  clientConnection = await Connection.connect({ address: server.address });
  const taskQueue = `webhooks-${randomUUID()}`;
  temporal = { client: new Client({ connection: clientConnection, namespace: 'default' }), taskQueue, webhookRetry: RETRY };
  t = await createTestApp({ temporal });

  workerConnection = await NativeConnection.connect({ address: server.address });
  worker = await Worker.create({
    connection: workerConnection,
    namespace: 'default',
    taskQueue,
    workflowsPath: WORKFLOWS_PATH,
    activities: createWebhookActivities(createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound })),
  });
  running = worker.run();
}, 180_000);

afterAll(async () => {
  if (worker?.getState() === 'RUNNING') worker.shutdown();
  await running;
  await workerConnection?.close();
  await clientConnection?.close();
  await t?.cleanup();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- fixtures

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 answering `statusFor(n)` to its n-th request (from 1). */
async function startReceiver(statusFor: (count: number) => number): Promise<Receiver> {
  const received: Received[] = [];
  const http: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = statusFor(received.length);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? 'try again later' : 'ok');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/webhooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

interface Scenario {
  ownerId: string;
  endpoint: WebhookEndpointWithSecretView;
  eventId: string;
  deliveryId: string;
}

/** An owner with one endpoint at `url`, an intent, and its intent.created event's delivery. */
async function scenario(url: string): Promise<Scenario> {
  const prisma = t.deps.db.prisma;
  const { userId: ownerId } = await createOwner(prisma);
  const { agentId } = await createAgent(prisma, ownerId);
  const endpoint = await createWebhookEndpoint(t.deps, ownerId, createWebhookEndpointInput.parse({ url }));
  const intent = toIntentView(
    await prisma.paymentIntent.create({
      data: { ownerId, agentId, createdBy: 'agent', amount: 2_000_000n, currency: 'USDC', workflowId: `payment-${randomUUID()}`, idempotencyKey: randomUUID(), requestHash: randomBytes(32).toString('hex') },
      select: intentSelect,
    }),
  );
  const { eventId, deliveryIds } = await prisma.$transaction((tx) => emitPaymentEvent(tx, { ownerId, intentId: intent.id, type: 'intent.created', intent }));
  expect(deliveryIds).toHaveLength(1);
  return { ownerId, endpoint, eventId, deliveryId: deliveryIds[0]! };
}

function runResult(deliveryId: string, run: number): Promise<WebhookDeliveryResult> {
  return temporal.client.workflow.getHandle<typeof webhookDeliveryWorkflow>(webhookDeliveryWorkflowId(deliveryId, run)).result();
}

/** The durations (ms) of the timers a delivery run started, in order. */
async function timersOf(deliveryId: string, run: number): Promise<number[]> {
  const history = await temporal.client.workflow.getHandle(webhookDeliveryWorkflowId(deliveryId, run)).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const timeout = event.timerStartedEventAttributes?.startToFireTimeout;
    return timeout ? [Number(timeout.seconds ?? 0) * 1000 + Math.round((timeout.nanos ?? 0) / 1e6)] : [];
  });
}

function headersOf(request: Received): Record<string, string> {
  return Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
}

// ---------------------------------------------------------------- tests

describe('webhook delivery', () => {
  it('retries a receiver that fails its first 3 deliveries with backoff; the 4th arrives and its signature verifies', async () => {
    const receiver = await startReceiver((count) => (count <= 3 ? 500 : 200));
    try {
      const { ownerId, endpoint, eventId, deliveryId } = await scenario(receiver.url);
      await startWebhookDeliveries(temporal, [deliveryId]);
      // Starting it again (a retried payment activity) is harmless.
      await startWebhookDeliveries(temporal, [deliveryId]);

      expect(await runResult(deliveryId, 1)).toEqual({ delivered: true, attempts: 4, lastStatusCode: 200 });

      expect(receiver.received).toHaveLength(4);
      const delivered = receiver.received[3]!;
      const event = new Webhook(endpoint.secret).verify(delivered.body, headersOf(delivered));
      expect(event).toMatchObject({ id: eventId, type: 'intent.created', data: { intent: { amountExact: '2' } } });
      // One webhook-id across retries, as the spec requires, and a signature on each.
      for (const request of receiver.received) {
        expect(request.headers['webhook-id']).toBe(eventId);
        expect(() => new Webhook(endpoint.secret).verify(request.body, headersOf(request))).not.toThrow();
      }
      // Exponential backoff: the run waited 200, 400 and 800 ms (the workflow's durable timers;
      // the dev server fires timers with about a second's granularity, so wall-clock gaps are
      // only bounded below).
      expect(await timersOf(deliveryId, 1)).toEqual([200, 400, 800]);
      const gaps = receiver.received.slice(1).map((request, index) => request.at - receiver.received[index]!.at);
      for (const [index, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual(200 * 2 ** index - 10);

      const delivery = await getWebhookDelivery(t.deps, ownerId, deliveryId);
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 4, lastStatusCode: 200, lastError: null, nextAttemptAt: null, deliveredAt: expect.any(String) });
      expect(delivery.attemptLog.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.succeeded])).toEqual([
        [1, 500, false],
        [2, 500, false],
        [3, 500, false],
        [4, 200, true],
      ]);
      for (const attempt of delivery.attemptLog) expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
      expect(delivery.attemptLog[0]?.error).toBe('HTTP 500: try again later');

      // Nothing more arrives: the run is over and its id is never reused.
      await startWebhookDeliveries(temporal, [deliveryId]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(4);
    } finally {
      await receiver.close();
    }
  });

  it('gives up and marks the delivery failed once the retry window has passed', async () => {
    const receiver = await startReceiver(() => 503);
    try {
      const { ownerId, deliveryId } = await scenario(receiver.url);
      const window = 3_000;
      const tiny: TemporalDeps = { ...temporal, webhookRetry: { initialIntervalMs: 100, maximumIntervalMs: 200, retryForMs: window } };
      await startWebhookDeliveries(tiny, [deliveryId]);

      const result = await runResult(deliveryId, 1);
      expect(result.delivered).toBe(false);
      expect(result.lastStatusCode).toBe(503);

      const delivery = await getWebhookDelivery(t.deps, ownerId, deliveryId);
      expect(delivery).toMatchObject({ status: 'failed', lastStatusCode: 503, nextAttemptAt: null, deliveredAt: null });
      expect(delivery.attempts).toBe(result.attempts);
      expect(delivery.attempts).toBeGreaterThanOrEqual(3);
      expect(receiver.received).toHaveLength(delivery.attempts);
      // Backoff capped at the maximum; the last wait is cut to what is left of the window.
      const timers = await timersOf(deliveryId, 1);
      expect(timers.slice(0, 2)).toEqual([100, 200]);
      for (const timer of timers) expect(timer).toBeLessThanOrEqual(200);
      // Retries last the whole window: the last attempt is at its end, not before and not long after.
      const log = delivery.attemptLog;
      const span = Date.parse(log[log.length - 1]!.at) - Date.parse(log[0]!.at);
      expect(span).toBeGreaterThanOrEqual(window - 100);
      expect(span).toBeLessThan(window + 2_500);
    } finally {
      await receiver.close();
    }
  });

  it('stops retrying when the owner disables the endpoint', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const { ownerId, endpoint, deliveryId } = await scenario(receiver.url);
      await startWebhookDeliveries(temporal, [deliveryId]);
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      await updateWebhookEndpoint(t.deps, ownerId, { endpointId: endpoint.endpoint.id, enabled: false });

      expect((await runResult(deliveryId, 1)).delivered).toBe(false);
      const delivery = await getWebhookDelivery(t.deps, ownerId, deliveryId);
      expect(delivery).toMatchObject({ status: 'failed', lastError: 'Endpoint disabled' });
      expect(receiver.received).toHaveLength(delivery.attempts);
    } finally {
      await receiver.close();
    }
  });

  it('redelivers on demand: the same event and webhook-id again, new attempts added to the log', async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const { ownerId, endpoint, eventId, deliveryId } = await scenario(receiver.url);
      await startWebhookDeliveries(temporal, [deliveryId]);
      expect((await runResult(deliveryId, 1)).delivered).toBe(true);

      const redelivery = await redeliverWebhook(t.deps, ownerId, deliveryId);
      expect(redelivery).toMatchObject({ id: deliveryId, status: 'pending', attempts: 1 });
      // Run numbers follow the attempts made: 1 attempt so far, so this is run 3.
      expect(await runResult(deliveryId, 3)).toEqual({ delivered: true, attempts: 1, lastStatusCode: 200 });

      expect(receiver.received).toHaveLength(2);
      expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([eventId, eventId]);
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
      expect(new Webhook(endpoint.secret).verify(receiver.received[1]!.body, headersOf(receiver.received[1]!))).toMatchObject({ id: eventId });

      const delivery = await getWebhookDelivery(t.deps, ownerId, deliveryId);
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(delivery.attemptLog.map((attempt) => [attempt.attempt, attempt.statusCode])).toEqual([
        [1, 200],
        [2, 200],
      ]);

      // A second redelivery gets a fresh run again.
      await redeliverWebhook(t.deps, ownerId, deliveryId);
      expect((await runResult(deliveryId, 4)).delivered).toBe(true);
      expect(receiver.received).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });

  it('redelivers a failed delivery once its endpoint is enabled again, signed with the current secret', async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const { ownerId, endpoint, deliveryId } = await scenario(receiver.url);
      await updateWebhookEndpoint(t.deps, ownerId, { endpointId: endpoint.endpoint.id, enabled: false });
      await startWebhookDeliveries(temporal, [deliveryId]);
      expect(await runResult(deliveryId, 1)).toMatchObject({ delivered: false, attempts: 0 });
      expect((await getWebhookDelivery(t.deps, ownerId, deliveryId)).status).toBe('failed');

      await updateWebhookEndpoint(t.deps, ownerId, { endpointId: endpoint.endpoint.id, enabled: true });
      // Rotated with no overlap (a leaked secret): the old one stops signing at once.
      const rotated = await rotateWebhookSecret(t.deps, ownerId, { endpointId: endpoint.endpoint.id, overlapSeconds: 0 });
      await redeliverWebhook(t.deps, ownerId, deliveryId);
      // No attempt yet, so run 2.
      expect((await runResult(deliveryId, 2)).delivered).toBe(true);
      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      expect(() => new Webhook(rotated.secret).verify(request!.body, headersOf(request!))).not.toThrow();
      expect(() => new Webhook(endpoint.secret).verify(request!.body, headersOf(request!))).toThrow();
      expect((await getWebhookDelivery(t.deps, ownerId, deliveryId)).status).toBe('succeeded');
    } finally {
      await receiver.close();
    }
  });
});
