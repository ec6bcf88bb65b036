/**
 * The end of a payment in a handful of round trips, on a real database (both engines): the
 * settle step sends BEGIN, the capture (purser_capture_payment: the ledger posting, the history
 * rows, the intent settled, the budget alerts, the settlement.completed event), the audit
 * entries and COMMIT, whatever the payment: a ledger payment, an on-chain payment that moved less
 * than was held, one that crosses a budget alert with webhooks listening. Every guard stays: a
 * retried step captures nothing twice and logs nothing twice, a settlement the hold cannot match
 * is refused with the funds still held, the ledger balances. The intent's view the database
 * writes into the event is the one toIntentView writes.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, type Prisma, type PrismaClient } from '@purser/db';
import { DEFAULT_WEBHOOK_RETRY } from '@purser/workflows';
import type { TemporalDeps } from '../src/deps';
import { intentSelect, toIntentView } from '../src/services/intents/intent-view';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { authorizePayment } from '../src/services/payments/authorize-payment';
import { createPaymentSteps } from '../src/services/payments/payment-steps';
import { createRails } from '../src/services/rails/create-rails';
import { emitPaymentEvent } from '../src/services/webhooks/emit-payment-event';
import { insertIntentRow } from './support/intent-rows';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

/** The settle step's round trips: BEGIN, the capture, the audit entries, COMMIT. */
const SETTLE_ROUND_TRIPS = 4;

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let steps: ReturnType<typeof createPaymentSteps>;
/** Delivery ids whose first run a step started, in order. */
const started: string[] = [];

/** Records the delivery workflows a step starts (this suite has no Temporal). */
function recordingTemporal(): TemporalDeps {
  const client = {
    workflow: {
      async start(_name: string, options: { args: [{ deliveryId: string }] }) {
        started.push(options.args[0].deliveryId);
      },
    },
  } as unknown as Client;
  return { client, taskQueue: 'settle-statements-test', webhookRetry: DEFAULT_WEBHOOK_RETRY };
}

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  await api('POST', '/api/v1/wallet/top-up', { amount: 10_000 });
  steps = createPaymentSteps({ db: t.deps.db, temporal: recordingTemporal(), logger: t.deps.logger, rails: createRails({ prisma }) });
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

async function api(method: 'POST' | 'PATCH', url: string, payload: object): Promise<unknown> {
  const response = await t.app.inject({ method, url, headers: owner.headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

async function fundedAgent(limits: { max_transaction_amount: number; max_daily_limit: number }): Promise<string> {
  const created = (await api('POST', '/api/v1/agents', { name: `Settler ${randomUUID().slice(0, 6)}`, ...limits })) as { agent: { id: string } };
  await api('POST', '/api/v1/wallet/fund-agent', { agent_id: created.agent.id, amount: 100 });
  return created.agent.id;
}

/** A ledger payment authorised (held) and executed on its rail: what settle finds. */
async function heldPayment(agentId: string, amount: bigint): Promise<string> {
  const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount, rail: 'ledger' });
  expect(await authorizePayment({ prisma, rails: createRails({ prisma }), startDeliveries: async () => {}, log: () => {} }, intentId)).toMatchObject({ outcome: 'authorized' });
  expect(await steps.executeOnRail(intentId)).toMatchObject({ status: 'settled' });
  return intentId;
}

/**
 * The operation of an on-chain payment as the x402 rail leaves it once the chain settled it:
 * where it settled and, for `upto`, what it moved (less than the hold).
 */
async function settledOnChain(intentId: string, details: Prisma.InputJsonObject): Promise<void> {
  await prisma.railOperation.deleteMany({ where: { paymentIntentId: intentId } });
  await prisma.railOperation.create({
    data: { paymentIntentId: intentId, rail: 'x402_base', reference: `0x${randomUUID().replace(/-/g, '')}`, status: 'settled', sandbox: true, settledAt: new Date(), details },
  });
}

const STEPS = [{ step: 'capture' as const, status: 'completed' as const, at: new Date().toISOString() }];

/**
 * The statements `fn` sends, one line each. On PGlite the adapter checks deferred constraints
 * just before each COMMIT (prisma/src/adapters.ts: one in-process session, so COMMIT itself must
 * not fail); that statement is the adapter's, the same for every transaction, and not counted.
 */
async function roundTrips<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const { result, statements } = await countStatements(fn);
  return { result, statements: statements.map((sql) => sql.replace(/\s+/g, ' ').trim()).filter((sql) => sql !== 'SET CONSTRAINTS ALL IMMEDIATE') };
}

/** Runs settle and answers the statements it sent. */
async function settleCounted(intentId: string): Promise<string[]> {
  return (await roundTrips(() => steps.settle(intentId, STEPS))).statements;
}

async function balanceOf(agentId: string): Promise<bigint> {
  return (await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } })).balanceUsdc;
}

async function auditActions(intentId: string): Promise<string[]> {
  const rows = await prisma.auditEvent.findMany({ where: { subject: `payment_intent:${intentId}` }, orderBy: { seq: 'asc' }, select: { action: true } });
  return rows.map((row) => row.action);
}

describe('the settle step', () => {
  it(`settles a ledger payment in at most ${SETTLE_ROUND_TRIPS} round trips, and a retry captures and logs nothing twice`, async () => {
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const intentId = await heldPayment(agentId, 5_000_000n);

    const sent = await settleCounted(intentId);
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(SETTLE_ROUND_TRIPS);
    expect(sent[0]).toBe('BEGIN');
    expect(sent[1]).toContain('"purser_capture_payment"(');
    expect(sent[sent.length - 1]).toBe('COMMIT');

    expect(await balanceOf(agentId)).toBe(95_000_000n);
    expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).toEqual({ status: 'settled' });
    const ledger = await prisma.ledgerTransaction.findMany({ where: { paymentIntentId: intentId }, orderBy: { type: 'asc' }, select: { type: true } });
    expect(ledger.map((row) => row.type)).toEqual(['payment_capture', 'payment_hold']);
    expect(await prisma.agentTransaction.findMany({ where: { paymentIntentId: intentId }, select: { type: true, status: true, amount: true } })).toEqual([
      { type: 'payment', status: 'completed', amount: 5_000_000n },
    ]);
    expect(await auditActions(intentId)).toEqual(expect.arrayContaining(['payment_intent.settled', 'payment_intent.workflow_completed']));
    const audited = await prisma.auditEvent.findFirstOrThrow({ where: { subject: `payment_intent:${intentId}`, action: 'payment_intent.settled' }, select: { data: true } });
    expect(audited.data).toEqual({ from: 'processing', to: 'settled', ledger_transaction_id: expect.any(String), payee: 'external' });

    // A worker lost after the commit runs the step again: nothing moves, nothing is logged again.
    const again = await settleCounted(intentId);
    expect(again.length, again.join('\n')).toBeLessThanOrEqual(SETTLE_ROUND_TRIPS);
    expect(await balanceOf(agentId)).toBe(95_000_000n);
    expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId, type: 'payment_capture' } })).toBe(1);
    const actions = await auditActions(intentId);
    expect(actions.filter((action) => action === 'payment_intent.settled')).toHaveLength(1);
    expect(actions.filter((action) => action === 'payment_intent.workflow_completed')).toHaveLength(1);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('pays another agent of the platform in the same round trips, with its history row', async () => {
    const payer = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const payee = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const { walletAddress } = await prisma.agentWallet.findUniqueOrThrow({ where: { agentId: payee }, select: { walletAddress: true } });
    const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId: payer, amount: 2_500_000n, rail: 'ledger', toAddress: walletAddress });
    await authorizePayment({ prisma, rails: createRails({ prisma }), startDeliveries: async () => {}, log: () => {} }, intentId);
    await steps.executeOnRail(intentId);

    const sent = await settleCounted(intentId);
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(SETTLE_ROUND_TRIPS);
    expect(await balanceOf(payer)).toBe(97_500_000n);
    expect(await balanceOf(payee)).toBe(102_500_000n);
    expect(await prisma.agentTransaction.findMany({ where: { agentId: payee, paymentIntentId: intentId }, select: { type: true, status: true, amount: true, metadata: true } })).toEqual([
      { type: 'payment_received', status: 'completed', amount: 2_500_000n, metadata: { payment_intent_id: intentId, from_agent_id: payer } },
    ]);
    const audited = await prisma.auditEvent.findFirstOrThrow({ where: { subject: `payment_intent:${intentId}`, action: 'payment_intent.settled' }, select: { data: true } });
    expect(audited.data).toMatchObject({ payee: `agent:${payee}` });
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('captures what the chain moved, returns the rest and alerts the budget, with the events first, in the same round trips', async () => {
    const settlementEndpoint = ((await api('POST', '/api/v1/webhooks', { url: 'https://receiver.example.com/settled', events: ['settlement.completed'] })) as { endpoint: { id: string } }).endpoint.id;
    const budgetEndpoint = ((await api('POST', '/api/v1/webhooks', { url: 'https://receiver.example.com/budgets', events: ['budget.threshold'] })) as { endpoint: { id: string } }).endpoint.id;
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 10 });
    const intentId = await heldPayment(agentId, 9_000_000n);
    const transactionHash = `0x${'ab'.repeat(32)}`;
    await settledOnChain(intentId, { scheme: 'upto', network: 'eip155:84532', transactionHash, payer: '0x00000000000000000000000000000000000000aa', capturedAmount: '8500000' });

    const before = started.length;
    const sent = await settleCounted(intentId);
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(SETTLE_ROUND_TRIPS);

    // 8.5 paid out of the 9 held; the 0.5 left goes back to the agent in the same ledger transaction.
    expect(await balanceOf(agentId)).toBe(91_500_000n);
    const capture = await prisma.ledgerTransaction.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'payment_capture' }, select: { entries: { select: { amount: true } } } });
    expect(capture.entries.map((entry) => entry.amount).sort()).toEqual([-9_000_000n, 500_000n, 8_500_000n].sort());
    expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, status: true } })).toEqual({ amount: 8_500_000n, status: 'settled' });
    const [history] = await prisma.agentTransaction.findMany({ where: { paymentIntentId: intentId, agentId }, select: { amount: true, status: true, metadata: true } });
    expect(history).toMatchObject({ amount: 8_500_000n, status: 'completed', metadata: { network: 'eip155:84532', transaction_hash: transactionHash, payer: '0x00000000000000000000000000000000000000aa' } });
    const audited = await prisma.auditEvent.findFirstOrThrow({ where: { subject: `payment_intent:${intentId}`, action: 'payment_intent.settled' }, select: { data: true } });
    expect(audited.data).toMatchObject({ held: '9000000', paid: '8500000', returned: '500000' });

    // The settlement event carries the intent as toIntentView writes it, settled.
    const event = await prisma.paymentEvent.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'settlement.completed' }, select: { id: true, payload: true, createdAt: true } });
    const row = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect });
    expect(event.payload).toEqual({ id: event.id, type: 'settlement.completed', createdAt: event.createdAt.toISOString(), data: { intent: asJson(toIntentView(row)) } });

    // 85 percent of the daily limit: the 80 percent alert, delivered to the endpoint that asked.
    const alerts = await prisma.budgetAlert.findMany({ where: { agentId }, select: { id: true, threshold: true, spent: true, limit: true } });
    expect(alerts).toEqual([{ id: expect.any(String), threshold: 80, spent: 8_500_000n, limit: 10_000_000n }]);
    const settlementDeliveries = await prisma.webhookDelivery.findMany({ where: { eventId: event.id }, select: { id: true, endpointId: true } });
    const alertDeliveries = await prisma.webhookDelivery.findMany({ where: { eventId: alerts[0]!.id }, select: { id: true, endpointId: true } });
    expect(settlementDeliveries.map((delivery) => delivery.endpointId)).toEqual([settlementEndpoint]);
    expect(alertDeliveries.map((delivery) => delivery.endpointId)).toEqual([budgetEndpoint]);
    // Started after the commit, the settlement's first: a receiver hears of the payment before the budget it used.
    expect(started.slice(before)).toEqual([settlementDeliveries[0]!.id, alertDeliveries[0]!.id]);

    // Again: the same deliveries, nothing new.
    const again = started.length;
    await settleCounted(intentId);
    expect(started.slice(again)).toEqual([settlementDeliveries[0]!.id, alertDeliveries[0]!.id]);
    expect(await prisma.budgetAlert.count({ where: { agentId } })).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { eventId: { in: [event.id, alerts[0]!.id] } } })).toBe(2);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('refuses a settlement the hold cannot match, moving nothing and keeping the funds held', async () => {
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const tooMuch = await heldPayment(agentId, 1_000_000n);
    await settledOnChain(tooMuch, { scheme: 'upto', network: 'eip155:84532', capturedAmount: '1000001' });
    const unmatched = await heldPayment(agentId, 1_000_000n);
    await settledOnChain(unmatched, { scheme: 'exact', network: 'eip155:84532', captureInvariant: 'the transfer found pays another address' });

    await expect(steps.settle(tooMuch, STEPS)).rejects.toMatchObject({ code: 'CAPTURE_INVARIANT', message: `Payment intent ${tooMuch}: the chain moved 1000001, outside the held 1000000` });
    await expect(steps.settle(unmatched, STEPS)).rejects.toMatchObject({ code: 'CAPTURE_INVARIANT', message: `Payment intent ${unmatched}: the transfer found pays another address` });
    for (const intentId of [tooMuch, unmatched]) {
      expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, settledAt: true } })).toEqual({ status: 'processing', settledAt: null });
      expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId, type: 'payment_capture' } })).toBe(0);
      expect(await prisma.paymentEvent.count({ where: { paymentIntentId: intentId, type: 'settlement.completed' } })).toBe(0);
    }
    expect(await balanceOf(agentId)).toBe(98_000_000n);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('refuses to capture an intent that holds nothing', async () => {
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 1_000_000n, rail: 'ledger', status: 'approved' });
    await expect(steps.settle(intentId, STEPS)).rejects.toThrow(`Cannot capture payment intent ${intentId}: it is approved`);
    expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId } })).toBe(0);
  });
});

describe('the one-step end of a payment authorised in the request', () => {
  const end = [{ step: 'capture' as const, status: 'completed' as const, at: new Date().toISOString() }];

  it('settles once its operation has settled, in the same round trips, listing the steps the request took', async () => {
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const intentId = await heldPayment(agentId, 1_000_000n);
    await settledOnChain(intentId, { scheme: 'exact', network: 'eip155:84532' });
    const reference = (await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { reference: true } })).reference;

    const { result: recorded, statements } = await roundTrips(() => steps.settlePaidInRequest(intentId, end));
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(SETTLE_ROUND_TRIPS);
    expect(recorded?.map((step) => `${step.step}:${step.status}:${step.detail ?? ''}`)).toEqual([
      'intent.created:completed:',
      'policy_gate:completed:allow',
      'approval:skipped:not required',
      'intent.approved:completed:',
      'rail_selection:completed:ledger (sandbox)', // the operation settledOnChain wrote is a sandbox's
      'reserve:completed:',
      `execute:completed:${reference}`,
      'capture:completed:',
    ]);
    const audited = await prisma.auditEvent.findFirstOrThrow({ where: { subject: `payment_intent:${intentId}`, action: 'payment_intent.workflow_completed' }, select: { data: true } });
    expect((audited.data as { steps: unknown[] }).steps).toHaveLength(8);
    expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).toEqual({ status: 'settled' });

    // Run again (a worker lost after the commit): the same steps, nothing captured or logged twice.
    expect((await steps.settlePaidInRequest(intentId, end))?.length).toBe(8);
    expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId, type: 'payment_capture' } })).toBe(1);
    expect(await prisma.auditEvent.count({ where: { subject: `payment_intent:${intentId}`, action: 'payment_intent.workflow_completed' } })).toBe(1);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('answers null and writes nothing while the operation is pending, or when the request held nothing', async () => {
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const pending = await heldPayment(agentId, 1_000_000n);
    await prisma.railOperation.updateMany({ where: { paymentIntentId: pending }, data: { status: 'pending', settledAt: null } });
    const waiting = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 1_000_000n, rail: 'ledger', status: 'pending_approval' });

    for (const intentId of [pending, waiting]) {
      const { result, statements } = await roundTrips(() => steps.settlePaidInRequest(intentId, end));
      expect(result).toBeNull();
      expect(statements).toHaveLength(3); // BEGIN, the capture that finds nothing to do, COMMIT
      expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId, type: 'payment_capture' } })).toBe(0);
      expect(await prisma.paymentEvent.count({ where: { paymentIntentId: intentId, type: 'settlement.completed' } })).toBe(0);
      expect(await prisma.auditEvent.count({ where: { subject: `payment_intent:${intentId}`, action: { in: ['payment_intent.settled', 'payment_intent.workflow_completed'] } } })).toBe(0);
    }
    expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: pending }, select: { status: true } })).toEqual({ status: 'processing' });
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });
});

describe('payment events', () => {
  it('are emitted in one statement, and emitting again reuses the event and its deliveries', async () => {
    const endpoint = ((await api('POST', '/api/v1/webhooks', { url: 'https://receiver.example.com/created', events: ['intent.created'] })) as { endpoint: { id: string } }).endpoint.id;
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 1_000_000n });
    const intent = toIntentView(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect }));
    const emit = () => roundTrips(() => prisma.$transaction((tx) => emitPaymentEvent(tx, { ownerId: owner.userId, intentId, type: 'intent.created', intent })));

    const first = await emit();
    expect(first.statements).toHaveLength(3); // BEGIN, the event, COMMIT
    const deliveries = await prisma.webhookDelivery.findMany({ where: { eventId: first.result.eventId }, select: { id: true, endpointId: true, payload: true } });
    expect(deliveries.map((delivery) => delivery.endpointId)).toEqual([endpoint]);
    expect(first.result.deliveryIds).toEqual(deliveries.map((delivery) => delivery.id));
    expect(deliveries[0]!.payload).toEqual({ id: first.result.eventId, type: 'intent.created', createdAt: expect.any(String), data: { intent: asJson(intent) } });

    const second = await emit();
    expect(second.statements).toHaveLength(3);
    expect(second.result).toEqual(first.result);
    expect(await prisma.paymentEvent.count({ where: { paymentIntentId: intentId } })).toBe(1);
  });
});

describe("the database's view of an intent", () => {
  it('is the one toIntentView writes, for intents of every kind', async () => {
    const agentId = await fundedAgent({ max_transaction_amount: 50, max_daily_limit: 1000 });
    const decision = {
      decision: 'require_approval',
      fired: [
        { rule: 'approvalThreshold', outcome: 'require_approval', code: 'APPROVAL_THRESHOLD_EXCEEDED', message: 'Above the threshold', shadow: false },
        { rule: 'allowedMerchants', outcome: 'deny', code: 'MERCHANT_NOT_ALLOWED', message: 'Not listed', policyId: randomUUID(), shadow: true },
      ],
      shadow: [{ policyId: randomUUID(), name: 'Trial', version: 2, decision: 'deny' }],
      timeBoxMs: 60_000,
      evaluatedAt: new Date().toISOString(),
    };
    const requirement = { scheme: 'exact', network: 'eip155:84532', amount: '10000' };
    const kinds: Array<Partial<Prisma.PaymentIntentUncheckedCreateInput>> = [
      {},
      { rail: 'x402_base', metadata: { x402: { requirement, protocol: 'mpp' }, url: 'https://seller.example.com/paid' }, merchant: 'seller.example.com', amount: 10_000n },
      { rail: 'x402_base', metadata: { x402: { requirement } } },
      { rail: 'x402_base', metadata: { x402: { protocol: 'mpp' } } },
      { rail: 'card', status: 'failed', failureCode: 'PAYMENT_DECLINED', failureMessage: 'declined', category: 'compute', geography: 'PT', kyaTier: 'moderate' },
      { status: 'pending_approval', policyDecision: decision, expiresAt: new Date(Date.now() + 60_000), amount: 123_456_789n, purpose: 'a "quoted" purpose', toAddress: '0xabc' },
      { policyDecision: { ...decision, fired: [{ rule: 'x', outcome: 'maybe' }] } },
      { status: 'settled', reservedAt: new Date(Date.now() - 5_000), settledAt: new Date(), amount: 1n },
    ];
    for (const kind of kinds) {
      const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, rail: 'ledger' });
      await prisma.paymentIntent.update({ where: { id: intentId }, data: kind as Prisma.PaymentIntentUncheckedUpdateInput });
      if (kind.status === 'pending_approval') {
        await prisma.approval.create({ data: { paymentIntentId: intentId, expiresAt: new Date(Date.now() + 60_000), reason: 'too much', decidedAt: new Date(), status: 'approved' } });
      }
      const [viewed] = await prisma.$queryRaw<{ view: unknown }[]>`SELECT "purser_intent_view"(${intentId}::uuid) AS "view"`;
      const row = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect });
      expect(viewed?.view).toEqual(asJson(toIntentView(row)));
    }
  });
});

/** As a JSON body carries it: what is undefined left out. */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
