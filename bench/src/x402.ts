/**
 * What an agent's x402 payment through Purser costs. The baseline is the official x402 client
 * (@x402/fetch) paying the sandbox paid API directly from a wallet of its own: the 402 round
 * trip, an EIP-3009 signature and settlement on the sandbox chain, measured in the same run
 * against the same server and chain. The same paid request made by an agent through
 * POST /x402/fetch (authentication, policy gate, hold in the ledger, signing in the payment
 * workflow, the paid call, settlement, capture) is reported as a multiple of it, one at a time
 * and as a concurrent burst of payers, each paying once.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432) and the Temporal CLI; starts its own
 * sandbox chain (anvil), Temporal dev server, worker and HTTP server:
 *   PURSER_TEST_DB=postgres npx tsx bench/src/x402.ts [payments=20] [burst=10]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import pino from 'pino';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openTestDatabase } from '@purser/db/testing';
import { createPaymentsWorker, DEFAULT_WEBHOOK_RETRY, startTemporalDevServer, TASK_QUEUE } from '@purser/workflows';
import { buildApp } from '@purser/server/app';
import { createHealthChecker } from '@purser/server/health';
import { createAgent } from '@purser/server/services/agents/create-agent';
import { startChain } from '@purser/server/services/chain/start-chain';
import { createOutboundPolicy } from '@purser/server/services/outbound/outbound-policy';
import { createEventBus } from '@purser/server/services/realtime/event-bus';
import { fundAgent } from '@purser/server/services/wallets/fund-agent';
import { mirrorFundingOnChain } from '@purser/server/services/wallets/mirror-funding-on-chain';
import { topUpWallet } from '@purser/server/services/wallets/top-up-wallet';
import type { AppDeps } from '@purser/server/trpc/context';
import { createWorkerActivities } from '@purser/server/worker-activities';
import { findFreePort } from '@purser/server/services/chain/sandbox-anvil';
import { ensureTemporalCli } from '../../scripts/temporal-cli.mjs';

const PAYMENTS = Number(process.argv[2] ?? 20);
const BURST = Number(process.argv[3] ?? 10);
const WARM_UP = 2;
/** Each payer's allowance: far more than its payments of $0.005 (atomic units of USDC). */
const FUNDING = 10_000_000n;
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

if (process.env.PURSER_TEST_DB !== 'postgres') throw new Error('Run with PURSER_TEST_DB=postgres: payments are measured on PostgreSQL');

// Undone in reverse order whatever happens, so a failed start leaves nothing running.
const cleanups: Array<() => Promise<void> | void> = [];
try {
  const dir = mkdtempSync(join(tmpdir(), 'purser-bench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const chain = await startChain({ sandboxPort: 0 });
  cleanups.push(() => chain.close());
  const database = await openTestDatabase();
  cleanups.push(() => database.cleanup());
  const server = await startTemporalDevServer({ cliPath: await ensureTemporalCli({ log }), dbFile: join(dir, 'temporal.db'), log });
  cleanups.push(() => server.stop());
  const connection = await Connection.connect({ address: server.address });
  cleanups.push(() => connection.close());
  const workerConnection = await NativeConnection.connect({ address: server.address });
  cleanups.push(() => workerConnection.close());

  const db = database.db;
  const prisma = db.prisma;
  const logger = pino({ level: 'silent' });
  const temporal = { client: new Client({ connection }), taskQueue: TASK_QUEUE, webhookRetry: DEFAULT_WEBHOOK_RETRY };
  const masterKey = Buffer.alloc(32, 7);
  // The server must know its own URL before it listens: the sandbox paid API it pays is its own.
  const appUrl = `http://127.0.0.1:${await findFreePort()}`;
  const ok = async () => {};
  const deps: AppDeps = {
    db,
    logger,
    health: createHealthChecker({ db, pingTemporal: ok, pingWorker: ok, runWorkflow: ok }),
    masterKey,
    publicUrl: appUrl,
    events: createEventBus({ db, logger }),
    temporal,
    chain,
    agentRateLimitPerMinute: 100_000,
    outbound: createOutboundPolicy({ allowLoopback: true }),
  };
  cleanups.push(() => deps.events.close());
  const app = await buildApp({ ...deps, sandboxPaidApi: true });
  cleanups.push(() => app.close());
  await app.listen({ host: '127.0.0.1', port: Number(new URL(appUrl).port) });

  const worker = await createPaymentsWorker({
    connection: workerConnection,
    namespace: 'default',
    activities: createWorkerActivities({ db, logger, masterKey, outbound: deps.outbound, temporal, chain }),
  });

  await worker.runUntil(async () => {
    const quoteUrl = `${appUrl}/sandbox/paid/quote`;
    const user = await prisma.user.create({ data: { email: `${randomUUID()}@bench.test`, passwordHash: 'x', fullName: 'Bench' }, select: { id: true } });
    await prisma.ownerWallet.create({ data: { userId: user.id } });
    await topUpWallet(deps, user.id, { amount: 1_000_000_000_000n, currency: 'USDC' });

    /** The official client in a fresh wallet holding sandbox USDC: the seller's own buyer. */
    const newBuyer = async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await chain.fundSandboxAddress(account.address, FUNDING);
      const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(account) }] });
      const payingFetch = wrapFetchWithPayment(fetch, client);
      return async () => {
        const response = await payingFetch(quoteUrl);
        if (response.status !== 200) throw new Error(`The direct payment answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      };
    };

    /** An agent funded the way an owner funds one, whose funding the sandbox mirrors on chain. */
    const newAgent = async () => {
      const created = await createAgent(deps, user.id, { name: 'Bench agent', description: '', max_transaction_amount: 100_000_000n, max_daily_limit: 1_000_000_000_000n });
      const funded = await fundAgent(prisma, user.id, { agentId: created.agent.id, amount: FUNDING, currency: 'USDC' });
      await mirrorFundingOnChain(deps, { agentId: created.agent.id, amount: FUNDING, currency: 'USDC', replayed: funded.replayed });
      const headers = { 'content-type': 'application/json', 'x-agent-did': created.agent.did, authorization: `Bearer ${created.api_key.key}` };
      return async () => {
        const response = await fetch(`${appUrl}/functions/v1/mcp-server/x402/fetch`, { method: 'POST', headers, body: JSON.stringify({ url: quoteUrl }) });
        const text = await response.text();
        const upstream = response.status === 200 ? (JSON.parse(text) as { status?: number; payment?: unknown }) : undefined;
        if (upstream?.status !== 200 || !upstream.payment) throw new Error(`The payment through Purser answered ${response.status}: ${text}`);
      };
    };

    const direct = await newBuyer();
    const throughPurser = await newAgent();
    const [directBurst, purserBurst] = [await Promise.all(Array.from({ length: BURST }, newBuyer)), await Promise.all(Array.from({ length: BURST }, newAgent))];
    log('set up; warming up');
    for (let i = 0; i < WARM_UP; i++) {
      await direct();
      await throughPurser();
    }

    log(`${PAYMENTS} payments each way, one at a time`);
    const directMs = await latencies(PAYMENTS, direct);
    const purserMs = await latencies(PAYMENTS, throughPurser);
    log(`bursts of ${BURST} payers`);
    const directRate = await burstRate(directBurst);
    const purserRate = await burstRate(purserBurst);

    const [directMedian, purserMedian] = [percentile(directMs, 0.5), percentile(purserMs, 0.5)];
    process.stdout.write(
      [
        `baseline: the official x402 client paying directly, one at a time: median ${directMedian.toFixed(1)} ms, p95 ${percentile(directMs, 0.95).toFixed(1)} ms (${PAYMENTS} payments)`,
        `an agent paying through Purser (POST /x402/fetch), one at a time: median ${purserMedian.toFixed(1)} ms, p95 ${percentile(purserMs, 0.95).toFixed(1)} ms = ${(purserMedian / directMedian).toFixed(1)}x the baseline's median`,
        `burst of ${BURST} payers paying at once: directly ${directRate.toFixed(1)} payments/s, through Purser ${purserRate.toFixed(1)} payments/s = ${(purserRate / directRate).toFixed(2)}x the direct rate`,
        '',
      ].join('\n'),
    );
  });
} finally {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      log(`cleanup failed: ${String(error)}`);
    }
  }
}

/** Each call's wall-clock time in milliseconds. */
async function latencies(times: number, fn: () => Promise<void>): Promise<number[]> {
  const elapsed: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await fn();
    elapsed.push(performance.now() - started);
  }
  return elapsed;
}

/** Payments per second when every payer pays once, all at the same time. */
async function burstRate(payers: Array<() => Promise<void>>): Promise<number> {
  const started = performance.now();
  await Promise.all(payers.map((pay) => pay()));
  return payers.length / ((performance.now() - started) / 1000);
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}
