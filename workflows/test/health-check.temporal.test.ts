// Runs against a real `temporal server start-dev` (SQLite file), a real worker and a real
// database (openTestDatabase). The CLI comes from TEMPORAL_CLI_PATH (scripts/test.mjs) or
// ensureTemporalCli.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { openTestDatabase, type TestDatabase } from '@purser/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, freePorts } from '../../scripts/lib.mjs';
import { createActivities, createPaymentsWorker, ensureTemporalCli, runHealthCheck, startTemporalDevServer, WORKFLOW_NAMES, type ActivityDatabase, type DevServer } from '../src/index';
import type { healthCheckWorkflow } from '../src/workflows';

const log = (message: string) => process.stderr.write(`[temporal test] ${message}\n`);

let cliPath: string;
let dir: string;
let testDatabase: TestDatabase;
let db: ActivityDatabase;

beforeAll(async () => {
  // A first run on a fresh machine may build the CLI with Go, which takes minutes.
  cliPath = process.env.TEMPORAL_CLI_PATH ?? (await ensureTemporalCli({ log }));
  dir = mkdtempSync(join(tmpdir(), 'purser-temporal-test-'));
  // PGlite or PostgreSQL, as PURSER_TEST_DB says; the product's Database fits the activities.
  testDatabase = await openTestDatabase();
  db = testDatabase.db;
}, 15 * 60_000);

afterAll(async () => {
  await testDatabase?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a real worker on `taskQueue` while `fn` runs. */
async function withWorker<T>(server: DevServer, taskQueue: string, fn: () => Promise<T>): Promise<T> {
  const connection = await NativeConnection.connect({ address: server.address });
  try {
    const worker = await createPaymentsWorker({ connection, namespace: 'default', activities: createActivities({ db }), taskQueue, log });
    return await worker.runUntil(fn);
  } finally {
    await connection.close();
  }
}

async function connectClient(server: DevServer) {
  const connection = await Connection.connect({ address: server.address });
  return { client: new Client({ connection, namespace: 'default' }), close: () => connection.close() };
}

describe('health check workflow', () => {
  let server: DevServer;

  beforeAll(async () => {
    server = await startTemporalDevServer({ cliPath, dbFile: join(dir, 'health.db'), log });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('runs on a worker and reports that the database answered', async () => {
    const { client, close } = await connectClient(server);
    try {
      const taskQueue = `health-check-${randomUUID()}`;
      const result = await withWorker(server, taskQueue, () => runHealthCheck(client, { taskQueue }));

      expect(result.status).toBe('ok');
      expect(result.database.kind).toBe(db.kind);
      expect(result.database.latencyMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(result.database.checkedAt)).not.toBeNaN();
    } finally {
      await close();
    }
  }, 120_000);

  it('fails the workflow when the database does not answer', async () => {
    const { client, close } = await connectClient(server);
    const connection = await NativeConnection.connect({ address: server.address });
    try {
      const taskQueue = `health-check-${randomUUID()}`;
      const broken: ActivityDatabase = { kind: 'postgres', ping: () => Promise.reject(new Error('connection refused')) };
      const worker = await createPaymentsWorker({ connection, namespace: 'default', activities: createActivities({ db: broken }), taskQueue });

      await expect(worker.runUntil(runHealthCheck(client, { taskQueue }))).rejects.toThrow(/Workflow execution failed/);
    } finally {
      await connection.close();
      await close();
    }
  }, 120_000);
});

describe('temporal dev server', () => {
  it('leaves no process behind after stop()', async () => {
    const dbFile = join(dir, `stop-${randomUUID()}.db`);
    const server = await startTemporalDevServer({ cliPath, dbFile, log });
    expect(isRunning(server.pid)).toBe(true);

    await server.stop();

    expect(isRunning(server.pid)).toBe(false);
    expect(processesMentioning(dbFile)).toEqual([]);
    await server.stop(); // idempotent
  }, 120_000);

  it('reports every port it listens on, the HTTP API and metrics included, so the product can fence them off', async () => {
    const server = await startTemporalDevServer({ cliPath, dbFile: join(dir, `ports-${randomUUID()}.db`), uiPort: 0, log });
    try {
      expect(server.ports).toHaveLength(3); // front end, HTTP API, metrics (headless: no UI)
      expect(server.ports[0]).toBe(Number(server.address.split(':')[1]));
      for (const port of server.ports) {
        const socket = connect(port, '127.0.0.1');
        await once(socket, 'connect');
        socket.destroy();
      }
      // The HTTP API is the one that can signal workflows: it answers on its reported port.
      const response = await fetch(`http://127.0.0.1:${server.ports[1]}/api/v1/namespaces`);
      expect(response.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('keeps workflows in the SQLite file across a restart, and they complete afterwards', async () => {
    const dbFile = join(dir, 'restart.db');
    const taskQueue = `restart-${randomUUID()}`;
    const workflowId = `restart-${randomUUID()}`;

    // No worker polls yet, so the workflow is still running when the server stops.
    const first = await startTemporalDevServer({ cliPath, dbFile, log });
    let firstRunId: string;
    try {
      const { client, close } = await connectClient(first);
      try {
        const handle = await client.workflow.start<typeof healthCheckWorkflow>(WORKFLOW_NAMES.healthCheck, { taskQueue, workflowId });
        firstRunId = handle.firstExecutionRunId;
      } finally {
        await close();
      }
    } finally {
      await first.stop();
    }

    const second = await startTemporalDevServer({ cliPath, dbFile, log });
    try {
      const { client, close } = await connectClient(second);
      try {
        const handle = client.workflow.getHandle<typeof healthCheckWorkflow>(workflowId);
        const description = await handle.describe();
        expect(description.runId).toBe(firstRunId);
        expect(description.status.name).toBe('RUNNING');

        const result = await withWorker(second, taskQueue, () => handle.result());
        expect(result.status).toBe('ok');
      } finally {
        await close();
      }
    } finally {
      await second.stop();
    }
  }, 180_000);

  it('dies with its parent process, even when the parent is killed with SIGKILL', async () => {
    const dbFile = join(dir, `orphan-${randomUUID()}.db`);
    const parent = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/dev-server-child.ts', import.meta.url)), cliPath, dbFile], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(parent.stdout, 'data')) as [Buffer];
    const serverPid = Number(line.toString().trim());
    expect(isRunning(serverPid)).toBe(true);

    parent.kill('SIGKILL');

    await expect.poll(() => isRunning(serverPid), { timeout: 15_000, interval: 100 }).toBe(false);
    expect(processesMentioning(dbFile)).toEqual([]);
  }, 60_000);

  it('starts again on fresh ports when one it chose was taken before the CLI could bind it', async () => {
    const busy = await listenOnFreePort();
    let server: DevServer | undefined;
    try {
      const taken = (busy.address() as { port: number }).port;
      // The third port asked for (the metrics port) is one another process already holds.
      let asked = 0;
      const findPort = async () => {
        asked += 1;
        if (asked === 3) return taken;
        return freePort();
      };
      server = await startTemporalDevServer({ cliPath, dbFile: join(dir, 'retried.db'), findPort, startTimeoutMs: 30_000 });
      expect(server.ports).not.toContain(taken);
      expect(asked).toBeGreaterThan(3);
      const connection = await Connection.connect({ address: server.address });
      await connection.workflowService.describeNamespace({ namespace: 'default' });
      await connection.close();
    } finally {
      await server?.stop();
      busy.close();
    }
  }, 120_000);

  it('never hands the CLI a port already given, its own or the caller\'s, for another role', async () => {
    const [grpcPort, callerPort] = (await freePorts(2)) as [number, number];
    let server: DevServer | undefined;
    try {
      // As on a restart: the gRPC port is handed in and free again, so a search may find it;
      // so may a port the caller is about to listen on (the product's HTTP port).
      let asked = 0;
      const findPort = async () => {
        asked += 1;
        if (asked === 1) return grpcPort;
        if (asked === 2) return callerPort;
        return freePort();
      };
      const logged: string[] = [];
      server = await startTemporalDevServer({
        cliPath, dbFile: join(dir, 'distinct.db'), port: grpcPort, avoidPorts: [callerPort], findPort, startTimeoutMs: 30_000,
        log: (message) => logged.push(message),
      });
      // Started at the first attempt, not after a clash that a retry on fresh ports papered over.
      expect(logged.filter((message) => message.includes('starting again'))).toEqual([]);
      expect(new Set(server.ports).size).toBe(server.ports.length);
      expect(server.ports).not.toContain(callerPort);
      expect(server.portsByRole.grpc).toBe(grpcPort);
      expect(asked).toBe(4);
    } finally {
      await server?.stop();
    }
  }, 120_000);

  it('reports the process output when the server cannot start', async () => {
    const busy = await listenOnFreePort();
    try {
      const port = (busy.address() as { port: number }).port;
      await expect(startTemporalDevServer({ cliPath, dbFile: join(dir, 'busy.db'), port, startTimeoutMs: 30_000 })).rejects.toThrow(
        /did not start at 127\.0\.0\.1:\d+[\s\S]*output tail[\s\S]*address already in use/,
      );
      expect(processesMentioning(join(dir, 'busy.db'))).toEqual([]);
    } finally {
      busy.close();
    }
  }, 60_000);
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** PIDs whose command line mentions `text` (Linux /proc), to catch stray children. */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // exited while we looked
      }
    })
    .map(Number);
}

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

