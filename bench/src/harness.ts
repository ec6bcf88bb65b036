/**
 * What the benchmarks run against, started in this process and stopped in reverse order:
 * a fresh PostgreSQL database (openTestDatabase), or with `{ database: 'pglite' }` the embedded
 * default `npm start` runs (PGlite on files in a temp dir), a Temporal dev server (a child process,
 * stopped by its PID), the payments worker, the floor worker (floor-workflow.ts on a task
 * queue of its own, made on the first floor workflow) and, when asked, the sandbox chain (anvil, a child process stopped by its
 * PID) and the product's HTTP server on a free loopback port.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import pino from 'pino';
import { openDatabase, type Database, type PrismaClient } from '@purser/db';
import { openTestDatabase } from '@purser/db/testing';
import { createPaymentsWorker, DEFAULT_WEBHOOK_RETRY, ensureTemporalCli, startTemporalDevServer, TASK_QUEUE } from '@purser/workflows';
import {
  buildApp,
  chooseRateLimitStore,
  createAgent,
  createEventBus,
  createHealthChecker,
  createOutboundPolicy,
  createWorkerActivities,
  findFreePort,
  fundAgent,
  startChain,
  topUpWallet,
  type AppDeps,
  type EvmChain,
  type TemporalDeps,
} from '@purser/server';
import type { FloorWorkflow } from './floor-workflow';
import { log } from './timing';

const FLOOR_TASK_QUEUE = 'bench-floor';
const FLOOR_WORKFLOWS_PATH = fileURLToPath(new URL('./floor-workflow.ts', import.meta.url));
/** An owner's sandbox money: the most one top-up may add. */
const OWNER_TOP_UP = 1_000_000_000_000n;
/** Without a chain the bench's money is still sandbox money, which only the sandbox may top up. */
const LEDGER_ONLY_SANDBOX = { info: { sandbox: true, displayName: 'Bench ledger (no chain)', network: 'eip155:84532' as const } };

export interface HarnessOptions {
  /** Start the sandbox chain and the product's HTTP server (x402, GET /balance). */
  app?: boolean;
  /**
   * 'postgres' (default): a fresh database on TEST_DATABASE_URL's server. 'pglite': what
   * `npm start` runs without DATABASE_URL, PGlite on files in this process (no URL: the
   * bare-SQL floors need PostgreSQL).
   */
  database?: 'postgres' | 'pglite';
}

export interface Harness {
  db: Database;
  prisma: PrismaClient;
  /** The test database's URL, for a second connection (the bare-SQL floor); PostgreSQL only. */
  databaseUrl: string;
  database: 'postgres' | 'pglite';
  temporal: TemporalDeps;
  masterKey: Buffer;
  /** With `app`: the product's HTTP server, its dependencies and the sandbox chain. */
  app?: { url: string; deps: AppDeps; chain: EvmChain };
  /** Runs a floor workflow (floor-workflow.ts; by default the one with one no-op activity) to completion. */
  runFloorWorkflow(workflow?: FloorWorkflow): Promise<void>;
  /** `work`, unless a worker stops on its own first (then its error), so nothing waits forever. */
  guard<T>(work: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

let runtimeInstalled = false;

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  if (!runtimeInstalled) {
    // The SDK logs every worker state change at INFO; progress here is the bench's own.
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  // Undone in reverse order whatever happens, so a failed start leaves nothing running.
  const cleanups: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`cleanup failed: ${String(error)}`);
      }
    }
  };
  try {
    const dir = mkdtempSync(join(tmpdir(), 'purser-bench-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    let chain: EvmChain | undefined;
    if (options.app) {
      log('starting the sandbox chain (anvil)');
      // With a state file, as `npm start` runs it: its transactions are journaled before they leave.
      chain = await startChain({ sandboxPort: 0, sandboxStateFile: join(dir, 'sandbox-chain.json') });
      cleanups.push(() => chain?.close());
    }
    const database = options.database === 'pglite' ? await openEmbeddedDatabase(join(dir, 'data')) : await openTestDatabase();
    cleanups.push(() => database.cleanup());
    if (options.database !== 'pglite' && !database.databaseUrl) throw new Error('Run with PURSER_TEST_DB=postgres: the benchmarks measure PostgreSQL');
    const server = await startTemporalDevServer({ cliPath: await ensureTemporalCli({ log }), dbFile: join(dir, 'temporal.db'), log });
    cleanups.push(() => server.stop());
    const connection = await Connection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const workerConnection = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => workerConnection.close());

    const db = database.db;
    const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
    const client = new Client({ connection });
    const temporal = { client, taskQueue: TASK_QUEUE, webhookRetry: DEFAULT_WEBHOOK_RETRY };
    const masterKey = Buffer.alloc(32, 7);
    const outbound = createOutboundPolicy({ allowLoopback: true });

    let app: Harness['app'];
    if (chain) {
      // The server must know its own URL before it listens: the sandbox paid API it pays is its own.
      const url = `http://127.0.0.1:${await findFreePort()}`;
      const ok = async () => {};
      const deps: AppDeps = {
        db,
        logger,
        health: createHealthChecker({ db, pingTemporal: ok, pingWorker: ok, runWorkflow: ok }),
        masterKey,
        publicUrl: url,
        events: createEventBus({ db, logger }),
        temporal,
        chain,
        agentRateLimitPerMinute: 100_000,
        // Counted where a deployment on this database counts them: on PostgreSQL, one upsert per claimed block of a hundredth of the limit (rate-limit-counters.ts).
        rateLimitStore: chooseRateLimitStore({ db, logger }),
        outbound,
      };
      cleanups.push(() => deps.events.close());
      // No reconciler: the intent-list benchmark seeds 100,000 intents that no workflow ever ran,
      // which a reconciler's pass would start workflows for (on agents without spending rules).
      const server = await buildApp({ ...deps, sandboxPaidApi: true, reconciler: false });
      cleanups.push(() => server.close());
      await server.listen({ host: '127.0.0.1', port: Number(new URL(url).port) });
      log(`product listening at ${url}`);
      app = { url, deps, chain };
    }

    // Each worker runs until the harness closes; one that stops before then fails guard().
    let closing = false;
    const running: Array<{ worker: Worker; run: Promise<void> }> = [];
    let workerGone!: (error: Error) => void;
    const gone = new Promise<never>((_, reject) => (workerGone = reject));
    gone.catch(() => {}); // observed through guard()
    const run = (worker: Worker) => {
      const ran = worker.run().then(() => {
        if (!closing) workerGone(new Error('a Temporal worker stopped during the benchmark'));
      }, (error: unknown) => workerGone(error instanceof Error ? error : new Error(String(error))));
      running.push({ worker, run: ran });
    };
    cleanups.push(async () => {
      closing = true;
      for (const { worker } of running) if (worker.getState() === 'RUNNING') worker.shutdown();
      await Promise.all(running.map(({ run: ran }) => ran));
    });

    log('creating the payments worker (bundling workflow code when no fresh bundle exists)');
    run(
      await createPaymentsWorker({
        connection: workerConnection,
        namespace: 'default',
        activities: createWorkerActivities({ db, logger, masterKey, outbound, temporal, chain }),
      }),
    );
    // The floor worker is bench-only: made on the first floor workflow, so the benchmarks that
    // run none (GET /balance) do not count its idle polling as the server process's CPU.
    let floorWorker: Promise<void> | undefined;
    const startFloorWorker = () =>
      (floorWorker ??= Worker.create({
        connection: workerConnection,
        namespace: 'default',
        taskQueue: FLOOR_TASK_QUEUE,
        workflowsPath: FLOOR_WORKFLOWS_PATH,
        activities: { async noop() {} },
      }).then(run));

    return {
      db,
      prisma: db.prisma,
      get databaseUrl(): string {
        if (!database.databaseUrl) throw new Error('This harness runs on PGlite: the bare-SQL floors need PostgreSQL');
        return database.databaseUrl;
      },
      database: options.database ?? 'postgres',
      temporal,
      masterKey,
      app,
      async runFloorWorkflow(workflow = 'oneActivityWorkflow') {
        await startFloorWorker();
        await client.workflow.execute(workflow, { taskQueue: FLOOR_TASK_QUEUE, workflowId: `bench-floor-${randomUUID()}`, args: [] });
      },
      guard: <T>(work: Promise<T>) => Promise.race([work, gone]),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** PGlite on files, migrated on open and serving its socket, as `npm start` opens it. */
async function openEmbeddedDatabase(dataDir: string): Promise<{ db: Database; databaseUrl?: string; cleanup(): Promise<void> }> {
  const db = await openDatabase({ dataDir, serveSocket: true });
  return { db, cleanup: () => db.close() };
}

/** A new owner with a wallet topped up with sandbox money; its user id. */
export async function createOwner(h: Harness): Promise<string> {
  const user = await h.prisma.user.create({ data: { email: `${randomUUID()}@bench.test`, passwordHash: 'x', fullName: 'Bench' }, select: { id: true } });
  await h.prisma.ownerWallet.create({ data: { userId: user.id } });
  await topUpWallet({ db: h.db, chain: h.app?.chain ?? LEDGER_ONLY_SANDBOX }, user.id, { amount: OWNER_TOP_UP, currency: 'USDC' });
  return user.id;
}

/** A new agent of the owner, funded from the owner's wallet with `funding` atomic units of USDC. */
export async function createFundedAgent(h: Harness, ownerId: string, funding: bigint) {
  const created = await createAgent({ db: h.db, masterKey: h.masterKey, publicUrl: h.app?.url ?? 'http://127.0.0.1:3000' }, ownerId, {
    name: 'Bench agent',
    description: '',
    max_transaction_amount: 100_000_000n,
    max_daily_limit: 1_000_000_000_000n,
  });
  const funded = await fundAgent(h.prisma, ownerId, { agentId: created.agent.id, amount: funding, currency: 'USDC' });
  return { ...created, replayed: funded.replayed };
}
