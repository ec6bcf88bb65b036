/**
 * The wallet through the surfaces the web app and automation tools call: POST
 * /functions/v1/top-up-wallet and /fund-agent, and the tRPC wallet and transactions routers,
 * signed in with a real access token on a real database.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPublicSelect, type PrismaClient } from '@purser/db';
import { issueSession } from '../src/services/auth/issue-session';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { topUpWallet } from '../src/services/wallets/top-up-wallet';
import { createTestApp, type TestApp } from './support/test-app';
import { agentBalances, createAgent, createOwner, ownerBalances, type TestOwner } from './support/wallet-fixtures';

let testApp: TestApp;
let prisma: PrismaClient;

beforeAll(async () => {
  testApp = await createTestApp();
  prisma = testApp.deps.db.prisma;
});

afterAll(async () => {
  await testApp?.cleanup();
});

type SignedInOwner = TestOwner & { token: string };

async function signedInOwner(name = 'Owner'): Promise<SignedInOwner> {
  const owner = await createOwner(prisma, name);
  const user = await prisma.user.findUniqueOrThrow({ where: { id: owner.userId }, select: userPublicSelect });
  const session = await issueSession(testApp.deps, prisma, user);
  return { ...owner, token: session.access_token };
}

function post(path: string, body: unknown, options: { token?: string; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: 'POST',
    url: path,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    payload: body as object,
  });
}

function trpcQuery(path: string, token?: string): Promise<LightMyRequestResponse> {
  return testApp.app.inject({ method: 'GET', url: `/trpc/${path}`, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

function trpcMutation(path: string, input: unknown, token?: string): Promise<LightMyRequestResponse> {
  return post(`/trpc/${path}`, input, { token });
}

async function expectLedgerSound(): Promise<void> {
  const report = await verifyLedger(prisma);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

async function ledgerCounts(): Promise<{ transactions: number; entries: number }> {
  return { transactions: await prisma.ledgerTransaction.count(), entries: await prisma.ledgerEntry.count() };
}

describe('POST /functions/v1 authentication', () => {
  it('answers 401 UNAUTHORIZED without a valid access token and moves nothing', async () => {
    const owner = await signedInOwner();
    const agent = await createAgent(prisma, owner.userId);
    const before = await ledgerCounts();

    for (const [path, body] of [
      ['/functions/v1/top-up-wallet', { amount: 10, currency: 'USDC' }],
      ['/functions/v1/fund-agent', { agent_id: agent.agentId, amount: 1, currency: 'USDC' }],
    ] as const) {
      const anonymous = await post(path, body);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
      const forged = await post(path, body, { token: `${owner.token}x` });
      expect(forged.statusCode).toBe(401);
      expect(forged.json().error.code).toBe('UNAUTHORIZED');
    }
    expect(await ledgerCounts()).toEqual(before);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 0n, USDT: 0n });
  });
});

describe('POST /functions/v1/top-up-wallet', () => {
  it('adds the amount to the owner wallet and answers with the balances and the transaction', async () => {
    const owner = await signedInOwner();
    const response = await post('/functions/v1/top-up-wallet', { amount: 25.5, currency: 'USDT' }, { token: owner.token });

    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      funding_source: 'sandbox',
      wallet: { id: owner.walletId, balance_usdt: 25.5, balance_usdt_exact: '25.5', balance_usdc: 0 },
      transaction: { type: 'deposit', amount: 25.5, amount_exact: '25.5', currency: 'USDT', wallet_id: owner.walletId },
      ledger_transaction_id: expect.any(String),
    });
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 0n, USDT: 25_500_000n });
    await expectLedgerSound();
  });

  it('defaults the currency to USDC and accepts decimal strings', async () => {
    const owner = await signedInOwner();
    const response = await post('/functions/v1/top-up-wallet', { amount: '0.000001' }, { token: owner.token });
    expect(response.statusCode).toBe(200);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 1n, USDT: 0n });
    await expectLedgerSound();
  });

  it("refuses a missing or invalid amount with 'Please enter a valid amount' and moves nothing", async () => {
    const owner = await signedInOwner();
    const before = await ledgerCounts();
    for (const body of [{}, { amount: 0 }, { amount: -5 }, { amount: '1.0000001' }, { amount: 'ten' }, { amount: null }, { amount: '1e3' }]) {
      const response = await post('/functions/v1/top-up-wallet', body, { token: owner.token });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'Please enter a valid amount' } });
    }
    const currency = await post('/functions/v1/top-up-wallet', { amount: 1, currency: 'EUR' }, { token: owner.token });
    expect(currency.statusCode).toBe(400);
    expect(currency.json().error.message).toBe('Currency must be USDC or USDT');
    expect(await ledgerCounts()).toEqual(before);
  });
});

describe('POST /functions/v1/fund-agent', () => {
  it("moves money to the owner's agent and records both transactions", async () => {
    const owner = await signedInOwner();
    const agent = await createAgent(prisma, owner.userId, { name: 'Shopper' });
    await topUpWallet(testApp.deps, owner.userId, { amount: 10_000_000n, currency: 'USDC' });

    const response = await post('/functions/v1/fund-agent', { agent_id: agent.agentId, amount: 4.25, currency: 'USDC' }, { token: owner.token });

    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      wallet: { balance_usdc: 5.75, balance_usdc_exact: '5.75' },
      agent_wallet: { agent_id: agent.agentId, wallet_address: agent.walletAddress, balance_usdc: 4.25 },
      transaction: { type: 'agent_funding', to_address: agent.walletAddress, amount: 4.25 },
    });
    const agentTx = await prisma.agentTransaction.findUniqueOrThrow({ where: { id: body.agent_transaction_id } });
    expect(agentTx).toMatchObject({ type: 'deposit', status: 'completed', category: 'funding', ledgerTransactionId: body.ledger_transaction_id });
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 5_750_000n, USDT: 0n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 4_250_000n, USDT: 0n });
    await expectLedgerSound();
  });

  it("refuses a missing agent or amount with 'Please select an agent and enter a valid amount'", async () => {
    const owner = await signedInOwner();
    const agent = await createAgent(prisma, owner.userId);
    await topUpWallet(testApp.deps, owner.userId, { amount: 10_000_000n, currency: 'USDC' });
    const before = await ledgerCounts();
    for (const body of [
      {},
      { amount: 1 },
      { agent_id: '', amount: 1 },
      { agent_id: 'not-a-uuid', amount: 1 },
      { agent_id: agent.agentId },
      { agent_id: agent.agentId, amount: 0 },
      { agent_id: agent.agentId, amount: -1 },
      { agent_id: agent.agentId, amount: '0.0000001' },
    ]) {
      const response = await post('/functions/v1/fund-agent', body, { token: owner.token });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toEqual({
        error: { code: 'VALIDATION_FAILED', message: 'Please select an agent and enter a valid amount' },
      });
    }
    expect(await ledgerCounts()).toEqual(before);
  });

  it("answers 422 INSUFFICIENT_FUNDS 'Insufficient balance' when the wallet cannot cover the amount", async () => {
    const owner = await signedInOwner();
    const agent = await createAgent(prisma, owner.userId);
    await topUpWallet(testApp.deps, owner.userId, { amount: 1_000_000n, currency: 'USDC' });
    const response = await post('/functions/v1/fund-agent', { agent_id: agent.agentId, amount: 1.01, currency: 'USDC' }, { token: owner.token });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: { code: 'INSUFFICIENT_FUNDS', message: 'Insufficient balance' } });
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 1_000_000n, USDT: 0n });
    await expectLedgerSound();
  });

  it("answers 404 'Agent not found' for another owner's agent and moves nothing", async () => {
    const alice = await signedInOwner('Alice');
    const bob = await signedInOwner('Bob');
    const aliceAgent = await createAgent(prisma, alice.userId);
    await topUpWallet(testApp.deps, bob.userId, { amount: 5_000_000n, currency: 'USDC' });

    const response = await post('/functions/v1/fund-agent', { agent_id: aliceAgent.agentId, amount: 1, currency: 'USDC' }, { token: bob.token });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Agent not found' } });
    expect(await ownerBalances(prisma, bob.userId)).toEqual({ USDC: 5_000_000n, USDT: 0n });
    expect(await agentBalances(prisma, aliceAgent.agentId)).toEqual({ USDC: 0n, USDT: 0n });
    await expectLedgerSound();
  });
});

describe('idempotency keys over HTTP', () => {
  it('replay the first response for the same Idempotency-Key header, once money has moved once', async () => {
    const owner = await signedInOwner();
    const headers = { 'idempotency-key': 'http-top-up-1' };
    const first = await post('/functions/v1/top-up-wallet', { amount: 3, currency: 'USDC' }, { token: owner.token, headers });
    const second = await post('/functions/v1/top-up-wallet', { amount: '3.00', currency: 'USDC' }, { token: owner.token, headers });

    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 3_000_000n, USDT: 0n });
    await expectLedgerSound();
  });

  it('accept the key as the idempotency_key body field, and refuse a different body with 409', async () => {
    const owner = await signedInOwner();
    const agent = await createAgent(prisma, owner.userId);
    await topUpWallet(testApp.deps, owner.userId, { amount: 10_000_000n, currency: 'USDC' });
    const body = { agent_id: agent.agentId, amount: 2, currency: 'USDC', idempotency_key: 'fund-field-1' };

    const first = await post('/functions/v1/fund-agent', body, { token: owner.token });
    const again = await post('/functions/v1/fund-agent', body, { token: owner.token, headers: { 'idempotency-key': 'fund-field-1' } });
    const different = await post('/functions/v1/fund-agent', { ...body, amount: 3 }, { token: owner.token });

    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(different.statusCode).toBe(409);
    expect(different.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 8_000_000n, USDT: 0n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 2_000_000n, USDT: 0n });
    await expectLedgerSound();
  });

  it('refuse a header and a body field that disagree, and a malformed key', async () => {
    const owner = await signedInOwner();
    const mismatch = await post('/functions/v1/top-up-wallet', { amount: 1, idempotency_key: 'a' }, { token: owner.token, headers: { 'idempotency-key': 'b' } });
    expect(mismatch.statusCode).toBe(400);
    const malformed = await post('/functions/v1/top-up-wallet', { amount: 1 }, { token: owner.token, headers: { 'idempotency-key': 'has space' } });
    expect(malformed.statusCode).toBe(400);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 0n, USDT: 0n });
  });
});

describe('tRPC wallet and transactions', () => {
  it('tops up, funds an agent and reads the wallet and the recent transactions', async () => {
    const owner = await signedInOwner();
    const agent = await createAgent(prisma, owner.userId);

    const topUp = await trpcMutation('wallet.topUp', { amount: 12, currency: 'USDC' }, owner.token);
    expect(topUp.statusCode).toBe(200);
    expect(topUp.json().result.data.wallet.balance_usdc).toBe(12);
    const fund = await trpcMutation('wallet.fundAgent', { agent_id: agent.agentId, amount: '2.5', currency: 'USDC' }, owner.token);
    expect(fund.statusCode).toBe(200);
    expect(fund.json().result.data.agent_wallet.balance_usdc).toBe(2.5);

    const wallet = await trpcQuery('wallet.get', owner.token);
    expect(wallet.json().result.data).toMatchObject({ id: owner.walletId, user_id: owner.userId, balance_usdc: 9.5, balance_usdc_exact: '9.5' });
    const recent = await trpcQuery('transactions.recent', owner.token);
    expect(recent.json().result.data.map((t: { type: string }) => t.type)).toEqual(['agent_funding', 'deposit']);
    await expectLedgerSound();
  });

  it('refuses signed-out callers and invalid input', async () => {
    const owner = await signedInOwner();
    expect((await trpcQuery('wallet.get')).statusCode).toBe(401);
    expect((await trpcQuery('transactions.recent')).statusCode).toBe(401);
    expect((await trpcMutation('wallet.topUp', { amount: 1 })).statusCode).toBe(401);

    const invalid = await trpcMutation('wallet.topUp', { amount: 0 }, owner.token);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toMatchObject({ message: 'Please enter a valid amount', data: { appCode: 'VALIDATION_FAILED' } });
    const noAgent = await trpcMutation('wallet.fundAgent', { amount: 1 }, owner.token);
    expect(noAgent.statusCode).toBe(400);
    expect(noAgent.json().error.message).toBe('Please select an agent and enter a valid amount');
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 0n, USDT: 0n });
  });

  it("shows a second owner only their own wallet and transactions, and hides the first owner's agents", async () => {
    const alice = await signedInOwner('Alice');
    const bob = await signedInOwner('Bob');
    const aliceAgent = await createAgent(prisma, alice.userId);
    await topUpWallet(testApp.deps, alice.userId, { amount: 30_000_000n, currency: 'USDC' });
    await topUpWallet(testApp.deps, bob.userId, { amount: 1_000_000n, currency: 'USDC' });

    const bobWallet = (await trpcQuery('wallet.get', bob.token)).json().result.data;
    expect(bobWallet).toMatchObject({ id: bob.walletId, user_id: bob.userId, balance_usdc: 1 });
    const bobRecent = (await trpcQuery('transactions.recent', bob.token)).json().result.data as { wallet_id: string }[];
    expect(bobRecent).toHaveLength(1);
    expect(bobRecent.every((t) => t.wallet_id === bob.walletId)).toBe(true);

    const stolen = await trpcMutation('wallet.fundAgent', { agent_id: aliceAgent.agentId, amount: 1, currency: 'USDC' }, bob.token);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().error).toMatchObject({ message: 'Agent not found', data: { appCode: 'NOT_FOUND' } });
    expect(await ownerBalances(prisma, bob.userId)).toEqual({ USDC: 1_000_000n, USDT: 0n });
    expect(await ownerBalances(prisma, alice.userId)).toEqual({ USDC: 30_000_000n, USDT: 0n });
    expect(await agentBalances(prisma, aliceAgent.agentId)).toEqual({ USDC: 0n, USDT: 0n });
    await expectLedgerSound();
  });

  it('honours the idempotency_key field on tRPC mutations', async () => {
    const owner = await signedInOwner();
    const input = { amount: 4, currency: 'USDT', idempotency_key: 'trpc-1' };
    const first = await trpcMutation('wallet.topUp', input, owner.token);
    const second = await trpcMutation('wallet.topUp', input, owner.token);
    expect(second.json().result.data).toEqual(first.json().result.data);
    const conflict = await trpcMutation('wallet.topUp', { ...input, amount: 5 }, owner.token);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.data.appCode).toBe('IDEMPOTENCY_CONFLICT');
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 0n, USDT: 4_000_000n });
    await expectLedgerSound();
  });
});
