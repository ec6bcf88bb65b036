/**
 * GET /metrics on a real database: payments driven to their end by the real payment steps
 * (no Temporal) show up counted by rail and outcome, beside the HTTP histogram of the routes
 * called, the gate's rule codes, the ledger totals and the webhook backlog; the endpoint is
 * the operator's when OPERATOR_TOKEN is set, open when it is not, and in the worker's
 * health-only app too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
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

beforeAll(async () => {
  t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
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

describe('GET /metrics', () => {
  it('answers only the operator when OPERATOR_TOKEN is set, as the deep health check does', async () => {
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
    const text = await scrape();
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

  it("is served by the worker's health-only app too, open when the deployment has no operator token", async () => {
    const worker = await createTestApp({ healthOnly: true });
    try {
      const text = await scrape(worker.app, {});
      // The process's counters, in an app (and registry) of its own beside the first.
      expect(sample(text, 'purser_payments_total', { rail: 'ledger', outcome: 'settled' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'purser_webhook_deliveries_pending')).toBe(0);
      expect(text).toContain('# TYPE purser_process_resident_memory_bytes gauge');
      expect((await worker.app.inject({ method: 'GET', url: '/api/v1/agents' })).statusCode).toBe(404);
    } finally {
      await worker.cleanup();
    }
  }, 120_000);
});
