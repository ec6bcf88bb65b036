/**
 * The server side of the console's payment pages, on a real database (both engines): the
 * payment list's filters, search and keyset cursor (REST and tRPC), the approvals badge's
 * count, one payment in full (intents.detail and GET /api/v1/intents/{id}/detail), and a
 * payment's live flow (realtime.intentProgress). No workflow runs here: a stand-in Temporal
 * client answers the progress query and the workflow's close as each test sets them.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INTENT_CURSOR_MESSAGE,
  parseAmount,
  type IntentListView,
  type IntentProgressView,
  type IntentStatus,
  type PaymentDetailView,
} from '@purser/core';
import type { Prisma, PrismaClient } from '@purser/db';
import { DEFAULT_WEBHOOK_RETRY, type PaymentProgress } from '@purser/workflows';
import { appendAuditEvent } from '../src/services/audit/append-audit-event';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { getIntent } from '../src/services/intents/get-intent';
import { capturePayment } from '../src/services/payments/settle-payment';
import { authorizePayment } from '../src/services/payments/authorize-payment';
import { createRails } from '../src/services/rails/create-rails';
import { emitPaymentEvent } from '../src/services/webhooks/emit-payment-event';
import { decodePaymentHeader, exactPayload } from '../src/services/paid-calls/x402/payment-header';
import { priceRequirement } from '../src/services/paid-calls/front/price-requirement';
import { signX402Authorization } from '../src/services/paid-calls/front/signed-headers';
import { intentsRouter } from '../src/trpc/intents/router';
import { realtimeRouter } from '../src/trpc/realtime/router';
import type { TemporalDeps } from '../src/deps';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { chainNotInThisTest, createTestApp, type TestApp } from './support/test-app';

const TEMPORAL_UI = 'http://127.0.0.1:8233/namespaces/default';
const EXPLORER = 'https://sepolia.basescan.org';
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const minutes = (n: number) => new Date(T0 + n * 60_000);

// ---------------------------------------------------------------- a stand-in Temporal

/** What the stand-in answers for a payment's workflow: its progress now, and its close. */
const workflows = new Map<string, { progress: PaymentProgress; close: Promise<PaymentProgress> }>();

function standInTemporal(): TemporalDeps {
  const notFound = (workflowId: string) => new WorkflowNotFoundError('No workflow in this test', workflowId, undefined);
  const workflowOf = (workflowId: string) => workflows.get(workflowId.replace(/^payment-/, ''));
  const client = {
    workflow: {
      getHandle: (workflowId: string) => ({
        query: async () => {
          const workflow = workflowOf(workflowId);
          if (!workflow) throw notFound(workflowId);
          return structuredClone(workflow.progress);
        },
        result: async () => {
          const workflow = workflowOf(workflowId);
          if (!workflow) throw notFound(workflowId);
          return workflow.close;
        },
      }),
    },
    withAbortSignal: <R>(_signal: AbortSignal, fn: () => Promise<R>) => fn(),
  } as unknown as Client;
  return { client, taskQueue: 'unused', webhookRetry: DEFAULT_WEBHOOK_RETRY };
}

// ---------------------------------------------------------------- the app and its owners

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let stranger: SignedUpOwner;

beforeAll(async () => {
  // The deployment's network has a block explorer (as Base Sepolia's has); no chain is called.
  const chain = { info: { ...chainNotInThisTest().info, explorerUrl: EXPLORER } } as EvmChain;
  t = await createTestApp({ temporal: standInTemporal(), chain, sandboxPaidApi: false, temporalUiUrl: TEMPORAL_UI });
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Console Owner');
  stranger = await signUpTestOwner(t.app, prisma, 'Stranger');
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

function get(url: string, as: SignedUpOwner = owner) {
  return t.app.inject({ method: 'GET', url, headers: as.headers });
}

function intentsCaller(as: SignedUpOwner) {
  return intentsRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: as.userId, via: 'session' } });
}

async function createAgent(as: SignedUpOwner, name = 'Console agent'): Promise<string> {
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: as.headers, payload: { name } });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { agent: { id: string } }).agent.id;
}

type IntentRow = {
  agentId: string;
  createdAt: Date;
  status?: IntentStatus;
  rail?: 'ledger' | 'x402_base' | 'solana' | 'card' | 'bank';
  amount?: bigint;
  purpose?: string;
  merchant?: string | null;
  metadata?: Prisma.InputJsonObject;
};

/** Intents written straight into the table, with the creation times the tests need. */
async function insertIntents(as: SignedUpOwner, rows: IntentRow[]): Promise<string[]> {
  const data = rows.map((row) => {
    const id = randomUUID();
    return {
      id,
      ownerId: as.userId,
      agentId: row.agentId,
      createdBy: 'owner' as const,
      amount: row.amount ?? 1_000_000n,
      currency: 'USDC' as const,
      purpose: row.purpose ?? '',
      merchant: row.merchant ?? null,
      metadata: row.metadata ?? {},
      status: row.status ?? 'created',
      rail: row.rail ?? 'ledger',
      workflowId: `payment-${id}`,
      idempotencyKey: `auto:${id}`,
      requestHash: 'test',
      createdAt: row.createdAt,
    };
  });
  await prisma.paymentIntent.createMany({ data });
  return data.map((row) => row.id);
}

// ---------------------------------------------------------------- the payment list

describe('the payment list', () => {
  let lister: SignedUpOwner;
  let first: string;
  let second: string;
  /** By name: the intents of the fixture below. */
  const ids: Record<string, string> = {};
  /** Five intents created in the same millisecond, newest first by id. */
  let sameInstant: string[];

  beforeAll(async () => {
    lister = await signUpTestOwner(t.app, prisma, 'Lister');
    first = await createAgent(lister, 'First');
    second = await createAgent(lister, 'Second');
    const fixture: Array<[string, IntentRow]> = [
      ['coffee', { agentId: first, createdAt: minutes(1), status: 'settled', rail: 'ledger', amount: 5_000_000n, purpose: 'Coffee beans', merchant: 'Bean Co', metadata: { order: 'A-1' } }],
      ['gpu', { agentId: first, createdAt: minutes(2), status: 'pending_approval', rail: 'card', amount: 120_500_000n, purpose: 'GPU hours', merchant: 'Cloud Inc' }],
      ['weather', { agentId: second, createdAt: minutes(3), status: 'failed', rail: 'x402_base', amount: 10_000n, purpose: 'API call', metadata: { x402: { resource: { url: 'https://api.example.com/weather' } } } }],
      ['refund', { agentId: second, createdAt: minutes(4), status: 'settled', rail: 'bank', amount: 1_000_000_000n, purpose: '100% refund', merchant: 'Shop' }],
      ['books', { agentId: first, createdAt: minutes(5), status: 'blocked', rail: 'ledger', amount: 50_000_000n, purpose: 'Books', merchant: 'Library_X', metadata: { note: 'Birthday gift' } }],
      ['hosting', { agentId: second, createdAt: minutes(6), status: 'pending_approval', rail: 'solana', amount: 7_000_000n, purpose: 'Hosting', merchant: 'Host 100 percent' }],
    ];
    const inserted = await insertIntents(lister, fixture.map(([, row]) => row));
    fixture.forEach(([name], index) => (ids[name] = inserted[index]!));
    sameInstant = (await insertIntents(lister, Array.from({ length: 5 }, () => ({ agentId: first, createdAt: minutes(10) })))).sort().reverse();
    // Another owner's intents match the same words and never show up.
    const foreignAgent = await createAgent(stranger);
    await insertIntents(stranger, [{ agentId: foreignAgent, createdAt: minutes(7), status: 'settled', purpose: 'Coffee beans', merchant: 'Bean Co' }]);
  });

  async function listed(query: string, as = lister): Promise<string[]> {
    const response = await get(`/api/v1/intents?limit=100${query ? `&${query}` : ''}`, as);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as IntentListView).intents.map((intent) => intent.id);
  }

  const named = (...names: string[]) => names.map((name) => ids[name]);

  it('lists only the owner\'s intents, newest first', async () => {
    expect(await listed('')).toEqual([...sameInstant, ...named('hosting', 'books', 'refund', 'weather', 'gpu', 'coffee')]);
  });

  it('filters by one status, and by several given as an array or as a repeated query parameter', async () => {
    expect(await listed('status=settled')).toEqual(named('refund', 'coffee'));
    expect(await listed('status=pending_approval&status=failed')).toEqual(named('hosting', 'weather', 'gpu'));
    const viaTrpc = await intentsCaller(lister).list({ status: ['failed', 'blocked'] });
    expect(viaTrpc.intents.map((intent) => intent.id)).toEqual(named('books', 'weather'));
  });

  it('filters by rail, an intent without one counting as a ledger payment', async () => {
    expect(await listed('rail=x402-base')).toEqual(named('weather'));
    expect(await listed('rail=card')).toEqual(named('gpu'));
    expect(await listed('rail=ledger')).toEqual([...sameInstant, ...named('books', 'coffee')]);
    const other = await signUpTestOwner(t.app, prisma, 'Railless');
    const [railless, onCard] = await insertIntents(other, [
      { agentId: await createAgent(other), createdAt: minutes(1) },
      { agentId: await createAgent(other), createdAt: minutes(2), rail: 'card' },
    ]);
    await prisma.paymentIntent.update({ where: { id: railless }, data: { rail: null } });
    expect(await listed('rail=ledger', other)).toEqual([railless]);
    expect(await listed('rail=card', other)).toEqual([onCard]);
  });

  it('filters by agent', async () => {
    expect(await listed(`agentId=${second}&rail=solana`)).toEqual(named('hosting'));
    expect(await listed(`agentId=${second}&to=${minutes(5).toISOString()}&from=${minutes(1).toISOString()}`)).toEqual(named('refund', 'weather'));
  });

  it('filters by creation time, from inclusive and to exclusive', async () => {
    expect(await listed(`from=${minutes(2).toISOString()}&to=${minutes(5).toISOString()}`)).toEqual(named('refund', 'weather', 'gpu'));
    // Any offset names the same instant.
    expect(await listed(`from=${encodeURIComponent('2026-01-01T01:05:00+01:00')}&to=${encodeURIComponent(minutes(6).toISOString())}`)).toEqual(named('books'));
  });

  it('filters by amount in dollars, both bounds inclusive, at full precision', async () => {
    expect(await listed('minAmount=7&maxAmount=120.5')).toEqual(named('hosting', 'books', 'gpu'));
    expect(await listed('minAmount=0.01&maxAmount=0.010000')).toEqual(named('weather'));
    expect(await listed('minAmount=1000')).toEqual(named('refund'));
    expect(await listed('maxAmount=0')).toEqual([]);
    const viaTrpc = await intentsCaller(lister).list({ minAmount: 0.01, maxAmount: '5' });
    expect(viaTrpc.intents.map((intent) => intent.id)).toEqual([...sameInstant, ...named('weather', 'coffee')]);
  });

  it('searches purpose, merchant and metadata, case-insensitively', async () => {
    expect(await listed('search=COFFEE')).toEqual(named('coffee'));
    expect(await listed('search=cloud%20inc')).toEqual(named('gpu'));
    expect(await listed('search=api.example.com%2Fweather')).toEqual(named('weather'));
    expect(await listed('search=birthday')).toEqual(named('books'));
    expect(await listed('search=%20%20shop%20')).toEqual(named('refund'));
    expect(await listed('search=settled&status=settled')).toEqual([]);
  });

  it('takes % and _ in the search text literally', async () => {
    // Unescaped, '100%' would match "Host 100 percent" and '_x' the "x402" in the weather metadata.
    expect(await listed(`search=${encodeURIComponent('100%')}`)).toEqual(named('refund'));
    expect(await listed(`search=${encodeURIComponent('y_x')}`)).toEqual(named('books'));
    expect(await listed(`search=${encodeURIComponent('_')}`)).toEqual(named('books'));
  });

  it('combines filters', async () => {
    expect(await listed(`status=settled&status=pending_approval&agentId=${second}&minAmount=10`)).toEqual(named('refund'));
    expect(await listed('status=settled&search=shop&rail=bank')).toEqual(named('refund'));
  });

  it('pages through intents created in the same millisecond without skipping or repeating one', async () => {
    const everything = await listed('');
    for (const limit of [1, 2, 3, 4]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await get(`/api/v1/intents?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, lister);
        const page = response.json() as IntentListView;
        expect(page.intents.length).toBeLessThanOrEqual(limit);
        seen.push(...page.intents.map((intent) => intent.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(everything);
    }
  });

  it('pages a filtered list, and the cursor keeps its place when newer intents arrive', async () => {
    const caller = intentsCaller(lister);
    const page1 = await caller.list({ status: 'created', limit: 2 });
    expect(page1.intents.map((intent) => intent.id)).toEqual(sameInstant.slice(0, 2));
    // A new intent arriving between pages lands on page one, not in the middle of page two.
    await insertIntents(lister, [{ agentId: first, createdAt: new Date(T0 + 3_600_000) }]);
    const page2 = await caller.list({ status: 'created', limit: 2, cursor: page1.nextCursor! });
    expect(page2.intents.map((intent) => intent.id)).toEqual(sameInstant.slice(2, 4));
    const page3 = await caller.list({ status: 'created', limit: 2, cursor: page2.nextCursor! });
    expect(page3.intents.map((intent) => intent.id)).toEqual(sameInstant.slice(4));
    expect(page3.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not hand out with VALIDATION_FAILED and a clear message', async () => {
    const forged = Buffer.from(`not a date|${ids.coffee}`).toString('base64url');
    for (const cursor of [ids.coffee!, forged, 'a+b/c=']) {
      const response = await get(`/api/v1/intents?cursor=${encodeURIComponent(cursor)}`, lister);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: INTENT_CURSOR_MESSAGE } });
    }
    await expect(intentsCaller(lister).list({ cursor: forged })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: INTENT_CURSOR_MESSAGE });
  });

  it.each([
    ['status=paid', /^status must be one of created, pending_approval/],
    ['rail=paypal', /^Rail must be one of/],
    ['from=yesterday', 'from must be an ISO 8601 date-time with a time zone, e.g. 2026-11-26T00:00:00Z'],
    ['to=2026-01-01T00:00:00', 'to must be an ISO 8601 date-time with a time zone, e.g. 2026-11-26T00:00:00Z'],
    [`from=${minutes(5).toISOString()}&to=${minutes(5).toISOString()}`, 'to must be later than from'],
    ['minAmount=-1', 'minAmount must be a number of dollars (0 or more) with at most 6 decimals'],
    ['maxAmount=0.0000001', 'maxAmount must be a number of dollars (0 or more) with at most 6 decimals'],
    ['minAmount=10&maxAmount=9.99', 'maxAmount must not be less than minAmount'],
    [`search=${'x'.repeat(201)}`, 'search must be at most 200 characters'],
    ['limit=101', 'limit must be from 1 to 100'],
    ['agentId=nope', 'agentId must be a UUID'],
  ])('refuses %s with VALIDATION_FAILED', async (query, message) => {
    const response = await get(`/api/v1/intents?${query}`, lister);
    expect(response.statusCode).toBe(400);
    const error = (response.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  it('documents every filter of the list and the detail route in the OpenAPI document', async () => {
    const document = (await get('/api/v1/openapi.json')).json() as { paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string }[] }>> };
    const list = document.paths['/intents']!.get!;
    expect(list.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name).sort()).toEqual(
      ['agentId', 'cursor', 'from', 'limit', 'maxAmount', 'minAmount', 'protocol', 'rail', 'search', 'sessionId', 'status', 'to'].sort(),
    );
    expect(document.paths['/intents/{intentId}/detail']!.get!.operationId).toBe('getPaymentDetail');
  });
});

// ---------------------------------------------------------------- the approvals badge

describe('the approvals count', () => {
  it("counts the owner's intents waiting for approval, and nobody else's", async () => {
    const counter = await signUpTestOwner(t.app, prisma, 'Counter');
    const agentId = await createAgent(counter);
    expect(await intentsCaller(counter).pendingCount()).toEqual({ count: 0 });
    const [waiting] = await insertIntents(counter, [
      { agentId, createdAt: minutes(1), status: 'pending_approval' },
      { agentId, createdAt: minutes(2), status: 'pending_approval' },
      { agentId, createdAt: minutes(3), status: 'settled' },
    ]);
    expect(await intentsCaller(counter).pendingCount()).toEqual({ count: 2 });
    await prisma.paymentIntent.update({ where: { id: waiting }, data: { status: 'approved' } });
    const response = await get('/trpc/intents.pendingCount', counter);
    expect((response.json() as { result: { data: unknown } }).result.data).toEqual({ count: 1 });
    expect(await intentsCaller(stranger).pendingCount()).toEqual({ count: 0 });
  });
});

// ---------------------------------------------------------------- one payment in full

describe('one payment in full', () => {
  let agentId: string;
  let settledId: string;
  let x402Id: string;
  let webhookSecret: string;
  let signature: string;
  let paymentHeader: string;
  const payer = privateKeyToAccount(generatePrivateKey());
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const transactionHash = `0x${'ab12'.repeat(16)}`;

  beforeAll(async () => {
    const topUp = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: owner.headers, payload: { amount: 100 } });
    expect(topUp.statusCode, topUp.body).toBe(200);
    agentId = await createAgent(owner, 'Detailed');
    const funded = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/fund-agent', headers: owner.headers, payload: { agent_id: agentId, amount: 20 } });
    expect(funded.statusCode, funded.body).toBe(200);
    const endpoint = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: owner.headers, payload: { url: 'https://hooks.example.com/console' } });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    webhookSecret = (endpoint.json() as { secret: string }).secret;

    // A ledger payment taken through the engine's own steps: hold, capture, events, audit.
    settledId = (await insertIntents(owner, [{ agentId, createdAt: new Date(), status: 'approved', amount: 2_500_000n, purpose: 'Detailed payment' }]))[0]!;
    const emit = async (type: 'intent.created' | 'settlement.completed') => {
      const intent = await getIntent(prisma, owner.userId, settledId);
      await prisma.$transaction((tx) => emitPaymentEvent(tx, { ownerId: owner.userId, intentId: settledId, type, intent }));
    };
    await emit('intent.created');
    // The front of a payment the owner approved: intent.approved, the gate again, the hold.
    await authorizePayment({ prisma, rails: createRails({ prisma }), startDeliveries: async () => {}, log: () => {} }, settledId);
    await capturePayment(prisma, settledId);
    await emit('settlement.completed');
    await prisma.$transaction((tx) =>
      appendAuditEvent(tx, { actor: `owner:${owner.userId}`, action: 'payment_intent.approved', subject: `payment_intent:${settledId}`, ownerId: owner.userId, data: { reason: 'fine' } }),
    );
    // An entry about the same subject in another owner's log is not this owner's to read.
    await prisma.$transaction((tx) =>
      appendAuditEvent(tx, { actor: `owner:${stranger.userId}`, action: 'payment_intent.peeked', subject: `payment_intent:${settledId}`, ownerId: stranger.userId }),
    );

    // An x402 payment redeemed on chain: its operation holds the signed header, as the rail stores it.
    x402Id = (await insertIntents(owner, [{ agentId, createdAt: new Date(), status: 'settled', rail: 'x402_base', amount: 10_000n, purpose: 'Weather API' }]))[0]!;
    const requirement = {
      scheme: 'exact',
      network: 'base-sepolia',
      maxAmountRequired: '10000',
      resource: 'https://api.example.com/weather',
      description: 'Weather',
      mimeType: 'application/json',
      payTo,
      maxTimeoutSeconds: 60,
      asset: t.deps.chain.info.usdcAddress,
      extra: { name: 'USDC', version: '2' },
    };
    const priced = priceRequirement(requirement, 1, t.deps.chain.info, 300);
    paymentHeader = await signX402Authorization({ account: payer, requirement, priced, domain: { name: 'USDC', version: '2' } });
    const decoded = exactPayload(decodePaymentHeader(paymentHeader));
    signature = decoded.signature;
    await prisma.railOperation.create({
      data: {
        paymentIntentId: x402Id,
        rail: 'x402_base',
        reference: decoded.authorization.nonce,
        status: 'settled',
        sandbox: true,
        settledAt: new Date(),
        details: {
          network: 'eip155:84532',
          x402Version: 1,
          payer: payer.address,
          payTo,
          nonce: decoded.authorization.nonce,
          validBefore: decoded.authorization.validBefore,
          paymentHeader,
          transactionHash,
        },
      },
    });
  });

  it('shows the intent, its agent, events, balanced ledger entries, webhook deliveries, audit entries and workflow link', async () => {
    const detail = await intentsCaller(owner).detail({ intentId: settledId });
    const agent = await prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: { did: true } });
    expect(detail.intent).toMatchObject({ id: settledId, status: 'settled', amount: 2.5, amountExact: '2.5', purpose: 'Detailed payment' });
    expect(detail.agent).toEqual({ id: agentId, name: 'Detailed', did: agent.did, status: 'active' });
    expect(detail.rail).toBeNull();
    expect(detail.events.map((event) => event.type)).toEqual(['intent.created', 'intent.approved', 'settlement.completed']);

    expect(new Set(detail.ledgerEntries.map((entry) => entry.type))).toEqual(new Set(['payment_hold', 'payment_capture']));
    const byTransaction = new Map<string, bigint>();
    for (const entry of detail.ledgerEntries) {
      expect(entry.currency).toBe('USDC');
      const units = entry.amount.startsWith('-') ? -parseAmount(entry.amount.slice(1)) : parseAmount(entry.amount);
      byTransaction.set(entry.transactionId, (byTransaction.get(entry.transactionId) ?? 0n) + units);
    }
    expect(byTransaction.size).toBe(2);
    expect([...byTransaction.values()]).toEqual([0n, 0n]);
    const hold = detail.ledgerEntries.filter((entry) => entry.type === 'payment_hold');
    expect(hold.map((entry) => [entry.account, entry.amount]).sort()).toEqual([['agent', '-2.5'], ['hold', '2.5']]);

    expect(detail.webhookDeliveries).toHaveLength(3);
    expect(detail.webhookDeliveries.map((delivery) => [delivery.eventType, delivery.endpointUrl, delivery.status, delivery.attempts])).toEqual([
      ['intent.created', 'https://hooks.example.com/console', 'pending', 0],
      ['intent.approved', 'https://hooks.example.com/console', 'pending', 0],
      ['settlement.completed', 'https://hooks.example.com/console', 'pending', 0],
    ]);
    // The engine's own entries (its status moves), then the one appended here; not the stranger's.
    expect(detail.auditEntries.map((entry) => entry.action)).toEqual(['payment_intent.processing', 'payment_intent.settled', 'payment_intent.approved']);
    expect(detail.auditEntries.at(-1)).toMatchObject({ actor: `owner:${owner.userId}`, data: { reason: 'fine' }, seq: expect.stringMatching(/^\d+$/), chainSeq: expect.stringMatching(/^\d+$/) });
    expect(detail.workflow).toEqual({ workflowId: `payment-${settledId}`, temporalUiUrl: `${TEMPORAL_UI}/workflows/payment-${settledId}` });
  });

  it("shows an x402 payment's on-chain transaction with its explorer link and the authorisation it signed, decoded", async () => {
    const response = await get(`/api/v1/intents/${x402Id}/detail`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json() as PaymentDetailView;
    const { authorization } = exactPayload(decodePaymentHeader(paymentHeader));
    expect(detail.rail).toEqual({
      rail: 'x402-base',
      protocol: 'x402',
      reference: authorization.nonce,
      status: 'settled',
      sandbox: true,
      declineCode: null,
      declineMessage: null,
      settledAt: expect.any(String),
      transactionHash,
      explorerUrl: `${EXPLORER}/tx/${transactionHash}`,
      authorization: {
        scheme: 'exact',
        from: payer.address,
        to: payTo,
        value: '0.01',
        validAfter: new Date(Number(authorization.validAfter) * 1000).toISOString(),
        validBefore: new Date(Number(authorization.validBefore) * 1000).toISOString(),
        nonce: authorization.nonce,
      },
      sellerReceipt: null,
      // This payment's paid request was not sent by Purser (the operation keeps no HTTP signature).
      requestSignature: null,
      mpp: null,
    });
    expect(Date.parse(detail.rail!.authorization!.validBefore) - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it('never answers a signature, a payment header, a secret or key material', async () => {
    for (const intentId of [settledId, x402Id]) {
      const text = (await get(`/api/v1/intents/${intentId}/detail`)).body;
      expect(text).not.toContain(signature.slice(2));
      expect(text).not.toContain(paymentHeader);
      expect(text).not.toContain(webhookSecret.replace(/^whsec_/, ''));
      // The one field named after a signature says which key signed the paid request, never a signature's bytes.
      expect(text.replaceAll('"requestSignature"', '')).not.toMatch(/signature|paymentHeader|secret|ciphertext|keyHash|passwordHash|payload/i);
    }
  });

  it("answers NOT_FOUND for another owner's payment, as for one that does not exist", async () => {
    const foreign = await get(`/api/v1/intents/${settledId}/detail`, stranger);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Payment intent not found' } });
    await expect(intentsCaller(stranger).detail({ intentId: settledId })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Payment intent not found' });
    await expect(intentsCaller(owner).detail({ intentId: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

// ---------------------------------------------------------------- a payment's live flow

describe('the live flow of one payment', () => {
  function realtimeCaller(as: SignedUpOwner, signal: AbortSignal) {
    return realtimeRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: as.userId, via: 'session' } }, { signal });
  }

  /** The stream's messages one at a time; `none` waits a while and expects nothing. */
  async function open(as: SignedUpOwner, intentId: string) {
    const abort = new AbortController();
    const iterable = await realtimeCaller(as, abort.signal).intentProgress({ intentId });
    const iterator = iterable[Symbol.asyncIterator]();
    let pending: Promise<IteratorResult<IntentProgressView>> | undefined;
    const within = async (ms: number) => {
      pending ??= iterator.next();
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([pending, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)))]).finally(() => clearTimeout(timer));
      if (result === 'timeout') return 'nothing' as const;
      pending = undefined;
      if (result.done) throw new Error('the stream ended');
      return result.value;
    };
    return {
      next: () => within(5_000),
      none: async () => expect(await within(300)).toBe('nothing'),
      close: () => abort.abort(),
    };
  }

  const view = (intentId: string, status: IntentStatus, progress?: Pick<PaymentProgress, 'currentStep' | 'steps'>): IntentProgressView => ({
    intentId,
    status,
    currentStep: progress?.currentStep ?? null,
    steps: progress?.steps ?? [],
  });

  it('answers NOT_FOUND for another owner\'s payment before any stream opens', async () => {
    const agentId = await createAgent(owner);
    const [intentId] = await insertIntents(owner, [{ agentId, createdAt: new Date() }]);
    const abort = new AbortController();
    await expect(realtimeCaller(stranger, abort.signal).intentProgress({ intentId: intentId! })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Payment intent not found' });
    await expect(realtimeCaller(owner, abort.signal).intentProgress({ intentId: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('sends the progress at once and again on each change of the intent, skipping notices that change nothing', async () => {
    const agentId = await createAgent(owner);
    const [intentId, sibling] = await insertIntents(owner, [
      { agentId, createdAt: new Date() },
      { agentId, createdAt: new Date() },
    ]);
    const stream = await open(owner, intentId!);
    expect(await stream.next()).toEqual(view(intentId!, 'created'));

    // Another intent of the same owner, and a change of this one the view does not show: nothing.
    await prisma.paymentIntent.update({ where: { id: sibling! }, data: { status: 'pending_approval' } });
    await prisma.paymentIntent.update({ where: { id: intentId! }, data: { purpose: 'renamed' } });
    await stream.none();

    await prisma.paymentIntent.update({ where: { id: intentId! }, data: { status: 'pending_approval' } });
    expect(await stream.next()).toEqual(view(intentId!, 'pending_approval'));

    // The workflow reports a step; the next notice (its rail operation, here) carries it.
    const steps: PaymentProgress['steps'] = [{ step: 'approval', status: 'running', at: new Date().toISOString() }];
    workflows.set(intentId!, { progress: { intentId: intentId!, status: 'pending_approval', currentStep: 'approval', steps }, close: new Promise(() => {}) });
    await prisma.railOperation.create({ data: { paymentIntentId: intentId!, rail: 'ledger', reference: `ledger-${intentId}` } });
    expect(await stream.next()).toEqual(view(intentId!, 'pending_approval', { currentStep: 'approval', steps }));
    stream.close();
  });

  it('sends the final steps once the workflow closes after the database says the payment ended', async () => {
    const agentId = await createAgent(owner);
    const [intentId] = await insertIntents(owner, [{ agentId, createdAt: new Date(), status: 'processing' }]);
    const at = new Date().toISOString();
    const capturing: PaymentProgress = { intentId: intentId!, status: 'processing', currentStep: 'capture', steps: [{ step: 'capture', status: 'running', at }] };
    let close!: (progress: PaymentProgress) => void;
    workflows.set(intentId!, { progress: capturing, close: new Promise((resolve) => (close = resolve)) });
    const stream = await open(owner, intentId!);
    expect(await stream.next()).toEqual(view(intentId!, 'processing', capturing));

    // The capture commits before the workflow records it: the database is ahead of the query.
    await prisma.paymentIntent.update({ where: { id: intentId! }, data: { status: 'settled', settledAt: new Date() } });
    expect(await stream.next()).toEqual(view(intentId!, 'settled', capturing));
    await stream.none();

    const settled: PaymentProgress = {
      intentId: intentId!,
      status: 'settled',
      currentStep: null,
      steps: [
        { step: 'capture', status: 'completed', at },
        { step: 'settlement.completed', status: 'completed', at },
        { step: 'audit', status: 'completed', at },
      ],
    };
    close(settled);
    expect(await stream.next()).toEqual(view(intentId!, 'settled', settled));
    stream.close();
  });
});
