/**
 * The payments worker outlives what would otherwise end it: a worker that stops on its own is
 * replaced, and a Temporal dev server killed and started again on the same port and SQLite file
 * is reconnected to without a person. Real dev server, real worker, real database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { openTestDatabase, type TestDatabase } from '@purser/db/testing';
import { createActivities, createPaymentsWorker, ensureTemporalCli, runHealthCheck, startTemporalDevServer, type DevServer, type DevServerOptions } from '@purser/workflows';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepWorkerRunning, type RunningWorker } from '../src/keep-worker-running';

const log = (message: string) => process.stderr.write(`[keep-worker-running] ${message}\n`);
const TASK_QUEUE = 'keep-worker-running-test';

let dir: string;
let testDatabase: TestDatabase;
let options: DevServerOptions;
let server: DevServer;
let connection: Connection;
let client: Client;
let workerConnection: NativeConnection;
let running: RunningWorker;
const logged: Array<{ msg: string }> = [];

beforeAll(async () => {
  const cliPath = process.env.TEMPORAL_CLI_PATH ?? (await ensureTemporalCli({ log }));
  dir = mkdtempSync(join(tmpdir(), 'purser-keep-worker-'));
  testDatabase = await openTestDatabase();
  options = { cliPath, dbFile: join(dir, 'temporal.db'), log };
  server = await startTemporalDevServer(options);
  const { grpc, http, metrics } = server.portsByRole;
  options = { ...options, port: grpc, httpPort: http, metricsPort: metrics };
  connection = await Connection.connect({ address: server.address });
  client = new Client({ connection });
  workerConnection = await NativeConnection.connect({ address: server.address });
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as { msg: string }) });
  const activities = createActivities({ db: testDatabase.db });
  running = await keepWorkerRunning(() => createPaymentsWorker({ connection: workerConnection, namespace: 'default', activities, taskQueue: TASK_QUEUE }), logger);
});

afterAll(async () => {
  await running?.stop();
  await workerConnection?.close();
  await connection?.close();
  await server?.stop();
  await testDatabase?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('keepWorkerRunning', () => {
  it('runs workflows, and replaces a worker that stopped on its own', async () => {
    expect(await runHealthCheck(client, { taskQueue: TASK_QUEUE })).toMatchObject({ status: 'ok' });
    const first = running.current()!;
    first.shutdown(); // not through stop(): as if the SDK had ended it
    while (running.current() === first || running.current() === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running.current()!.getState()).toBe('RUNNING');
    expect(await runHealthCheck(client, { taskQueue: TASK_QUEUE })).toMatchObject({ status: 'ok' });
    expect(logged.map((line) => line.msg)).toEqual(expect.arrayContaining(['payments worker stopped on its own', 'payments worker started again']));
  });

  it('stops for good when asked to while a replacement is being created, shutting that one down', async () => {
    const activities = createActivities({ db: testDatabase.db });
    const created: Worker[] = [];
    let replacementAsked!: () => void;
    const asked = new Promise<void>((resolve) => (replacementAsked = resolve));
    let letReplacementFinish!: () => void;
    const replacementMayFinish = new Promise<void>((resolve) => (letReplacementFinish = resolve));
    const quiet = pino({ level: 'silent' });
    const kept = await keepWorkerRunning(async () => {
      if (created.length > 0) {
        replacementAsked();
        await replacementMayFinish;
      }
      const worker = await createPaymentsWorker({ connection: workerConnection, namespace: 'default', activities, taskQueue: `${TASK_QUEUE}-stop` });
      created.push(worker);
      return worker;
    }, quiet);
    created[0]!.shutdown(); // as if the SDK had ended it: a replacement is created after the back-off
    await asked;
    const stopped = kept.stop();
    letReplacementFinish();
    await stopped;
    expect(created.map((worker) => worker.getState())).toEqual(['STOPPED', 'STOPPED']);
  }, 30_000);

  it('carries on after the dev server is killed and started again on the same port and data', async () => {
    process.kill(server.pid, 'SIGKILL');
    await server.exited;
    server = await startTemporalDevServer(options);
    expect(await runHealthCheck(client, { taskQueue: TASK_QUEUE, timeout: '60 seconds' })).toMatchObject({ status: 'ok' });
  });
});
