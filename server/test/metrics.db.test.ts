/**
 * GET /metrics on a real database: payments driven to their end by the real payment steps
 * (no Temporal) show up counted by rail and outcome, beside the HTTP histogram of the routes
 * called, the gate's rule codes, the ledger totals and the webhook backlog, read once per few
 * seconds however many scrape. Who may read it (http/metrics-access.ts): the operator token on
 * a server listening beyond loopback (closed to everyone there without a token), anyone on a
 * loopback-only server, anyone on METRICS_PORT, which then alone serves it; in the worker's
 * health-only app too.
 */
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import { isLoopbackHost, metricsAccess, startMetricsServer } from '../src/http/metrics-access';
import { createMetrics, DATABASE_GAUGES_TTL_MS } from '../src/metrics/metrics';
import { authorizePayment } from '../src/services/payments/authorize-payment';
import { capturePayment } from '../src/services/payments/settle-payment';
import { createRails } from '../src/services/rails/create-rails';
import { insertIntentRow } from './support/intent-rows';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { sample } from './support/prometheus-text';
import { createTestApp, type TestApp } from './support/test-app';

const OPERATOR_TOKEN = 'metrics-test-operator-token-0123456789abcdef';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;

/** A server listening on every interface, as the containers do (HOST=0.0.0.0). */
const everyInterface = { HOST: '0.0.0.0', METRICS_PORT: undefined };

beforeAll(async () => {
  t = await createTestApp({ operatorToken: OPERATOR_TOKEN, metricsAccess: metricsAccess({ ...everyInterface, OPERATOR_TOKEN }) });
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  const topUp = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: owner.headers, payload: { amount: 1_000 } });
  expect(topUp.statusCode, topUp.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

async function scrape(app = t.app, headers: Record<string, string> = operator): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

async function fundedAgent(fund: number, rules: { max_transaction_amount?: number } = {}): Promise<string> {
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name: 'Payer', ...rules } });
  expect(created.statusCode, created.body).toBe(201);
  const agentId = (created.json() as { agent: { id: string } }).agent.id;
  const funded = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/fund-agent', headers: owner.headers, payload: { agent_id: agentId, amount: fund } });
  expect(funded.statusCode, funded.body).toBe(200);
  return agentId;
}

/** The front of a payment as its workflow runs it: the gate, the rail's quote, the hold. */
function authorize(intentId: string) {
  return authorizePayment({ prisma, rails: createRails({ prisma }), startDeliveries: async () => {}, log: () => {} }, intentId);
}

/** Another app of the same deployment (same database), with other app options. */
function sibling(options: Parameters<typeof createTestApp>[0] = {}) {
  return createTestApp({ ...options, deployment: { db: t.deps.db, masterKey: t.deps.masterKey } });
}

describe('GET /metrics', () => {
  it('answers only the operator token on a server listening beyond loopback, as the deep health check does', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('purser_');
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${'x'.repeat(40)}` } });
    expect(wrong.statusCode).toBe(401);
    const ownerToken = await t.app.inject({ method: 'GET', url: '/metrics', headers: owner.headers });
    expect(ownerToken.statusCode).toBe(401);
    await scrape();
  });

  it('counts payments that reached their end by rail and outcome, the rules the gate fired, and the routes called', async () => {
    // A webhook endpoint, so the payments' events leave deliveries behind (nothing delivers them here).
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: owner.headers,
      payload: { url: 'http://127.0.0.1:9/hook', events: ['intent.created', 'intent.approved', 'policy.violation'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const before = await scrape();

    const payer = await fundedAgent(50);
    const settled = await insertIntentRow(prisma, { ownerId: owner.userId, agentId: payer, amount: 5_000_000n, status: 'created', rail: 'ledger' });
    expect(await authorize(settled)).toMatchObject({ outcome: 'authorized', rail: 'ledger' });
    await capturePayment(prisma, settled);
    const capped = await fundedAgent(50, { max_transaction_amount: 1 });
    const blocked = await insertIntentRow(prisma, { ownerId: owner.userId, agentId: capped, amount: 5_000_000n, status: 'created', rail: 'ledger' });
    expect(await authorize(blocked)).toMatchObject({ outcome: 'refused', status: 'blocked' });
    const statuses = await prisma.paymentIntent.findMany({ where: { id: { in: [settled, blocked] } }, select: { id: true, status: true } });
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({ [settled]: 'settled', [blocked]: 'blocked' });

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('purser_payments_total', { rail: 'ledger', outcome: 'settled' })).toBe(1);
    expect(delta('purser_payments_total', { rail: 'ledger', outcome: 'blocked' })).toBe(1);
    expect(delta('purser_payment_duration_seconds_count', { rail: 'ledger', outcome: 'settled' })).toBe(1);
    expect(delta('purser_policy_decisions_total', { rule: 'MAX_PER_TRANSACTION_EXCEEDED', outcome: 'deny' })).toBe(1);
    expect(delta('purser_policy_decisions_total', { rule: 'none', outcome: 'allow' })).toBe(1);

    // The route's pattern and status, never the URL.
    expect(delta('purser_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/wallet/fund-agent', status_code: '200' })).toBe(2);
    expect(delta('purser_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/agents', status_code: '201' })).toBe(2);
    expect(sample(after, 'purser_http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status_code: '401' })).toBeGreaterThanOrEqual(1);
    const missing = await t.app.inject({ method: 'GET', url: `/api/v1/no-such-route/${settled}` });
    expect(missing.statusCode).toBe(404);
    const later = await scrape();
    expect(sample(later, 'purser_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(later).not.toContain(settled);
  });

  it('reads the ledger totals and the webhook backlog from the database when scraped', async () => {
    // An app of its own, whose first scrape reads: the suite's app keeps what it read a moment ago.
    const fresh = await sibling({ operatorToken: OPERATOR_TOKEN });
    const text = await scrape(fresh.app).finally(() => fresh.cleanup());
    const pending = await prisma.webhookDelivery.count({ where: { status: 'pending' } });
    expect(pending).toBeGreaterThan(0);
    expect(sample(text, 'purser_webhook_deliveries_pending')).toBe(pending);
    expect(sample(text, 'purser_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);

    const accounts = await prisma.ledgerAccount.groupBy({ by: ['kind', 'currency'], _sum: { balance: true } });
    expect(accounts.length).toBeGreaterThan(0);
    for (const { kind, currency, _sum } of accounts) {
      expect(sample(text, 'purser_ledger_balance', { kind, currency }), `${kind} ${currency}`).toBeCloseTo(Number(_sum.balance ?? 0n) / 1_000_000, 6);
    }
    // Double entry: a currency's kinds sum to nothing.
    const usdc = ['owner', 'agent', 'hold', 'external'].map((kind) => sample(text, 'purser_ledger_balance', { kind, currency: 'USDC' }) ?? 0);
    expect(usdc.reduce((sum, value) => sum + value, 0)).toBeCloseTo(0, 6);
  });

  it("is served by the worker's health-only app too, under the same rule", async () => {
    const worker = await sibling({ healthOnly: true, metricsAccess: metricsAccess({ HOST: '127.0.0.1', METRICS_PORT: undefined, OPERATOR_TOKEN: undefined }) });
    try {
      const text = await scrape(worker.app, {});
      // The process's counters, in an app (and registry) of its own beside the first.
      expect(sample(text, 'purser_payments_total', { rail: 'ledger', outcome: 'settled' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'purser_webhook_deliveries_pending')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE purser_process_resident_memory_bytes gauge');
      expect((await worker.app.inject({ method: 'GET', url: '/api/v1/agents' })).statusCode).toBe(404);
    } finally {
      await worker.cleanup();
    }
  }, 120_000);

  it('is closed to everyone on a server listening beyond loopback without an operator token, a bearer token or not', async () => {
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'purser.internal']) {
      expect(metricsAccess({ HOST, METRICS_PORT: undefined, OPERATOR_TOKEN: undefined }), HOST).toBe('operator');
    }
    const closed = await sibling({ metricsAccess: metricsAccess({ ...everyInterface, OPERATOR_TOKEN: undefined }) });
    try {
      for (const headers of [{}, operator, { authorization: 'Bearer ' }]) {
        const response = await closed.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringContaining('METRICS_PORT') } });
        expect(response.body).not.toContain('purser_');
      }
    } finally {
      await closed.cleanup();
    }
  });

  it('is open without a token on a server listening on loopback only, as npm start does, unless an operator token is set', async () => {
    for (const HOST of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1', 'localhost']) expect(isLoopbackHost(HOST), HOST).toBe(true);
    for (const HOST of ['0.0.0.0', '::', '192.168.1.2', '::ffff:10.0.0.1', 'example.com']) expect(isLoopbackHost(HOST), HOST).toBe(false);
    expect(metricsAccess({ HOST: '127.0.0.1', METRICS_PORT: undefined, OPERATOR_TOKEN })).toBe('operator');
    const loopback = await sibling({ metricsAccess: metricsAccess({ HOST: '127.0.0.1', METRICS_PORT: undefined, OPERATOR_TOKEN: undefined }) });
    try {
      expect(sample(await scrape(loopback.app, {}), 'purser_webhook_deliveries_pending')).toBeGreaterThan(0);
    } finally {
      await loopback.cleanup();
    }
  });

  it('is served on METRICS_PORT alone when one is set, without a token, from the app’s own registry', async () => {
    expect(metricsAccess({ ...everyInterface, METRICS_PORT: 9300, OPERATOR_TOKEN })).toBe('elsewhere');
    const metrics = createMetrics({ db: t.deps.db, logger: pino({ level: 'silent' }) });
    const main = await sibling({ operatorToken: OPERATOR_TOKEN, metricsAccess: metricsAccess({ ...everyInterface, METRICS_PORT: 9300, OPERATOR_TOKEN }), metrics });
    const own = await startMetricsServer({ metrics, host: '127.0.0.1', port: 0, logger: pino({ level: 'silent' }) });
    try {
      for (const headers of [{}, operator]) expect((await main.app.inject({ method: 'GET', url: '/metrics', headers })).statusCode).toBe(404);
      const response = await fetch(`http://127.0.0.1:${(own.server.address() as AddressInfo).port}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      // The main app's requests, counted in the registry the metrics port serves.
      expect(sample(text, 'purser_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(2);
      expect(sample(text, 'purser_webhook_deliveries_pending')).toBeGreaterThan(0);
    } finally {
      await own.close();
      await main.cleanup();
    }
  });

  it('reads its database gauges once per period however many scrape, concurrent scrapes sharing the read in flight', async () => {
    let reads = 0;
    // Every database read of the gauges goes through $queryRaw: counted here.
    const prisma = new Proxy(t.deps.db.prisma, {
      get(target, property, receiver) {
        if (property !== '$queryRaw') return Reflect.get(target, property, receiver) as unknown;
        return (...args: Parameters<PrismaClient['$queryRaw']>) => {
          reads++;
          return target.$queryRaw(...args);
        };
      },
    });
    let now = 1_000_000;
    const metrics = createMetrics({ db: { prisma }, logger: pino({ level: 'silent' }), databaseGauges: { now: () => now } });
    const pending = () => prisma.webhookDelivery.count({ where: { status: 'pending' } });

    // One read is two queries: the ledger totals and the backlog.
    const [first] = await Promise.all([metrics.scrape(), metrics.scrape(), metrics.scrape(), metrics.scrape()]);
    expect(reads).toBe(2);
    expect(sample(first, 'purser_webhook_deliveries_pending')).toBe(await pending());
    now += DATABASE_GAUGES_TTL_MS - 1;
    for (let i = 0; i < 5; i++) await metrics.scrape();
    expect(reads).toBe(2);

    now += 1;
    await Promise.all([metrics.scrape(), metrics.scrape()]);
    expect(reads).toBe(4);
  });
});
