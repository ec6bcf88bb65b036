/**
 * What a durable payment costs. The baseline is the cheapest money movement the product
 * makes, one owner -> agent funding (one database transaction under the wallet lock), measured
 * in the same run on the same database; a ledger-rail payment through paymentWorkflow (policy
 * gate, reserve, execute, capture, events, audit: about a dozen activities and their
 * transactions) is reported as a multiple of it, one at a time and as a concurrent burst.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432) and the Temporal CLI:
 *   PURSER_TEST_DB=postgres npx tsx bench/src/payments.ts [payments=30] [burst=100]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import pino from 'pino';
import { createIntentInput } from '@purser/core';
import { openTestDatabase } from '@purser/db/testing';
import { createPaymentsWorker, DEFAULT_WEBHOOK_RETRY, paymentWorkflowId, startTemporalDevServer, TASK_QUEUE } from '@purser/workflows';
import { createAgent } from '@purser/server/services/agents/create-agent';
import { createIntent } from '@purser/server/services/intents/create-intent';
import { createOutboundPolicy } from '@purser/server/services/outbound/outbound-policy';
import { fundAgent } from '@purser/server/services/wallets/fund-agent';
import { topUpWallet } from '@purser/server/services/wallets/top-up-wallet';
import { createWorkerActivities } from '@purser/server/worker-activities';
import { ensureTemporalCli } from '../../scripts/temporal-cli.mjs';

const PAYMENTS = Number(process.argv[2] ?? 30);
const BURST = Number(process.argv[3] ?? 100);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

if (process.env.PURSER_TEST_DB !== 'postgres') throw new Error('Run with PURSER_TEST_DB=postgres: payments are measured on PostgreSQL');

const dir = mkdtempSync(join(tmpdir(), 'purser-bench-'));
const database = await openTestDatabase();
const server = await startTemporalDevServer({ cliPath: await ensureTemporalCli({ log }), dbFile: join(dir, 'temporal.db'), log });
const connection = await Connection.connect({ address: server.address });
const workerConnection = await NativeConnection.connect({ address: server.address });
try {
  const db = database.db;
  const prisma = db.prisma;
  const temporal = { client: new Client({ connection }), taskQueue: TASK_QUEUE, webhookRetry: DEFAULT_WEBHOOK_RETRY };
  const masterKey = Buffer.alloc(32, 7);
  const worker = await createPaymentsWorker({
    connection: workerConnection,
    namespace: 'default',
    activities: createWorkerActivities({ db, logger: pino({ level: 'silent' }), masterKey, outbound: createOutboundPolicy({ allowLoopback: true }), temporal }),
  });

  await worker.runUntil(async () => {
    const user = await prisma.user.create({ data: { email: `${randomUUID()}@bench.test`, passwordHash: 'x', fullName: 'Bench' }, select: { id: true } });
    await prisma.ownerWallet.create({ data: { userId: user.id } });
    // No chain here: the bench's money is sandbox money, which only the sandbox may top up.
    const sandbox = { info: { sandbox: true, displayName: 'Bench ledger (no chain)', network: 'eip155:84532' as const } };
    await topUpWallet({ db, chain: sandbox }, user.id, { amount: 1_000_000_000_000n, currency: 'USDC' });
    const deps = { db, masterKey, publicUrl: 'http://127.0.0.1:3000' };
    const agent = (await createAgent(deps, user.id, { name: 'Bench agent', description: '', max_transaction_amount: 100_000_000n, max_daily_limit: 1_000_000_000_000n })).agent;
    await fundAgent(prisma, user.id, { agentId: agent.id, amount: 100_000_000_000n, currency: 'USDC' });

    const pay = async () => {
      const intent = await createIntent({ db, temporal }, { ownerId: user.id, createdBy: 'owner' }, createIntentInput.parse({ agentId: agent.id, amount: 1 }));
      await temporal.client.workflow.getHandle(paymentWorkflowId(intent.response.id)).result();
    };
    await pay(); // warm-up: workflow bundle, caches, connections

    const baseline = await timed(PAYMENTS, () => fundAgent(prisma, user.id, { agentId: agent.id, amount: 1_000_000n, currency: 'USDC' }));
    const sequential = await timed(PAYMENTS, pay);
    const burstStarted = performance.now();
    await Promise.all(Array.from({ length: BURST }, pay));
    const burstMs = performance.now() - burstStarted;

    const baselineMs = baseline / PAYMENTS;
    const paymentMs = sequential / PAYMENTS;
    const burstRate = BURST / (burstMs / 1000);
    const sequentialRate = PAYMENTS / (sequential / 1000);
    process.stdout.write(
      [
        `baseline: one funding transfer ${baselineMs.toFixed(1)} ms (mean of ${PAYMENTS})`,
        `payment through paymentWorkflow, one at a time: ${paymentMs.toFixed(1)} ms = ${(paymentMs / baselineMs).toFixed(1)}x the baseline`,
        `burst of ${BURST} concurrent payments: ${burstRate.toFixed(1)} payments/s = ${(burstRate / sequentialRate).toFixed(2)}x the one-at-a-time rate`,
        '',
      ].join('\n'),
    );
  });
} finally {
  await workerConnection.close();
  await connection.close();
  await server.stop();
  await database.cleanup();
  rmSync(dir, { recursive: true, force: true });
}

async function timed(times: number, fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < times; i++) await fn();
  return performance.now() - started;
}
