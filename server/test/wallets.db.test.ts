/**
 * Owner wallets through the services, on a real database: top-ups, agent funding, the
 * ledger's invariants under concurrency, idempotency keys and owner isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAmount } from '@purser/core';
import { EXTERNAL_ACCOUNT_IDS, type PrismaClient, type TransactionClient } from '@purser/db';
import { getOrCreateOwnerAccount, insertLedgerTransaction } from '../src/services/ledger/post-ledger-transaction';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { fundAgent } from '../src/services/wallets/fund-agent';
import { getOwnerWallet } from '../src/services/wallets/get-owner-wallet';
import { listOwnerTransactions } from '../src/services/wallets/list-owner-transactions';
import { topUpWallet } from '../src/services/wallets/top-up-wallet';
import { errorOf } from './support/errors';
import { createTestApp, type TestApp } from './support/test-app';
import { agentBalances, createAgent, createOwner, ownerBalances } from './support/wallet-fixtures';

let testApp: TestApp;
let prisma: PrismaClient;

beforeAll(async () => {
  testApp = await createTestApp();
  prisma = testApp.deps.db.prisma;
});

afterAll(async () => {
  await testApp?.cleanup();
});

const usd = (dollars: string) => parseAmount(dollars);

async function expectLedgerSound(): Promise<void> {
  const report = await verifyLedger(prisma);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  for (const total of Object.values(report.totals)) expect(total).toBe('0');
}

async function ledgerCounts(): Promise<{ transactions: number; entries: number }> {
  return { transactions: await prisma.ledgerTransaction.count(), entries: await prisma.ledgerEntry.count() };
}

describe('top-up', () => {
  it('moves money from the sandbox funding source into the owner wallet and records a deposit', async () => {
    const owner = await createOwner(prisma);
    const externalBefore = await prisma.ledgerAccount.findUniqueOrThrow({ where: { id: EXTERNAL_ACCOUNT_IDS.USDC } });

    const { response, replayed } = await topUpWallet(testApp.deps, owner.userId, { amount: usd('12.345678'), currency: 'USDC' });

    expect(replayed).toBe(false);
    expect(response.funding_source).toBe('sandbox');
    expect(response.wallet).toMatchObject({ id: owner.walletId, user_id: owner.userId, balance_usdc: 12.345678, balance_usdc_exact: '12.345678', balance_usdt: 0 });
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 12_345_678n, USDT: 0n });

    const deposit = await prisma.ownerTransaction.findUniqueOrThrow({ where: { id: response.transaction.id } });
    expect(deposit).toMatchObject({ walletId: owner.walletId, type: 'deposit', amount: 12_345_678n, currency: 'USDC', toAddress: null });
    expect(deposit.description).toMatch(/sandbox/i);
    expect(deposit.ledgerTransactionId).toBe(response.ledger_transaction_id);

    const entries = await prisma.ledgerEntry.findMany({ where: { transactionId: response.ledger_transaction_id }, include: { account: true } });
    expect(entries.map((e) => [e.account.kind, e.amount]).sort()).toEqual([
      ['external', -12_345_678n],
      ['owner', 12_345_678n],
    ]);
    const externalAfter = await prisma.ledgerAccount.findUniqueOrThrow({ where: { id: EXTERNAL_ACCOUNT_IDS.USDC } });
    expect(externalAfter.balance - externalBefore.balance).toBe(-12_345_678n);
    await expectLedgerSound();
  });

  it('keeps USDC and USDT apart', async () => {
    const owner = await createOwner(prisma);
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('3'), currency: 'USDT' });
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('0.000001'), currency: 'USDC' });

    expect(await getOwnerWallet(prisma, owner.userId)).toEqual({
      id: owner.walletId,
      user_id: owner.userId,
      balance_usdc: 0.000001,
      balance_usdt: 3,
      balance_usdc_exact: '0.000001',
      balance_usdt_exact: '3',
    });
    await expectLedgerSound();
  });

  it('refuses amounts that are not positive or exceed the sandbox limit, and moves nothing', async () => {
    const owner = await createOwner(prisma);
    const before = await ledgerCounts();
    expect(await errorOf(topUpWallet(testApp.deps, owner.userId, { amount: 0n, currency: 'USDC' }))).toMatchObject({ code: 'INVALID_AMOUNT', message: 'Please enter a valid amount' });
    expect(await errorOf(topUpWallet(testApp.deps, owner.userId, { amount: -1n, currency: 'USDC' }))).toMatchObject({ code: 'INVALID_AMOUNT' });
    expect(await errorOf(topUpWallet(testApp.deps, owner.userId, { amount: usd('1000000.000001'), currency: 'USDC' }))).toMatchObject({ code: 'INVALID_AMOUNT' });
    expect(await ledgerCounts()).toEqual(before);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 0n, USDT: 0n });
    await expectLedgerSound();
  });
});

describe('funding an agent', () => {
  it('moves money from the owner wallet to the agent wallet and records both transactions', async () => {
    const owner = await createOwner(prisma);
    const agent = await createAgent(prisma, owner.userId, { name: 'Research bot' });
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('50'), currency: 'USDC' });

    const { response } = await fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('20.5'), currency: 'USDC' });

    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 29_500_000n, USDT: 0n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 20_500_000n, USDT: 0n });
    expect(response.wallet).toMatchObject({ balance_usdc: 29.5, balance_usdc_exact: '29.5' });
    expect(response.agent_wallet).toMatchObject({ agent_id: agent.agentId, wallet_address: agent.walletAddress, balance_usdc: 20.5, balance_usdc_exact: '20.5' });

    const ownerTx = await prisma.ownerTransaction.findUniqueOrThrow({ where: { id: response.transaction.id } });
    expect(ownerTx).toMatchObject({ type: 'agent_funding', toAddress: agent.walletAddress, amount: 20_500_000n, currency: 'USDC', ledgerTransactionId: response.ledger_transaction_id });
    expect(ownerTx.description).toContain('Research bot');
    const agentTx = await prisma.agentTransaction.findUniqueOrThrow({ where: { id: response.agent_transaction_id } });
    expect(agentTx).toMatchObject({
      agentId: agent.agentId,
      type: 'deposit',
      status: 'completed',
      category: 'funding',
      amount: 20_500_000n,
      currency: 'USDC',
      ledgerTransactionId: response.ledger_transaction_id,
    });

    const entries = await prisma.ledgerEntry.findMany({ where: { transactionId: response.ledger_transaction_id }, include: { account: true } });
    expect(entries.map((e) => [e.account.kind, e.amount]).sort()).toEqual([
      ['agent', 20_500_000n],
      ['owner', -20_500_000n],
    ]);
    await expectLedgerSound();
  });

  it('refuses more than the balance with INSUFFICIENT_FUNDS and moves nothing', async () => {
    const owner = await createOwner(prisma);
    const agent = await createAgent(prisma, owner.userId);
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('5'), currency: 'USDC' });
    const before = await ledgerCounts();

    const error = await errorOf(fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('5.000001'), currency: 'USDC' }));
    expect(error).toEqual({ code: 'INSUFFICIENT_FUNDS', message: 'Insufficient balance', status: 422 });
    // USDT is a separate balance: USDC on hand does not pay for it.
    expect(await errorOf(fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('1'), currency: 'USDT' }))).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });

    expect(await ledgerCounts()).toEqual(before);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 5_000_000n, USDT: 0n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 0n, USDT: 0n });
    expect(await prisma.agentTransaction.count({ where: { agentId: agent.agentId } })).toBe(0);
    await expectLedgerSound();
  });

  it('lets the whole balance go and leaves exactly zero', async () => {
    const owner = await createOwner(prisma);
    const agent = await createAgent(prisma, owner.userId);
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('7.77'), currency: 'USDT' });
    await fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('7.77'), currency: 'USDT' });
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 0n, USDT: 0n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 0n, USDT: 7_770_000n });
    await expectLedgerSound();
  });

  it('refuses suspended, deleted and wallet-less agents', async () => {
    const owner = await createOwner(prisma);
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('10'), currency: 'USDC' });
    const suspended = await createAgent(prisma, owner.userId, { status: 'suspended' });
    const deleted = await createAgent(prisma, owner.userId, { status: 'deleted' });
    const walletless = await createAgent(prisma, owner.userId, { withWallet: false });
    const request = { amount: usd('1'), currency: 'USDC' as const };

    expect(await errorOf(fundAgent(prisma, owner.userId, { ...request, agentId: suspended.agentId }))).toMatchObject({ code: 'AGENT_SUSPENDED', status: 403 });
    expect(await errorOf(fundAgent(prisma, owner.userId, { ...request, agentId: deleted.agentId }))).toEqual({ code: 'NOT_FOUND', message: 'Agent not found', status: 404 });
    expect(await errorOf(fundAgent(prisma, owner.userId, { ...request, agentId: walletless.agentId }))).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 10_000_000n, USDT: 0n });
    await expectLedgerSound();
  });
});

describe('the database guards', () => {
  it('refuses an overdraft with INSUFFICIENT_FUNDS even when the service check is skipped', async () => {
    const owner = await createOwner(prisma);
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('1'), currency: 'USDC' });
    const before = await ledgerCounts();

    const attempt = prisma.$transaction(async (tx: TransactionClient) => {
      const account = await getOrCreateOwnerAccount(tx, owner.walletId, 'USDC');
      await insertLedgerTransaction(tx, {
        type: 'payout',
        entries: [
          { accountId: account.id, amount: -1_000_001n, currency: 'USDC' },
          { accountId: EXTERNAL_ACCOUNT_IDS.USDC, amount: 1_000_001n, currency: 'USDC' },
        ],
      });
    });

    expect(await errorOf(attempt)).toEqual({ code: 'INSUFFICIENT_FUNDS', message: 'Insufficient balance', status: 422 });
    expect(await ledgerCounts()).toEqual(before);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 1_000_000n, USDT: 0n });
    await expectLedgerSound();
  });
});

describe('idempotency keys', () => {
  it('move money once when the same request is sent twice, and return the same response', async () => {
    const owner = await createOwner(prisma);
    const agent = await createAgent(prisma, owner.userId);
    const first = await topUpWallet(testApp.deps, owner.userId, { amount: usd('9'), currency: 'USDC' }, { idempotencyKey: 'top-up-1' });
    const second = await topUpWallet(testApp.deps, owner.userId, { amount: usd('9'), currency: 'USDC' }, { idempotencyKey: 'top-up-1' });
    expect(second).toEqual({ response: first.response, replayed: true });
    expect(first.replayed).toBe(false);

    const fundFirst = await fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('4'), currency: 'USDC' }, { idempotencyKey: 'fund-1' });
    const fundSecond = await fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('4'), currency: 'USDC' }, { idempotencyKey: 'fund-1' });
    expect(fundSecond).toEqual({ response: fundFirst.response, replayed: true });

    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 5_000_000n, USDT: 0n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 4_000_000n, USDT: 0n });
    expect(await prisma.ownerTransaction.count({ where: { walletId: owner.walletId } })).toBe(2);
    expect(await prisma.agentTransaction.count({ where: { agentId: agent.agentId } })).toBe(1);
    await expectLedgerSound();
  });

  it('move money once when 20 identical requests race, all answered with the same response', async () => {
    const owner = await createOwner(prisma);
    const agent = await createAgent(prisma, owner.userId);
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('100'), currency: 'USDC' });

    // Only one funding of 60 fits in 100: a duplicate that ran instead of replaying would be
    // refused for insufficient funds rather than answered with the first response.
    const results = await Promise.all(
      Array.from({ length: 20 }, () => fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('60'), currency: 'USDC' }, { idempotencyKey: 'burst' })),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    for (const result of results) expect(result.response).toEqual(results[0]!.response);

    const topUps = await Promise.all(
      Array.from({ length: 20 }, () => topUpWallet(testApp.deps, owner.userId, { amount: usd('2'), currency: 'USDT' }, { idempotencyKey: 'burst-top-up' })),
    );
    expect(topUps.filter((r) => !r.replayed)).toHaveLength(1);
    for (const result of topUps) expect(result.response).toEqual(topUps[0]!.response);

    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 40_000_000n, USDT: 2_000_000n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 60_000_000n, USDT: 0n });
    expect(await prisma.agentTransaction.count({ where: { agentId: agent.agentId } })).toBe(1);
    await expectLedgerSound();
  });

  it('treat equal amounts written differently as the same request', async () => {
    const owner = await createOwner(prisma);
    const first = await topUpWallet(testApp.deps, owner.userId, { amount: usd('10'), currency: 'USDC' }, { idempotencyKey: 'same-amount' });
    const second = await topUpWallet(testApp.deps, owner.userId, { amount: usd('10.000000'), currency: 'USDC' }, { idempotencyKey: 'same-amount' });
    expect(second.response).toEqual(first.response);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 10_000_000n, USDT: 0n });
    await expectLedgerSound();
  });

  it('answer a reused key with a different body or endpoint with 409 and move nothing', async () => {
    const owner = await createOwner(prisma);
    const agent = await createAgent(prisma, owner.userId);
    await topUpWallet(testApp.deps, owner.userId, { amount: usd('10'), currency: 'USDC' }, { idempotencyKey: 'k' });
    const before = await ledgerCounts();

    expect(await errorOf(topUpWallet(testApp.deps, owner.userId, { amount: usd('11'), currency: 'USDC' }, { idempotencyKey: 'k' }))).toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      status: 409,
    });
    expect(await errorOf(topUpWallet(testApp.deps, owner.userId, { amount: usd('10'), currency: 'USDT' }, { idempotencyKey: 'k' }))).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    expect(await errorOf(fundAgent(prisma, owner.userId, { agentId: agent.agentId, amount: usd('10'), currency: 'USDC' }, { idempotencyKey: 'k' }))).toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });

    expect(await ledgerCounts()).toEqual(before);
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: 10_000_000n, USDT: 0n });
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 0n, USDT: 0n });
    await expectLedgerSound();
  });

  it('belong to one owner: another owner may use the same key for their own request', async () => {
    const alice = await createOwner(prisma);
    const bob = await createOwner(prisma);
    const a = await topUpWallet(testApp.deps, alice.userId, { amount: usd('1'), currency: 'USDC' }, { idempotencyKey: 'shared' });
    const b = await topUpWallet(testApp.deps, bob.userId, { amount: usd('2'), currency: 'USDC' }, { idempotencyKey: 'shared' });
    expect(b.replayed).toBe(false);
    expect(b.response.transaction.id).not.toBe(a.response.transaction.id);
    expect(await ownerBalances(prisma, alice.userId)).toEqual({ USDC: 1_000_000n, USDT: 0n });
    expect(await ownerBalances(prisma, bob.userId)).toEqual({ USDC: 2_000_000n, USDT: 0n });
    await expectLedgerSound();
  });

  it('store nothing for a refused request, so the same key can succeed once funds arrive', async () => {
    const owner = await createOwner(prisma);
    const agent = await createAgent(prisma, owner.userId);
    const request = { agentId: agent.agentId, amount: usd('3'), currency: 'USDC' as const };

    expect(await errorOf(fundAgent(prisma, owner.userId, request, { idempotencyKey: 'retry-me' }))).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await prisma.idempotencyRecord.count({ where: { principalId: owner.userId } })).toBe(0);

    await topUpWallet(testApp.deps, owner.userId, { amount: usd('3'), currency: 'USDC' });
    const retried = await fundAgent(prisma, owner.userId, request, { idempotencyKey: 'retry-me' });
    expect(retried.replayed).toBe(false);
    expect(await agentBalances(prisma, agent.agentId)).toEqual({ USDC: 3_000_000n, USDT: 0n });
    await expectLedgerSound();
  });
});

describe('owner isolation in the services', () => {
  it('shows each owner only their own wallet and transactions, and hides other owners’ agents', async () => {
    const alice = await createOwner(prisma, 'Alice');
    const bob = await createOwner(prisma, 'Bob');
    const aliceAgent = await createAgent(prisma, alice.userId);
    await topUpWallet(testApp.deps, alice.userId, { amount: usd('40'), currency: 'USDC' });
    await topUpWallet(testApp.deps, bob.userId, { amount: usd('5'), currency: 'USDC' });
    await fundAgent(prisma, alice.userId, { agentId: aliceAgent.agentId, amount: usd('1'), currency: 'USDC' });

    expect((await getOwnerWallet(prisma, bob.userId))?.id).toBe(bob.walletId);
    expect((await getOwnerWallet(prisma, bob.userId))?.balance_usdc).toBe(5);
    const bobTransactions = await listOwnerTransactions(prisma, bob.userId);
    expect(bobTransactions).toHaveLength(1);
    expect(bobTransactions.every((t) => t.wallet_id === bob.walletId)).toBe(true);

    const before = await ledgerCounts();
    expect(await errorOf(fundAgent(prisma, bob.userId, { agentId: aliceAgent.agentId, amount: usd('1'), currency: 'USDC' }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Agent not found',
      status: 404,
    });
    expect(await ledgerCounts()).toEqual(before);
    expect(await ownerBalances(prisma, bob.userId)).toEqual({ USDC: 5_000_000n, USDT: 0n });
    expect(await agentBalances(prisma, aliceAgent.agentId)).toEqual({ USDC: 1_000_000n, USDT: 0n });
    await expectLedgerSound();
  });

  it('has no wallet to show for an owner without one', async () => {
    const user = await prisma.user.create({ data: { email: 'no-wallet@example.test', passwordHash: 'x', fullName: 'No Wallet' } });
    expect(await getOwnerWallet(prisma, user.id)).toBeNull();
    expect(await listOwnerTransactions(prisma, user.id)).toEqual([]);
    expect(await errorOf(topUpWallet(testApp.deps, user.id, { amount: usd('1'), currency: 'USDC' }))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('recent transactions', () => {
  it('are the newest 10, newest first', async () => {
    const owner = await createOwner(prisma);
    for (let i = 1; i <= 12; i += 1) await topUpWallet(testApp.deps, owner.userId, { amount: usd(String(i)), currency: 'USDC' });

    const recent = await listOwnerTransactions(prisma, owner.userId);
    expect(recent.map((t) => t.amount)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(recent[0]).toMatchObject({ wallet_id: owner.walletId, type: 'deposit', currency: 'USDC', amount_exact: '12', to_address: null });
    expect(new Date(recent[0]!.created_at).getTime()).toBeGreaterThanOrEqual(new Date(recent[9]!.created_at).getTime());
    expect(await ownerBalances(prisma, owner.userId)).toEqual({ USDC: usd('78'), USDT: 0n });
    await expectLedgerSound();
  });
});
