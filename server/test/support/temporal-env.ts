/**
 * A real Temporal dev server for a temporal suite, a real app on a real database connected
 * to it, and real payments workers: in this process (runWorker) or as separate processes of
 * the product itself (spawnWorkerProcess: `server/src/main.ts` with RUN_SERVER=false), which
 * a test can kill. The CLI comes from TEMPORAL_CLI_PATH (scripts/test.mjs) or is provided by
 * ensureTemporalCli.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import pino from 'pino';
import { createPaymentsWorker, DEFAULT_WEBHOOK_RETRY, ensureTemporalCli, startTemporalDevServer, TASK_QUEUE, type DevServer } from '@purser/workflows';
import type { EvmChain } from '../../src/services/chain/evm-chain';
import type { OutboundPolicy } from '../../src/services/outbound/outbound-policy';
import { startChain } from '../../src/services/chain/start-chain';
import type { TemporalDeps } from '../../src/deps';
import type { Tracing } from '../../src/tracing/tracing';
import { createWorkerActivities, type WorkerActivityDeps } from '../../src/worker-activities';
import { createTestApp, type TestApp } from './test-app';

const SERVER_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const log = (message: string) => process.stderr.write(`[temporal env] ${message}\n`);

export interface TemporalTestEnv {
  server: DevServer;
  client: Client;
  temporal: TemporalDeps;
  testApp: TestApp;
  /** Runs an in-process payments worker while `fn` runs. */
  runWorker<T>(fn: () => Promise<T>, options?: Partial<Pick<WorkerActivityDeps, 'sandboxSettlementDelayMs' | 'webhookTimeoutMs'>>): Promise<T>;
  /** Starts the product as a worker-only process on this database and dev server. */
  spawnWorkerProcess(env?: Record<string, string>): Promise<WorkerProcess>;
  close(): Promise<void>;
}

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** SIGKILL: the process dies wherever it is, as a crashed machine would. */
  kill(): Promise<void>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
}

export interface TemporalTestEnvOptions {
  /** False: this process's app relays no outbox rows (the product processes a test starts do). */
  outboxRelay?: boolean;
  webhookRetryInitialMs?: number;
  /** The EVM chain for x402 suites (startChain); without it the x402-base rail refuses. */
  chain?: EvmChain;
  agentRateLimitPerMinute?: number;
  /** X402_MAX_VALIDITY_SECONDS of the app and the in-process workers. */
  x402MaxValiditySeconds?: number;
  /** Where outbound requests may go (the sandbox's policy when absent). */
  outbound?: OutboundPolicy;
  /** OpenTelemetry (startTracing) for the app, the client and the in-process workers. */
  tracing?: Tracing;
  /** The dev server's dynamic config (startTemporalDevServer's `dynamicConfig`). */
  temporalDynamicConfig?: Record<string, string | number | boolean>;
  /** The app's PUBLIC_URL: where sellers fetch agents' key directories (listen on its port). */
  publicUrl?: string;
}

/**
 * Starts a dev server, and once more on fresh ports with a database file of its own if the first
 * did not start (CI once saw a start miss its minute on two cores running every suite at once).
 * The first failure is logged in full.
 */
async function startDevServerRetriedOnce(options: Parameters<typeof startTemporalDevServer>[0]): Promise<DevServer> {
  try {
    return await startTemporalDevServer(options);
  } catch (error) {
    log(`starting again: ${error instanceof Error ? error.message : String(error)}`);
    return startTemporalDevServer({ ...options, dbFile: `${options.dbFile}.again` });
  }
}

export async function startTemporalTestEnv(options: TemporalTestEnvOptions = {}): Promise<TemporalTestEnv> {
  const cliPath = process.env.TEMPORAL_CLI_PATH ?? (await ensureTemporalCli({ log }));
  const dir = mkdtempSync(join(tmpdir(), 'purser-temporal-env-'));
  const server = await startDevServerRetriedOnce({ cliPath, dbFile: join(dir, 'temporal.db'), log, ...(options.temporalDynamicConfig ? { dynamicConfig: options.temporalDynamicConfig } : {}) });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: 'default', ...(options.tracing && { interceptors: options.tracing.clientInterceptors }) });
  // The product's queue: each suite has its own dev server, and a spawned worker process polls it.
  const temporal: TemporalDeps = {
    client,
    taskQueue: TASK_QUEUE,
    webhookRetry: { ...DEFAULT_WEBHOOK_RETRY, initialIntervalMs: options.webhookRetryInitialMs ?? 200 },
  };
  const testApp = await createTestApp({
    temporal,
    chain: options.chain,
    agentRateLimitPerMinute: options.agentRateLimitPerMinute,
    x402MaxValiditySeconds: options.x402MaxValiditySeconds,
    ...(options.outbound ? { outbound: options.outbound } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.outboxRelay === false ? { outboxRelay: false } : {}),
    tracing: options.tracing,
  });
  const children = new Set<WorkerProcess>();
  // Worker processes share a chain this process owns: one killed with SIGKILL cannot stop an
  // anvil of its own, which would outlive the test.
  let workerChain: Promise<EvmChain> | undefined;
  const chainForWorkers = () => (options.chain ? Promise.resolve(options.chain) : (workerChain ??= startChain({ sandboxPort: 0 })));

  const activityDeps = (): WorkerActivityDeps => ({
    db: testApp.deps.db,
    logger: pino({ level: 'silent' }),
    masterKey: testApp.deps.masterKey,
    outbound: testApp.deps.outbound,
    temporal,
    chain: options.chain,
    x402MaxValiditySeconds: options.x402MaxValiditySeconds,
  });

  return {
    server,
    client,
    temporal,
    testApp,
    async runWorker(fn, workerOptions = {}) {
      const workerConnection = await NativeConnection.connect({ address: server.address });
      try {
        const worker = await createPaymentsWorker({
          connection: workerConnection,
          namespace: 'default',
          activities: createWorkerActivities({ ...activityDeps(), ...workerOptions }),
          taskQueue: temporal.taskQueue,
          tracing: options.tracing?.worker,
        });
        return await worker.runUntil(fn);
      } finally {
        await workerConnection.close();
      }
    },
    async spawnWorkerProcess(extraEnv = {}) {
      if (!testApp.databaseUrl) throw new Error('A worker process needs a database it can reach: run the temporal suite with PURSER_TEST_DB=postgres');
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: SERVER_ROOT,
        env: {
          ...process.env,
          RUN_SERVER: 'false',
          RUN_WORKER: 'true',
          DATABASE_URL: testApp.databaseUrl,
          TEMPORAL_ADDRESS: server.address,
          MASTER_KEY: testApp.deps.masterKey.toString('base64'),
          DATA_DIR: mkdtempSync(join(dir, 'worker-')),
          HOST: '127.0.0.1',
          PORT: '0',
          SANDBOX_CHAIN_RPC_URL: (await chainForWorkers()).rpcUrl,
          LOG_LEVEL: 'warn',
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Purser is running.')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`worker process exited with ${code} before it was running:\n${output}`)));
      });
      const handle: WorkerProcess = {
        child,
        pid: child.pid!,
        async kill() {
          child.kill('SIGKILL');
          await exited;
          children.delete(handle);
        },
        async stop() {
          child.kill('SIGTERM');
          await exited;
          children.delete(handle);
        },
      };
      children.add(handle);
      return handle;
    },
    async close() {
      for (const child of [...children]) await child.kill();
      await testApp.cleanup();
      if (workerChain) await (await workerChain).close();
      await connection.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
