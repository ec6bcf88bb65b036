/**
 * The ledger under load: bursts of concurrent movements on one wallet and across owners.
 * On PostgreSQL the burst runs on a client with a 30-connection pool (the adapter's pg.Pool
 * defaults to 10), and a monitor samples pg_stat_activity to show the transactions really
 * overlapped; PGlite is a single session, so there they queue.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError, parseAmount } from '@purser/core';
import { createPostgresClient, type PrismaClient } from '@purser/db';
import { testDatabaseKind } from '@purser/db/testing';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { fundAgent } from '../src/services/wallets/fund-agent';
import { topUpWallet } from '../src/services/wallets/top-up-wallet';
import { createTestApp, type TestApp } from './support/test-app';
import { agentBalances, createAgent, createOwner, ownerBalances } from './support/wallet-fixtures';

const BURST_POOL_SIZE = 30;

let testApp: TestApp;
/** The client the bursts run on: a wide pool on PostgreSQL, the test app's own on PGlite. */
let prisma: PrismaClient;

beforeAll(async () => {
  testApp = await createTestApp();
  prisma = testApp.databaseUrl
    ? createPostgresClient(testApp.databaseUrl, { max: BURST_POOL_SIZE })
    : testApp.deps.db.prisma;
});

/** The test app's deps with the burst client, for services that take deps. */
function burstDeps(): TestApp['deps'] {
  return { ...testApp.deps, db: { ...testApp.deps.db, prisma } };
}

afterAll(async () => {
  if (prisma && prisma !== testApp?.deps.db.prisma) await prisma.$disconnect();
  await testApp?.cleanup();
});

const usd = (dollars: string) => parseAmount(dollars);

async function expectLedgerSound(): Promise<void> {
  const report = await verifyLedger(prisma);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  for (const total of Object.values(report.totals)) expect(total).toBe('0');
}

/** Samples how many of the test database's sessions are inside a transaction, until stopped. */
function watchOpenTransactions(): { stop(): Promise<number> } {
  if (testDatabaseKind() !== 'postgres') return { stop: async () => 1 };
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const [row] = await testApp.deps.db.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS "n" FROM pg_stat_activity
         WHERE "datname" = current_database() AND "xact_start" IS NOT NULL AND "pid" <> pg_backend_pid()`;
      peak = Math.max(peak, row?.n ?? 0);
      await sleep(10);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

describe('concurrency', () => {
  it('lets exactly floor(balance / amount) of 200 concurrent fundings through and refuses the rest', async () => {
    const owner = await createOwner(prisma);
    const agents = [await createAgent(prisma, owner.userId), await createAgent(prisma, owner.userId)];
    const balance = usd('25.55');
    const amount = usd('0.3');
    await topUpWallet(burstDeps(), owner.userId, { amount: balance, currency: 'USDC' });
    const expectedSuccesses = Number(balance / amount); // 85, leaving 0.05

    const monitor = watchOpenTransactions();
    const started = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => fundAgent(prisma, owner.userId, { agentId: agents[i % 2]!.agentId, amount, currency: 'USDC' })),
    );
    const elapsed = Date.now() - started;
    const peak = await monitor.stop();
    console.info(`200 concurrent fundings on ${testDatabaseKind()}: ${elapsed} ms, at most ${peak} transactions open at once`);

    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(succeeded).toHaveLength(expectedSuccesses);
    expect(failed).toHaveLength(200 - expectedSuccesses);
    for (const failure of failed) {
      expect(isAppError(failure.reason) ? failure.reason.code : failure.reason).toBe('INSUFFICIENT_FUNDS');
    }

    const ownerAfter = await ownerBalances(prisma, owner.userId);
    expect(ownerAfter.USDC).toBe(balance - amount * BigInt(expectedSuccesses));
    expect(ownerAfter.USDC).toBe(50_000n);
    const agentTotal = (await agentBalances(prisma, agents[0]!.agentId)).USDC + (await agentBalances(prisma, agents[1]!.agentId)).USDC;
    expect(agentTotal).toBe(amount * BigInt(expectedSuccesses));
    expect(await prisma.ownerTransaction.count({ where: { walletId: owner.walletId, type: 'agent_funding' } })).toBe(expectedSuccesses);
    expect(await prisma.agentTransaction.count({ where: { agentId: { in: agents.map((a) => a.agentId) } } })).toBe(expectedSuccesses);
    await expectLedgerSound();

    // On PostgreSQL the burst really overlapped: many transactions were open at the same time.
    if (testDatabaseKind() === 'postgres') expect(peak).toBeGreaterThan(10);
  });

  it('keeps the ledger balanced under concurrent top-ups and fundings across owners and currencies', async () => {
    const owners = await Promise.all([createOwner(prisma), createOwner(prisma), createOwner(prisma)]);
    const agents = await Promise.all(owners.map((o) => createAgent(prisma, o.userId)));
    for (const owner of owners) {
      await topUpWallet(burstDeps(), owner.userId, { amount: usd('10'), currency: 'USDC' });
      await topUpWallet(burstDeps(), owner.userId, { amount: usd('10'), currency: 'USDT' });
    }

    const calls = Array.from({ length: 120 }, (_, i) => {
      const index = i % 3;
      const owner = owners[index]!;
      const currency = i % 4 < 2 ? ('USDC' as const) : ('USDT' as const);
      return i % 5 === 0
        ? topUpWallet(burstDeps(), owner.userId, { amount: usd('0.5'), currency })
        : fundAgent(prisma, owner.userId, { agentId: agents[index]!.agentId, amount: usd('1.1'), currency });
    });
    const results = await Promise.allSettled(calls);
    // Some fundings outran the balance: the burst tested refusals as well as movements.
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
    for (const r of results) {
      if (r.status === 'rejected') expect(isAppError(r.reason) ? r.reason.code : r.reason).toBe('INSUFFICIENT_FUNDS');
    }

    for (const [index, owner] of owners.entries()) {
      const ownerNow = await ownerBalances(prisma, owner.userId);
      const agentNow = await agentBalances(prisma, agents[index]!.agentId);
      const deposits = await prisma.ownerTransaction.groupBy({ by: ['currency'], where: { walletId: owner.walletId, type: 'deposit' }, _sum: { amount: true } });
      for (const currency of ['USDC', 'USDT'] as const) {
        const deposited = deposits.find((d) => d.currency === currency)?._sum.amount ?? 0n;
        // Nothing is created or lost: what came in is either still with the owner or with the agent.
        expect(ownerNow[currency] + agentNow[currency]).toBe(deposited);
      }
    }
    await expectLedgerSound();
  });
});

