/**
 * authorizePayment, the front of a payment in one transaction, called directly on a real
 * database (both engines): it holds the funds, records the gate's decision, the transitions,
 * their audit entries and the events at once, and changes nothing when run again; every other
 * outcome (approval needed, a denial, no rail, too little money, a suspended agent) is recorded
 * whole in that one transaction too, and an intent no longer at the front is left as it was;
 * after the owner's approval it runs the gate again and holds; a burst of one agent's payments
 * authorized at once never passes its daily limit; and settle, the end of such a payment,
 * captures, emits and audits in one transaction, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { authorizePayment, type AuthorizeDeps } from '../src/services/payments/authorize-payment';
import { createPaymentSteps } from '../src/services/payments/payment-steps';
import { createRails } from '../src/services/rails/create-rails';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { insertIntentRow } from './support/intent-rows';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let deps: AuthorizeDeps;
const started: string[][] = [];

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  const topUp = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: owner.headers, payload: { amount: 10_000 } });
  expect(topUp.statusCode).toBe(200);
  // An endpoint for every payment event: the events' deliveries must be started after the commit.
  const endpoint = await t.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: owner.headers,
    payload: { url: 'https://receiver.example.com/purser', events: ['intent.created', 'intent.approved'] },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  deps = { prisma, rails: createRails({ prisma }), startDeliveries: async (ids) => void started.push(ids), log: () => {} };
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

async function api(method: 'POST' | 'PATCH', url: string, payload: object) {
  const response = await t.app.inject({ method, url, headers: owner.headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as Record<string, unknown>;
}

async function fundedAgent(fund: number, rules: { max_transaction_amount?: number; max_daily_limit?: number; approval_threshold?: number } = {}): Promise<string> {
  const { approval_threshold, ...limits } = rules;
  const created = (await api('POST', '/api/v1/agents', { name: 'Payer', max_transaction_amount: 100, max_daily_limit: 1000, ...limits })) as { agent: { id: string } };
  const agentId = created.agent.id;
  if (approval_threshold !== undefined) await api('PATCH', `/api/v1/agents/${agentId}/spending-rules`, { approval_threshold });
  await api('POST', '/api/v1/wallet/fund-agent', { agent_id: agentId, amount: fund });
  return agentId;
}

/** A new intent, as createIntent leaves it for its workflow. */
function createdIntent(agentId: string, amount: bigint, rail: 'ledger' | 'x402_base' = 'ledger'): Promise<string> {
  return insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount, rail });
}

/** Everything authorize may write about an intent, to compare before and after. */
async function footprint(intentId: string) {
  const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, reservedAt: true, policyDecision: true, agentId: true } });
  const [ledger, events, audit, payments] = await Promise.all([
    prisma.ledgerTransaction.findMany({ where: { paymentIntentId: intentId }, select: { type: true } }),
    prisma.paymentEvent.findMany({ where: { paymentIntentId: intentId }, orderBy: { type: 'asc' }, select: { id: true, type: true } }),
    prisma.auditEvent.findMany({ where: { subject: `payment_intent:${intentId}` }, orderBy: { seq: 'asc' }, select: { action: true } }),
    prisma.agentTransaction.count({ where: { paymentIntentId: intentId } }),
  ]);
  const deliveries = await prisma.webhookDelivery.count({ where: { eventId: { in: events.map((event) => event.id) } } });
  const wallet = await prisma.agentWallet.findUniqueOrThrow({ where: { agentId: intent.agentId }, select: { balanceUsdc: true } });
  return {
    status: intent.status,
    reserved: intent.reservedAt !== null,
    decision: (intent.policyDecision as { decision?: string } | null)?.decision ?? null,
    ledger: ledger.map((row) => row.type).sort(),
    events: events.map((row) => row.type),
    audit: audit.map((row) => row.action),
    payments,
    deliveries,
    balance: wallet.balanceUsdc,
  };
}

describe('authorize', () => {
  it('holds the funds and records decision, transitions, audit and events in one go, and changes nothing when run again', async () => {
    const agentId = await fundedAgent(50);
    const intentId = await createdIntent(agentId, 12_000_000n);
    started.length = 0;

    const outcome = await authorizePayment(deps, intentId);

    expect(outcome).toMatchObject({ outcome: 'authorized', rail: 'ledger', sandbox: false, decision: { decision: 'allow' } });
    const after = await footprint(intentId);
    expect(after).toEqual({
      status: 'processing',
      reserved: true,
      decision: 'allow',
      ledger: ['payment_hold'],
      events: ['intent.approved', 'intent.created'],
      audit: ['payment_intent.approved', 'payment_intent.processing'],
      payments: 1,
      deliveries: 2,
      balance: 38_000_000n,
    });
    // Both events' deliveries are started, after the commit.
    expect(started.flat()).toHaveLength(2);
    const createdEvent = await prisma.paymentEvent.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'intent.created' }, select: { payload: true } });
    expect(createdEvent.payload).toMatchObject({ type: 'intent.created', data: { intent: { id: intentId, status: 'created' } } });
    const approvedEvent = await prisma.paymentEvent.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'intent.approved' }, select: { payload: true } });
    expect(approvedEvent.payload).toMatchObject({ type: 'intent.approved', data: { intent: { id: intentId, status: 'approved' } } });

    // A worker lost after the commit runs it again: the same answer, nothing new.
    started.length = 0;
    expect(await authorizePayment(deps, intentId)).toMatchObject({ outcome: 'authorized', rail: 'ledger', decision: { decision: 'allow' } });
    expect(await footprint(intentId)).toEqual(after);
    expect(started.flat()).toHaveLength(2);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  type Case = { name: string; intentOf: (agentId: string) => Promise<string>; agent: Parameters<typeof fundedAgent>; outcome: object; after: object };
  const recorded: Case[] = [
    {
      name: 'one that needs the owner’s approval: pending, its approval open',
      intentOf: (agentId) => createdIntent(agentId, 20_000_000n),
      agent: [100, { approval_threshold: 10 }],
      outcome: { outcome: 'needs_approval', decision: { decision: 'require_approval' } },
      after: { status: 'pending_approval', decision: 'require_approval', events: ['intent.created'], audit: ['payment_intent.pending_approval'], deliveries: 1 },
    },
    {
      name: 'one the spending rules deny: blocked, policy.violation emitted',
      intentOf: (agentId) => createdIntent(agentId, 20_000_000n),
      agent: [100, { max_transaction_amount: 10 }],
      outcome: { outcome: 'refused', status: 'blocked', at: 'policy_gate', failure: { code: 'MAX_PER_TRANSACTION_EXCEEDED' } },
      after: { status: 'blocked', decision: 'deny', events: ['intent.created', 'policy.violation'], audit: ['payment_intent.blocked'], deliveries: 1 },
    },
    {
      name: 'one the balance does not cover: failed at the reserve',
      intentOf: (agentId) => createdIntent(agentId, 20_000_000n),
      agent: [15],
      outcome: { outcome: 'refused', status: 'failed', at: 'reserve', rail: { rail: 'ledger', sandbox: false }, failure: { code: 'INSUFFICIENT_FUNDS', message: 'Insufficient balance' } },
      after: { status: 'failed', decision: 'allow', events: ['intent.approved', 'intent.created'], audit: ['payment_intent.approved', 'payment_intent.failed'], deliveries: 2 },
    },
    {
      name: 'one its rail cannot carry: failed at the rail',
      intentOf: (agentId) => createdIntent(agentId, 2_000_000n, 'x402_base'),
      agent: [100],
      outcome: { outcome: 'refused', status: 'failed', at: 'rail_selection', rail: null, failure: { code: 'RAIL_UNAVAILABLE' } },
      after: { status: 'failed', decision: 'allow', events: ['intent.approved', 'intent.created'], audit: ['payment_intent.approved', 'payment_intent.failed'], deliveries: 2 },
    },
    {
      name: 'one of a suspended agent: failed at the reserve',
      intentOf: async (agentId) => {
        const id = await createdIntent(agentId, 2_000_000n);
        await api('POST', `/api/v1/agents/${agentId}/suspend`, {});
        return id;
      },
      agent: [100],
      outcome: { outcome: 'refused', status: 'failed', at: 'reserve', failure: { code: 'AGENT_SUSPENDED' } },
      after: { status: 'failed', decision: 'allow', events: ['intent.approved', 'intent.created'], audit: ['payment_intent.approved', 'payment_intent.failed'], deliveries: 2 },
    },
  ];

  it.each(recorded)('records $name, in one transaction, moving no money', async ({ intentOf, agent, outcome, after }) => {
    const agentId = await fundedAgent(...agent);
    const intentId = await intentOf(agentId);
    const before = await footprint(intentId);
    started.length = 0;

    expect(await authorizePayment(deps, intentId)).toMatchObject(outcome);

    const footprintAfter = await footprint(intentId);
    expect(footprintAfter).toEqual({ ...before, reserved: false, ledger: [], payments: 0, ...after });
    expect(footprintAfter.balance).toBe(before.balance);
    // The deliveries of what it emitted are started, after the commit.
    expect(started.flat()).toHaveLength(footprintAfter.deliveries);
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { failureCode: true, approval: { select: { status: true } } } });
    if ('failure' in outcome) expect(intent.failureCode).toBe((outcome.failure as { code: string }).code);
    expect(intent.approval?.status ?? null).toBe(footprintAfter.status === 'pending_approval' ? 'pending' : null);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('leaves an intent no longer at the front (cancelled) exactly as it was', async () => {
    const agentId = await fundedAgent(100);
    const intentId = await createdIntent(agentId, 2_000_000n);
    await prisma.paymentIntent.update({ where: { id: intentId }, data: { status: 'cancelled' } });
    const before = await footprint(intentId);
    started.length = 0;

    expect(await authorizePayment(deps, intentId)).toEqual({ outcome: 'ended', status: 'cancelled' });

    expect(await footprint(intentId)).toEqual(before);
    expect(started.flat()).toEqual([]);
  });

  it('holds a payment once its owner approved it, evaluating the gate again; an unapproved one goes back to waiting', async () => {
    const agentId = await fundedAgent(100, { approval_threshold: 10 });
    const intentId = await createdIntent(agentId, 20_000_000n);
    const waiting = await authorizePayment(deps, intentId);
    expect(waiting).toMatchObject({ outcome: 'needs_approval' });
    // Run again while it waits (a policy changed): the same answer, the same deadline.
    expect(await authorizePayment(deps, intentId)).toEqual({ ...waiting, decision: expect.objectContaining({ decision: 'require_approval' }) });

    await api('POST', `/api/v1/intents/${intentId}/approve`, { reason: 'fine' });
    started.length = 0;
    expect(await authorizePayment(deps, intentId)).toMatchObject({ outcome: 'authorized', rail: 'ledger', decision: { decision: 'require_approval' } });
    expect(await footprint(intentId)).toMatchObject({
      status: 'processing',
      reserved: true,
      ledger: ['payment_hold'],
      events: ['intent.approved', 'intent.created'],
      audit: ['payment_intent.pending_approval', 'payment_intent.approved', 'payment_intent.processing'],
      balance: 80_000_000n,
    });
    expect(started.flat()).toHaveLength(1);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('settles in one transaction after it (capture, settlement.completed, the audit entry), once however often it runs', async () => {
    const agentId = await fundedAgent(50);
    const intentId = await createdIntent(agentId, 7_000_000n);
    // No endpoint wants settlement.completed, so settle starts no delivery (this suite has no Temporal).
    const steps = createPaymentSteps({ db: t.deps.db, temporal: t.deps.temporal, logger: t.deps.logger, rails: deps.rails });
    expect(await authorizePayment(deps, intentId)).toMatchObject({ outcome: 'authorized' });
    expect(await steps.executeOnRail(intentId)).toMatchObject({ rail: 'ledger', status: 'settled' });
    const audited = [{ step: 'capture' as const, status: 'completed' as const, at: new Date().toISOString() }];

    await steps.settle(intentId, audited);

    const after = await footprint(intentId);
    expect(after).toMatchObject({
      status: 'settled',
      ledger: ['payment_capture', 'payment_hold'],
      events: ['intent.approved', 'intent.created', 'settlement.completed'],
      audit: ['payment_intent.approved', 'payment_intent.processing', 'payment_intent.settled', 'payment_intent.workflow_completed'],
      balance: 43_000_000n,
    });
    const entry = await prisma.auditEvent.findFirstOrThrow({ where: { subject: `payment_intent:${intentId}`, action: 'payment_intent.workflow_completed' }, select: { data: true } });
    expect(entry.data).toMatchObject({ status: 'settled', steps: [{ step: 'capture', status: 'completed' }] });
    const settledEvent = await prisma.paymentEvent.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'settlement.completed' }, select: { payload: true } });
    expect(settledEvent.payload).toMatchObject({ data: { intent: { id: intentId, status: 'settled' } } });

    // A worker lost after the commit runs it again: nothing moves or is written twice.
    await steps.settle(intentId, audited);
    expect(await footprint(intentId)).toEqual(after);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('authorizes a burst of one agent’s payments under its wallet lock: never past the daily limit', async () => {
    const agentId = await fundedAgent(500, { max_daily_limit: 50 });
    const intents = await Promise.all(Array.from({ length: 12 }, () => createdIntent(agentId, 10_000_000n)));

    const outcomes = await Promise.all(intents.map((id) => authorizePayment(deps, id)));

    expect(outcomes.filter((outcome) => outcome.outcome === 'authorized')).toHaveLength(5);
    const statuses = await prisma.paymentIntent.groupBy({ by: ['status'], where: { agentId }, _count: true });
    expect(Object.fromEntries(statuses.map((row) => [row.status, row._count]))).toEqual({ processing: 5, blocked: 7 });
    expect((await footprint(intents[0]!)).balance).toBe(450_000_000n);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });
});
