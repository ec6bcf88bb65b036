/**
 * The front of a new payment in two statements (payments/authorize-new-payment.ts, the hot path
 * of a paid call), on a real database (both engines):
 * - it writes the same rows as the general front (authorize-payment.ts) does for the same payment:
 *   the intent processing with its decision, both events and their deliveries, the hold, the
 *   agent's pending payment, the outbox row, the audit entries (whose chain still verifies);
 * - its transaction is BEGIN, one statement of locks and inputs, one of writes, COMMIT: counted,
 *   so a statement added to it fails here;
 * - what it cannot take at once (above the approval threshold, denied, short of money) it leaves
 *   to the general front, having written nothing;
 * - a burst of one agent's payments at once never passes its daily limit (the usage is read under
 *   the wallet's lock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, type PrismaClient, type TransactionClient } from '@purser/db';
import type { CreateIntentInput } from '@purser/core';
import { withAuditRetry } from '../src/services/audit/append-audit-event';
import { verifyAuditChains } from '../src/services/audit/verify-audit-chains';
import { insertIntent, prepareIntent, type PreparedIntent } from '../src/services/intents/create-intent';
import { addToOutbox } from '../src/services/intents/workflow-outbox';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { authorizedAtOnce, readNewPaymentInputs, writeAuthorizedPayment } from '../src/services/payments/authorize-new-payment';
import { authorizeInTransaction } from '../src/services/payments/authorize-payment';
import { createRails } from '../src/services/rails/create-rails';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let ledger: ReturnType<typeof createRails>['ledger'];

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  await api('POST', '/api/v1/wallet/top-up', { amount: 10_000 });
  // Deliveries for both events of a payment that goes through.
  await api('POST', '/api/v1/webhooks', { url: 'https://receiver.example.com/purser', events: ['intent.created', 'intent.approved', 'policy.violation'] });
  ledger = createRails({ prisma }).ledger;
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
  if (approval_threshold !== undefined) await api('PATCH', `/api/v1/agents/${created.agent.id}/spending-rules`, { approval_threshold });
  await api('POST', '/api/v1/wallet/fund-agent', { agent_id: created.agent.id, amount: fund });
  return created.agent.id;
}

function paymentOf(agentId: string, amount: bigint): CreateIntentInput {
  return { agentId, amount, currency: 'USDC', purpose: 'Weather for Porto', merchant: 'weather.example', toAddress: '0x1111111111111111111111111111111111111111', category: 'api', rail: 'ledger', maxRetries: 2, metadata: { url: 'https://weather.example/porto' } };
}

async function prepared(agentId: string, amount: bigint): Promise<PreparedIntent> {
  const ready = await prepareIntent(t.deps, { ownerId: owner.userId, createdBy: 'agent', agentId }, paymentOf(agentId, amount));
  if (!('prepared' in ready)) throw new Error('expected a new intent');
  return ready.prepared;
}

/** The two-statement front, as pay-in-request.ts runs it; null when it left the payment to the general front. */
async function payAtOnce(tx: TransactionClient, intent: PreparedIntent): Promise<string[] | null> {
  const inputs = await readNewPaymentInputs(tx, intent);
  const atOnce = await authorizedAtOnce(intent, inputs, ledger);
  return atOnce && writeAuthorizedPayment(tx, intent, inputs, atOnce, null, () => {});
}

/** The general front for the same new payment, as pay-in-request.ts falls back to it. */
async function payThroughGeneralFront(tx: TransactionClient, intent: PreparedIntent) {
  await insertIntent(tx, intent);
  const { outcome, deliveryIds } = await authorizeInTransaction(tx, { ledger }, () => {}, intent.intentId);
  await addToOutbox(tx, { id: intent.intentId, maxRetries: intent.input.maxRetries }, deliveryIds);
  return outcome;
}

/** Every row a front writes for an intent, with what differs between two payments (ids, times) taken out. */
async function rowsOf(intentId: string) {
  const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId } });
  const events = await prisma.paymentEvent.findMany({ where: { paymentIntentId: intentId }, orderBy: { type: 'asc' } });
  const deliveries = await prisma.webhookDelivery.findMany({ where: { eventId: { in: events.map((event) => event.id) } }, orderBy: { eventType: 'asc' } });
  const audit = await prisma.auditEvent.findMany({ where: { subject: `payment_intent:${intentId}` }, orderBy: { seq: 'asc' } });
  const holds = await prisma.ledgerTransaction.findMany({ where: { paymentIntentId: intentId }, include: { entries: { orderBy: { amount: 'asc' } } } });
  const payments = await prisma.agentTransaction.findMany({ where: { paymentIntentId: intentId } });
  const outbox = await prisma.paymentWorkflowOutbox.findUniqueOrThrow({ where: { paymentIntentId: intentId } });
  const { agentId } = intent;
  const anonymous = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))
        .replaceAll(intentId, '<intent>')
        .replaceAll(agentId, '<agent>')
        .replace(/"evaluatedAt":"[^"]+"/g, '"evaluatedAt":"<at>"')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<at>'),
    ) as unknown;
  return anonymous({
    intent: { ...intent, id: '<intent>', workflowId: 'workflow', idempotencyKey: 'key', requestHash: 'hash' },
    events: events.map(({ id, payload, createdAt: _at, ...event }) => ({ ...event, payload: { ...(payload as object), id: payload && id === (payload as { id: string }).id ? '<event>' : 'mismatch' } })),
    deliveries: deliveries.map((delivery) => ({ eventType: delivery.eventType, status: delivery.status, attempts: delivery.attempts })),
    audit: audit.map(({ action, actor, ownerId, chainId, data }) => ({
      action,
      actor,
      ownerId,
      chainId,
      data: { ...(data as object), ...((data as { ledger_transaction_id?: string }).ledger_transaction_id ? { ledger_transaction_id: holds[0]?.id === (data as { ledger_transaction_id: string }).ledger_transaction_id ? '<hold>' : 'mismatch' } : {}) },
    })),
    holds: holds.map(({ type, description, entries }) => ({ type, description, amounts: entries.map((entry) => entry.amount.toString()) })),
    payments: payments.map(({ id: _id, createdAt: _at, ledgerTransactionId, ...payment }) => ({ ...payment, ledgerTransactionId: ledgerTransactionId === holds[0]?.id ? '<hold>' : 'mismatch' })),
    outbox: { maxRetries: outbox.maxRetries, deliveries: outbox.webhookDeliveryIds.length, deliveriesMatch: [...outbox.webhookDeliveryIds].sort().join() === deliveries.map((delivery) => delivery.id).sort().join() },
  });
}

describe('a new payment that goes through', () => {
  it('is written as the general front writes it, in BEGIN, two statements and COMMIT', async () => {
    const [fast, general] = [await fundedAgent(50), await fundedAgent(50)];
    const [fastIntent, generalIntent] = [await prepared(fast, 12_000_000n), await prepared(general, 12_000_000n)];

    const { result: deliveries, statements } = await countStatements(() => withAuditRetry(prisma, (tx) => payAtOnce(tx, fastIntent)));
    // PGlite runs its deferred checks just before COMMIT (@purser/db's adapter): in its own process, no round trip.
    const checks = t.deps.db.kind === 'pglite' ? ['SET CONSTRAINTS ALL IMMEDIATE'] : [];
    expect(statements.map((sql) => /purser_pay_front_\w+|BEGIN|COMMIT/.exec(sql)?.[0] ?? sql)).toEqual(['BEGIN', 'purser_pay_front_inputs', 'purser_pay_front_authorized', ...checks, 'COMMIT']);
    expect(deliveries).toHaveLength(2);
    expect(await withAuditRetry(prisma, (tx) => payThroughGeneralFront(tx, generalIntent))).toMatchObject({ outcome: 'authorized' });

    const written = await rowsOf(fastIntent.intentId);
    expect(written).toEqual(await rowsOf(generalIntent.intentId));
    expect(written).toMatchObject({ intent: { status: 'processing' }, holds: [{ type: 'payment_hold', amounts: ['-12000000', '12000000'] }], deliveries: [{ eventType: 'intent.approved' }, { eventType: 'intent.created' }] });
    expect(JSON.stringify(written)).not.toContain('mismatch');
    for (const agentId of [fast, general]) {
      expect((await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } })).balanceUsdc).toBe(38_000_000n);
    }
    expect((await verifyLedger(prisma)).problems).toEqual([]);
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
  });
});

describe('a new payment the front cannot take at once', () => {
  it.each([
    ['above the approval threshold', [100, { approval_threshold: 10 }], 20_000_000n],
    ['denied by the spending rules', [100, { max_transaction_amount: 10 }], 20_000_000n],
    ['short of money', [5, {}], 20_000_000n],
  ] as const)('%s: left to the general front, nothing written', async (_name, agent, amount) => {
    const agentId = await fundedAgent(...(agent as [number, object]));
    const intent = await prepared(agentId, amount);
    expect(await withAuditRetry(prisma, (tx) => payAtOnce(tx, intent))).toBeNull();
    expect(await prisma.paymentIntent.count({ where: { id: intent.intentId } })).toBe(0);
    expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intent.intentId } })).toBe(0);
  });
});

describe('a burst of one agent’s payments', () => {
  it('never passes its daily limit: each payment sees the ones before it', async () => {
    const agentId = await fundedAgent(100, { max_daily_limit: 5 });
    const intents = await Promise.all(Array.from({ length: 12 }, () => prepared(agentId, 1_000_000n)));
    const outcomes = await Promise.all(
      intents.map((intent) =>
        withAuditRetry(prisma, async (tx) => ((await payAtOnce(tx, intent)) !== null ? 'at once' : (await payThroughGeneralFront(tx, intent)).outcome)),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'at once')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome !== 'at once').every((outcome) => outcome === 'refused')).toBe(true);
    const held = await prisma.paymentIntent.aggregate({ where: { agentId, reservedAt: { not: null } }, _sum: { amount: true } });
    expect(held._sum.amount).toBe(5_000_000n);
    expect((await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } })).balanceUsdc).toBe(95_000_000n);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });
});
