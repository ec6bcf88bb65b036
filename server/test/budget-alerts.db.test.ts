/**
 * Budget alerts on a real database: the capture of a payment (the one-step settle and the
 * step-by-step capture alike) records an alert when the agent's spend reaches 80 and then 100
 * percent of its daily limit or of an enforced policy's monthly budget, once per threshold and
 * period, in the capture's own transaction, with one budget.threshold webhook delivery per
 * subscribed endpoint that the step starts after commit. The console reads them through
 * budgetAlerts.list and GET /api/v1/budget-alerts; another owner sees none. The webhook sender
 * posts an alert's event to a receiver on 127.0.0.1, signed with the endpoint's secret.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetThresholdEventView, type BudgetAlertListView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { DEFAULT_WEBHOOK_RETRY } from '@purser/workflows';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { authorizePayment, type AuthorizeDeps } from '../src/services/payments/authorize-payment';
import { createPaymentSteps } from '../src/services/payments/payment-steps';
import { createRails } from '../src/services/rails/create-rails';
import { capturePayment } from '../src/services/payments/settle-payment';
import { startWebhookDeliveries } from '../src/services/webhooks/start-webhook-deliveries';
import { createWebhookSender } from '../src/services/webhooks/deliver-webhook';
import { getWebhookDelivery } from '../src/services/webhooks/get-webhook-delivery';
import type { TemporalDeps } from '../src/deps';
import { insertIntentRow } from './support/intent-rows';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let authorizeDeps: AuthorizeDeps;
/** Delivery ids whose first run a step started, in order. */
const started: string[] = [];
let steps: ReturnType<typeof createPaymentSteps>;
let budgetEndpoint: string;
let budgetSecret: string;
let settlementEndpoint: string;
/** The budget endpoint's receiver: what it got, answered 200. */
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
let receiver: Server;

/** Records the delivery workflows a step starts (this suite has no Temporal). */
function recordingTemporal(): TemporalDeps {
  const client = {
    workflow: {
      async start(_name: string, options: { args: [{ deliveryId: string }] }) {
        started.push(options.args[0].deliveryId);
      },
    },
  } as unknown as Client;
  return { client, taskQueue: 'budget-alerts-test', webhookRetry: DEFAULT_WEBHOOK_RETRY };
}

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  await api(owner, 'POST', '/api/v1/wallet/top-up', { amount: 10_000 });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/budgets`;
  const budget = (await api(owner, 'POST', '/api/v1/webhooks', { url: receiverUrl, events: ['budget.threshold'] })) as { endpoint: { id: string }; secret: string };
  budgetEndpoint = budget.endpoint.id;
  budgetSecret = budget.secret;
  settlementEndpoint = ((await api(owner, 'POST', '/api/v1/webhooks', { url: 'https://receiver.example.com/settled', events: ['settlement.completed'] })) as { endpoint: { id: string } }).endpoint.id;
  // Subscribed, but switched off: it gets nothing.
  await api(owner, 'POST', '/api/v1/webhooks', { url: 'https://receiver.example.com/off', events: ['budget.threshold'], enabled: false });
  const rails = createRails({ prisma });
  authorizeDeps = { prisma, rails, startDeliveries: async () => {}, log: () => {} };
  steps = createPaymentSteps({ db: t.deps.db, temporal: recordingTemporal(), logger: t.deps.logger, rails });
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
  if (receiver) {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

async function api(who: SignedUpOwner, method: 'POST' | 'PATCH', url: string, payload: object): Promise<unknown> {
  const response = await t.app.inject({ method, url, headers: who.headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

async function fundedAgent(name: string, limits: { max_transaction_amount: number; max_daily_limit: number }): Promise<string> {
  const created = (await api(owner, 'POST', '/api/v1/agents', { name, ...limits })) as { agent: { id: string } };
  await api(owner, 'POST', '/api/v1/wallet/fund-agent', { agent_id: created.agent.id, amount: 500 });
  return created.agent.id;
}

/**
 * A ledger payment of `dollars` through authorize and the rail, ended by the one-step settle or
 * the capture alone (what settle does first); returns the delivery ids that end started.
 */
async function pay(agentId: string, dollars: number, end: 'settle' | 'capture' = 'settle'): Promise<{ intentId: string; started: string[] }> {
  const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: BigInt(dollars) * 1_000_000n, rail: 'ledger' });
  expect(await authorizePayment(authorizeDeps, intentId)).toMatchObject({ outcome: 'authorized' });
  expect(await steps.executeOnRail(intentId)).toMatchObject({ status: 'settled' });
  const before = started.length;
  if (end === 'settle') await steps.settle(intentId, []);
  else await captureAlone(intentId);
  return { intentId, started: started.slice(before) };
}

/** The capture without the rest of settle, its alerts' deliveries started as settle starts them. */
async function captureAlone(intentId: string): Promise<void> {
  const { deliveryIds } = await capturePayment(prisma, intentId);
  await startWebhookDeliveries(recordingTemporal(), deliveryIds);
}

async function budgetDeliveries(agentId: string): Promise<Array<{ id: string; endpointId: string; eventId: string }>> {
  const alerts = await prisma.budgetAlert.findMany({ where: { agentId }, select: { id: true } });
  return prisma.webhookDelivery.findMany({ where: { eventId: { in: alerts.map((alert) => alert.id) } }, orderBy: { id: 'asc' }, select: { id: true, endpointId: true, eventId: true } });
}

async function settlementDeliveryOf(intentId: string): Promise<string[]> {
  const event = await prisma.paymentEvent.findFirst({ where: { paymentIntentId: intentId, type: 'settlement.completed' }, select: { id: true } });
  if (!event) return [];
  return (await prisma.webhookDelivery.findMany({ where: { eventId: event.id }, select: { id: true } })).map((row) => row.id);
}

const today = () => new Date().toISOString().slice(0, 10);

describe('budget alerts of the daily limit', () => {
  let agentId: string;
  const payments: Array<{ intentId: string; started: string[] }> = [];

  beforeAll(async () => {
    agentId = await fundedAgent('Daily spender', { max_transaction_amount: 100, max_daily_limit: 100 });
  });

  it('stay silent below 80 percent', async () => {
    payments.push(await pay(agentId, 50));
    expect(await prisma.budgetAlert.count({ where: { agentId } })).toBe(0);
    expect(payments[0]!.started).toEqual(await settlementDeliveryOf(payments[0]!.intentId));
  });

  it('alert once at 80 percent, with one delivery to each enabled endpoint subscribed, started after the commit', async () => {
    payments.push(await pay(agentId, 30));
    const alerts = await prisma.budgetAlert.findMany({ where: { agentId }, select: { id: true, scope: true, threshold: true, period: true, spent: true, limit: true, paymentIntentId: true, ownerId: true } });
    expect(alerts).toEqual([
      { id: expect.any(String), scope: 'daily_limit', threshold: 80, period: today(), spent: 80_000_000n, limit: 100_000_000n, paymentIntentId: payments[1]!.intentId, ownerId: owner.userId },
    ]);
    const deliveries = await budgetDeliveries(agentId);
    expect(deliveries).toEqual([{ id: expect.any(String), endpointId: budgetEndpoint, eventId: alerts[0]!.id }]);
    expect(payments[1]!.started.sort()).toEqual([...(await settlementDeliveryOf(payments[1]!.intentId)), deliveries[0]!.id].sort());

    // The body the endpoint receives: the budget.threshold event, whose id is the alert's.
    const delivery = await getWebhookDelivery(t.deps, owner.userId, deliveries[0]!.id);
    expect(delivery.eventType).toBe('budget.threshold');
    expect(budgetThresholdEventView.parse(delivery.payload)).toEqual({
      id: alerts[0]!.id,
      type: 'budget.threshold',
      createdAt: expect.any(String),
      data: {
        alert: {
          agentId,
          agentName: 'Daily spender',
          scope: 'daily_limit',
          policyId: null,
          threshold: 80,
          period: today(),
          spent: 80,
          spentExact: '80',
          limit: 100,
          limitExact: '100',
          currency: 'USDC',
          intentId: payments[1]!.intentId,
        },
      },
    });

    // Sent as any event is: the stored body, signed with the endpoint's secret, the alert's id as webhook-id.
    const sender = createWebhookSender({ db: t.deps.db, masterKey: t.deps.masterKey, outbound: t.deps.outbound });
    expect(await sender.attemptDelivery(deliveries[0]!.id)).toEqual({ delivered: true, stop: true, statusCode: 200, attempt: 1 });
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['webhook-id']).toBe(alerts[0]!.id);
    const verified = new Webhook(budgetSecret).verify(received[0]!.body, received[0]!.headers as Record<string, string>);
    expect(verified).toEqual(delivery.payload);
  });

  it('stay silent for a payment between the thresholds', async () => {
    payments.push(await pay(agentId, 10, 'capture'));
    expect(await prisma.budgetAlert.count({ where: { agentId } })).toBe(1);
    expect(payments[2]!.started).toEqual([]);
  });

  it('alert once at 100 percent, from the capture alone too, and a retried capture adds nothing', async () => {
    payments.push(await pay(agentId, 10, 'capture'));
    const alerts = await prisma.budgetAlert.findMany({ where: { agentId }, orderBy: { threshold: 'asc' }, select: { threshold: true, paymentIntentId: true, spent: true } });
    expect(alerts).toEqual([
      { threshold: 80, paymentIntentId: payments[1]!.intentId, spent: 80_000_000n },
      { threshold: 100, paymentIntentId: payments[3]!.intentId, spent: 100_000_000n },
    ]);
    const deliveries = await budgetDeliveries(agentId);
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((delivery) => delivery.endpointId === budgetEndpoint)).toBe(true);
    const hundred = deliveries.filter((delivery) => !payments[1]!.started.includes(delivery.id));
    expect(payments[3]!.started).toEqual(hundred.map((delivery) => delivery.id));

    // A worker lost after the commit runs the step again: the same deliveries are started
    // again (a started run is joined, not doubled), and nothing new is written.
    const again = started.length;
    await captureAlone(payments[3]!.intentId);
    expect(started.slice(again)).toEqual(payments[3]!.started);
    expect(await prisma.budgetAlert.count({ where: { agentId } })).toBe(2);
    expect(await budgetDeliveries(agentId)).toEqual(deliveries);
    expect(await prisma.webhookDelivery.count({ where: { endpointId: settlementEndpoint, eventId: { in: (await budgetDeliveries(agentId)).map((d) => d.eventId) } } })).toBe(0);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('are listed newest first over tRPC and REST, for one agent or all, and never to another owner', async () => {
    const other = await fundedAgent('Quiet spender', { max_transaction_amount: 100, max_daily_limit: 1000 });
    await pay(other, 5);

    const viaTrpc = await t.app.inject({ method: 'GET', url: '/trpc/budgetAlerts.list', headers: owner.headers });
    expect(viaTrpc.statusCode, viaTrpc.body).toBe(200);
    const listed = (viaTrpc.json() as { result: { data: BudgetAlertListView } }).result.data.alerts.filter((alert) => alert.agentId === agentId);
    expect(listed.map((alert) => alert.threshold)).toEqual([100, 80]);
    expect(listed[0]).toEqual({
      id: expect.any(String),
      agentId,
      agentName: 'Daily spender',
      scope: 'daily_limit',
      policyId: null,
      policyName: null,
      threshold: 100,
      period: today(),
      spent: 100,
      spentExact: '100',
      limit: 100,
      limitExact: '100',
      currency: 'USDC',
      intentId: payments[3]!.intentId,
      createdAt: expect.any(String),
    });

    const viaRest = await t.app.inject({ method: 'GET', url: `/api/v1/budget-alerts?agentId=${agentId}&limit=1`, headers: owner.headers });
    expect(viaRest.statusCode, viaRest.body).toBe(200);
    expect((viaRest.json() as BudgetAlertListView).alerts).toEqual([listed[0]]);
    const ofOther = await t.app.inject({ method: 'GET', url: `/api/v1/budget-alerts?agentId=${other}`, headers: owner.headers });
    expect((ofOther.json() as BudgetAlertListView).alerts).toEqual([]);

    const stranger = await signUpTestOwner(t.app, prisma, 'Stranger');
    const theirs = await t.app.inject({ method: 'GET', url: `/api/v1/budget-alerts?agentId=${agentId}`, headers: stranger.headers });
    expect(theirs.statusCode).toBe(200);
    expect((theirs.json() as BudgetAlertListView).alerts).toEqual([]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/budget-alerts?limit=0', headers: owner.headers });
    expect(bad.statusCode).toBe(400);
  });
});

describe("budget alerts of a policy's monthly budget", () => {
  it('alert at 80 and 100 percent of an enforced policy, never for a shadow one, once per month', async () => {
    const agentId = await fundedAgent('Monthly spender', { max_transaction_amount: 100, max_daily_limit: 1000 });
    const enforced = (await api(owner, 'POST', '/api/v1/policies', { name: 'Monthly cap', agentId, rules: { monthlyBudget: 100 } })) as { id: string };
    await api(owner, 'POST', '/api/v1/policies', { name: 'Tighter cap, on trial', agentId, rules: { monthlyBudget: 10 }, shadow: true });
    const month = today().slice(0, 7);

    const first = await pay(agentId, 85);
    const second = await pay(agentId, 15, 'capture');

    const alerts = await prisma.budgetAlert.findMany({ where: { agentId }, orderBy: { threshold: 'asc' }, select: { scope: true, threshold: true, period: true, spent: true, limit: true, paymentIntentId: true } });
    expect(alerts).toEqual([
      { scope: `policy:${enforced.id}`, threshold: 80, period: month, spent: 85_000_000n, limit: 100_000_000n, paymentIntentId: first.intentId },
      { scope: `policy:${enforced.id}`, threshold: 100, period: month, spent: 100_000_000n, limit: 100_000_000n, paymentIntentId: second.intentId },
    ]);
    const deliveries = await budgetDeliveries(agentId);
    expect(deliveries).toHaveLength(2);
    expect(second.started).toEqual([deliveries.find((delivery) => !first.started.includes(delivery.id))!.id]);
    const payload = (await getWebhookDelivery(t.deps, owner.userId, second.started[0]!)).payload;
    expect(budgetThresholdEventView.parse(payload).data.alert).toMatchObject({ scope: 'monthly_budget', policyId: enforced.id, threshold: 100, period: month, spent: 100, limit: 100 });

    const listed = await t.app.inject({ method: 'GET', url: `/trpc/budgetAlerts.list?input=${encodeURIComponent(JSON.stringify({ agentId }))}`, headers: owner.headers });
    const alertsListed = (listed.json() as { result: { data: BudgetAlertListView } }).result.data.alerts;
    expect(alertsListed.map(({ scope, policyId, policyName, threshold }) => ({ scope, policyId, policyName, threshold }))).toEqual([
      { scope: 'monthly_budget', policyId: enforced.id, policyName: 'Monthly cap', threshold: 100 },
      { scope: 'monthly_budget', policyId: enforced.id, policyName: 'Monthly cap', threshold: 80 },
    ]);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });
});
