/**
 * The payments fault suite (issue 16): the product runs as real processes on PostgreSQL, a
 * server P (which starts the embedded Temporal dev server and the sandbox chain, anvil, as its
 * children) and a worker W, and a retrying client sends bursts of ledger and x402 payments
 * from several funded agents while one part fails: W or P killed, Temporal or anvil killed
 * under P's supervisor, PostgreSQL's connections dropped. After each fault every payment must
 * have ended exactly once with its money moved once, the ledger balanced with no hold left
 * open, the audit chains sound, and the chain agreeing with the ledger on every x402 payment
 * (fault-invariants.ts). The processes and agents are shared by the cases, in this order, so
 * the faults that need no supervisor come first. A last test checks /healthz of an all-in-one
 * product while its embedded children are killed and restarted.
 *
 * Run: PURSER_TEST_DB=postgres TEMPORAL_CLI_PATH=... npx vitest run --project temporal server/test/faults.temporal.test.ts
 * (PURSER_FAULTS_LOG=<file> also writes every line the product processes print to that file).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Address } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@purser/db';
import { openTestDatabase, type TestDatabase } from '@purser/db/testing';
import { freePorts } from '../../scripts/lib.mjs';
import { faultInvariantProblems, readChain, waitForTerminalIntents, type ChainView } from './support/fault-invariants';
import { createFundedAgents, type PayingAgent } from './support/funded-agents';
import { embeddedChildren, isAlive, ProcessLogs, startProduct, waitFor, waitForExit, type ProductProcess } from './support/product-processes';
import { answerCounts, answerTrail, RetryingClient, runBurst, type ClientAgent, type PaymentOutcome, type PaymentRequest } from './support/retrying-client';

const USDC_ADDRESS: Address = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
/** anvil's second dev account: the sandbox paid API's seller. */
const SANDBOX_SELLER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OPERATOR_TOKEN = 'operator-token-of-the-fault-suite-0123456789';
/** The observer's connections carry this name, so dropping the product's connections spares them. */
const OBSERVER_APP_NAME = 'purser-fault-suite-observer';
const AGENT_FUNDING = 60;
const BURST_SIZE = 24;
const CONCURRENCY = 8;
/** The fault starts once this many payments of the burst have their final answer. */
const FAULT_AFTER = 4;
/** x402 authorisations stay redeemable this long: one left unredeemed by a fault is released within the case. */
const X402_VALIDITY_SECONDS = 20;
/** Long enough for an unredeemed authorisation's window to close and its hold to be released. */
const TERMINAL_WAIT_MS = (X402_VALIDITY_SECONDS + 25) * 1000;

/** PURSER_FAULTS_LOG=<file> keeps every line of the product processes there, not only the tail printed on failure. */
const logs = new ProcessLogs(process.env.PURSER_FAULTS_LOG || undefined);
const dirs: string[] = [];
let suiteDb: TestDatabase;
let observer: Database;
let ports: { app: number; temporal: number; chain: number };
let masterKey: string;
let serverProcess: ProductProcess;
let workerProcess: ProductProcess;
/** Every embedded child seen, so none outlives the suite whatever a case did. */
const seenChildren = new Set<number>();
let appUrl: string;
let client: RetryingClient;
let chain: ChainView;
let sellerBefore: bigint;
const agents: PayingAgent[] = [];
const allOutcomes: PaymentOutcome[] = [];
/** Exits of P or W that the test did not cause, in the case running now. */
let crashes: string[] = [];
/** The burst under way: a crash ends it at once, since its payments could only wait. */
let burstGiveUp: AbortController | undefined;

function crashed(detail: string): void {
  crashes.push(detail);
  logs.note(`CRASH: ${detail}`);
  burstGiveUp?.abort();
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** P: the API server, starting the Temporal dev server and anvil as its children; no worker. */
function serverEnv(dataDir: string): Record<string, string> {
  return {
    RUN_SERVER: 'true',
    RUN_WORKER: 'false',
    DATABASE_URL: suiteDb.databaseUrl!,
    TEMPORAL_ADDRESS: '',
    TEMPORAL_CLI: process.env.TEMPORAL_CLI_PATH ?? '',
    TEMPORAL_PORT: String(ports.temporal),
    TEMPORAL_UI_PORT: '0',
    SANDBOX_CHAIN_PORT: String(ports.chain),
    SANDBOX_CHAIN_RPC_URL: '',
    EVM_RPC_URL: '',
    HOST: '127.0.0.1',
    PORT: String(ports.app),
    PUBLIC_URL: '',
    DATA_DIR: dataDir,
    MASTER_KEY: masterKey,
    MASTER_KEY_FILE: '',
    OPERATOR_TOKEN,
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    AGENT_RATE_LIMIT_PER_MINUTE: '100000',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    X402_MAX_VALIDITY_SECONDS: String(X402_VALIDITY_SECONDS),
  };
}

/** W: the payments worker alone, on P's Temporal and chain. */
function workerEnv(dataDir: string): Record<string, string> {
  return {
    ...serverEnv(dataDir),
    RUN_SERVER: 'false',
    RUN_WORKER: 'true',
    TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
    SANDBOX_CHAIN_RPC_URL: `http://127.0.0.1:${ports.chain}`,
    PORT: '0',
  };
}

let serverDir: string;
let workerDir: string;

async function startServer(): Promise<ProductProcess> {
  const started = await startProduct('P', serverEnv(serverDir), logs, crashed);
  rememberChildren(started.pid);
  return started;
}

async function startWorker(): Promise<ProductProcess> {
  return startProduct('W', workerEnv(workerDir), logs, crashed);
}

function rememberChildren(pid: number): void {
  const { temporal, anvil } = embeddedChildren(pid);
  for (const child of [temporal, anvil]) if (child) seenChildren.add(child);
}

/** An owner with `count` funded agents, signed up through P. */
async function createAgents(count: number): Promise<void> {
  const owner = await createFundedAgents({ appUrl, prisma: observer.prisma, chain, count, funding: AGENT_FUNDING, label: 'Fault Suite' });
  agents.push(...owner.agents);
}

/**
 * A case's payments: ledger payments of $1 (every seventh $6, above the agents' $5 maximum, so
 * refusals are in the mix too) and x402 payments of the three sandbox endpoints, round robin over the agents.
 */
function burstPayments(caseName: string): Array<{ agent: ClientAgent; request: PaymentRequest; key: string }> {
  const paths = ['/weather', '/quote', '/report'] as const;
  return Array.from({ length: BURST_SIZE }, (_, i) => {
    const request: PaymentRequest =
      i % 3 === 2 ? { kind: 'x402', path: paths[Math.floor(i / 3) % paths.length]! } : { kind: 'ledger', amount: i % 7 === 6 ? 6 : 1, toAddress: 'merchant-faults' };
    return { agent: agents[i % agents.length]!, request, key: `${caseName}-${i}-${randomBytes(4).toString('hex')}` };
  });
}

/**
 * Sends a burst and starts `fault` once FAULT_AFTER payments are done, while the rest are in
 * flight; waits for both, then for every intent to end, and checks the invariants.
 */
async function burstWithFault(caseName: string, fault: () => Promise<void>): Promise<void> {
  const started = Date.now();
  const payments = burstPayments(caseName);
  let faultRun: Promise<void> | undefined;
  let outstandingAtFault = 0;
  // A fault that failed (the product did not come back) or a crash ends the burst at once: the case failed.
  const giveUp = new AbortController();
  burstGiveUp = giveUp;
  const outcomes = await runBurst(client, payments, {
    concurrency: CONCURRENCY,
    signal: giveUp.signal,
    onDone: (done) => {
      if (done === FAULT_AFTER) {
        outstandingAtFault = payments.length - done;
        logs.note(`${caseName}: fault starts with ${outstandingAtFault} payments outstanding`);
        faultRun = fault();
        faultRun.catch(() => giveUp.abort());
      }
    },
  });
  burstGiveUp = undefined;
  const earlierOutcomes = [...allOutcomes];
  // Payments a crash stopped before their first attempt were never sent.
  allOutcomes.push(...outcomes.filter((outcome) => outcome.attempts.length > 0));
  // The fault finishes (a restart under way) before anything is judged, so no case overlaps the next.
  const faultError: unknown = await faultRun?.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(crashes, 'P and W stay up through the fault').toEqual([]);
  if (faultError) throw faultError;
  const burstSeconds = (Date.now() - started) / 1000;
  await waitForTerminalIntents(observer.prisma, agents.map((agent) => agent.id), TERMINAL_WAIT_MS);
  console.log(
    `[faults] ${caseName}: ${outcomes.length} payments in ${burstSeconds.toFixed(1)} s, all ended after ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      `answers ${JSON.stringify(answerCounts(outcomes))}`,
  );
  for (const outcome of outcomes.filter((each) => each.attempts.length > 1 || each.final?.status !== 200)) {
    const refusal = (outcome.final?.body.error as { message?: string } | undefined)?.message;
    console.log(`[faults]   ${outcome.request.kind} ${outcome.key}: ${answerTrail(outcome)}${refusal ? ` (${refusal})` : ''}`);
  }
  // The fault must have met payments in flight, or the case proved nothing.
  expect(outstandingAtFault).toBeGreaterThan(0);
  const problems = await faultInvariantProblems({ prisma: observer.prisma, chain, agents, seller: { address: SANDBOX_SELLER, before: sellerBefore }, outcomes, earlierOutcomes });
  expect(problems).toEqual([]);
}

/**
 * A case starts from a working product: P answers and W's worker polls. A process that crashed
 * in an earlier case (which failed for it) is started again, so this case tests its own fault.
 */
async function expectProductServing(): Promise<void> {
  crashes = [];
  if (!isAlive(serverProcess.pid)) {
    logs.note('P is not running after the last case: starting it again');
    serverProcess = await startServer();
  }
  if (!isAlive(workerProcess.pid)) {
    logs.note('W is not running after the last case: starting it again');
    workerProcess = await startWorker();
  }
  const health = await waitFor('P healthy', async () => ((await fetch(`${appUrl}/healthz`)).status === 200 ? true : undefined), 30_000);
  expect(health).toBe(true);
}

beforeAll(async () => {
  try {
    suiteDb = await openTestDatabase();
    if (!suiteDb.databaseUrl) throw new Error('The fault suite runs the product as processes on PostgreSQL: set PURSER_TEST_DB=postgres');
    const observerUrl = new URL(suiteDb.databaseUrl);
    observerUrl.searchParams.set('application_name', OBSERVER_APP_NAME);
    observer = await openDatabase({ databaseUrl: observerUrl.toString(), dataDir: '', migrate: false });
    const [app, temporal, chainPort] = (await freePorts(3)) as [number, number, number];
    ports = { app, temporal, chain: chainPort };
    masterKey = randomBytes(32).toString('base64');
    serverDir = tempDir('purser-faults-server-');
    workerDir = tempDir('purser-faults-worker-');
    appUrl = `http://127.0.0.1:${ports.app}`;
    serverProcess = await startServer();
    workerProcess = await startWorker();
    client = new RetryingClient(appUrl);
    chain = readChain(`http://127.0.0.1:${ports.chain}`, USDC_ADDRESS);
    sellerBefore = await chain.usdcBalanceOf(SANDBOX_SELLER);
    await createAgents(4);
  } catch (error) {
    console.log(logs.tail());
    throw error;
  }
}, 180_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.log(`--- product output (tail) ---\n${logs.tail()}`));
});

afterAll(async () => {
  for (const product of [workerProcess, serverProcess]) {
    if (!product) continue;
    const stopped = product.stop();
    if ((await Promise.race([stopped.then(() => true), sleep(15_000).then(() => false)])) === false) await product.kill();
  }
  // A child that outlived its product is the product's bug (reported by the cases); it must not outlive the suite.
  for (const pid of seenChildren) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await observer?.close();
  await suiteDb?.cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('payments under faults (P server, W worker, PostgreSQL)', () => {
  it('keeps every payment exactly once when the worker process is killed mid-burst and restarted', async () => {
    await expectProductServing();
    await burstWithFault('worker-killed', async () => {
      logs.note(`SIGKILL W (pid ${workerProcess.pid})`);
      await workerProcess.kill();
      await sleep(1_500);
      workerProcess = await startWorker();
      logs.note(`W restarted (pid ${workerProcess.pid})`);
    });
  });

  it('keeps every payment exactly once when the server process is killed mid-burst, its Temporal and anvil with it, and the worker reconnects by itself', async () => {
    await expectProductServing();
    const workerPid = workerProcess.pid;
    await burstWithFault('server-killed', async () => {
      const children = embeddedChildren(serverProcess.pid);
      expect(children.temporal, 'P runs the Temporal dev server').toBeDefined();
      expect(children.anvil, 'P runs anvil').toBeDefined();
      logs.note(`SIGKILL P (pid ${serverProcess.pid}); its children ${JSON.stringify(children)}`);
      await serverProcess.kill();
      // They hold the ports P listens on when it starts again: they must end with P.
      expect(await waitForExit([children.temporal!, children.anvil!], 15_000), 'children still alive after P died').toEqual([]);
      serverProcess = await startServer();
      logs.note(`P restarted (pid ${serverProcess.pid})`);
    });
    // Nobody restarted W: the same process carried on once P was back.
    expect(workerProcess.pid).toBe(workerPid);
    expect(isAlive(workerPid)).toBe(true);
    expect(logs.matching(/payments worker stopped unexpectedly/)).toEqual([]);
  });

  it('keeps every payment exactly once when PostgreSQL drops every connection of the product for three seconds', async () => {
    await expectProductServing();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres' });
    await admin.connect();
    const database = new URL(suiteDb.databaseUrl!).pathname.slice(1);
    try {
      await burstWithFault('database-dropped', async () => {
        const until = Date.now() + 3_000;
        let terminated = 0;
        while (Date.now() < until) {
          const result = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> $2`,
            [database, OBSERVER_APP_NAME],
          );
          terminated += result.rowCount ?? 0;
          await sleep(50);
        }
        logs.note(`terminated ${terminated} database connections in 3 s`);
        expect(terminated).toBeGreaterThan(0);
      });
    } finally {
      await admin.end();
    }
  });

  it('keeps every payment exactly once when the Temporal dev server is killed mid-burst and P restarts it', async () => {
    await burstKillingChild('temporal');
  });

  it('keeps every payment exactly once, and the chain in step with the ledger, when anvil is killed mid-burst and P restarts it', async () => {
    await burstKillingChild('anvil');
  });
});

/** A burst during which P's embedded child dies and P's supervisor, not the test, restarts it. */
async function burstKillingChild(which: 'temporal' | 'anvil'): Promise<void> {
  await expectProductServing();
  let killed = 0;
  await burstWithFault(`${which}-killed`, async () => {
    killed = await killEmbeddedChild(which);
    await waitForRestartedChild(which, killed);
  });
  expectRestartLogged(killed);
}

/** SIGKILL to P's embedded child, as a crash (the OOM killer, a segfault) would end it. */
async function killEmbeddedChild(which: 'temporal' | 'anvil'): Promise<number> {
  const pid = embeddedChildren(serverProcess.pid)[which];
  expect(pid, `P's ${which} child`).toBeDefined();
  logs.note(`SIGKILL ${which} (pid ${pid})`);
  process.kill(pid!, 'SIGKILL');
  return pid!;
}

/** The supervisor's replacement: a new child of P of the same kind. No action of the test. */
async function waitForRestartedChild(which: 'temporal' | 'anvil', killed: number): Promise<void> {
  const pid = await waitFor(
    `P restarts ${which}`,
    async () => {
      const current = embeddedChildren(serverProcess.pid)[which];
      return current !== undefined && current !== killed ? current : undefined;
    },
    60_000,
  );
  seenChildren.add(pid);
  logs.note(`${which} restarted by P (pid ${pid})`);
}

/** The supervisor logs each restart with its cause: the PID that died and the signal. */
function expectRestartLogged(killed: number): void {
  const lines = logs.matching(new RegExp(`\\b${killed}\\b.*SIGKILL|SIGKILL.*\\b${killed}\\b`));
  expect(lines.some((line) => /restart/i.test(line)), `a restart line naming pid ${killed} and SIGKILL`).toBe(true);
}

describe('/healthz of an all-in-one product while its embedded children die', () => {
  let database: TestDatabase | undefined;
  let product: ProductProcess | undefined;

  afterAll(async () => {
    if (product) {
      const children = embeddedChildren(product.pid);
      await product.stop();
      for (const pid of [children.temporal, children.anvil]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    await database?.cleanup();
  }, 60_000);

  it('answers 503 within a second of the Temporal dev server or anvil dying, and 200 again once P restarted it', async () => {
    database = await openTestDatabase();
    const [appPort, temporalPort, chainPort] = await freePorts(3);
    const env = {
      ...serverEnv(tempDir('purser-faults-all-in-one-')),
      RUN_WORKER: 'true',
      DATABASE_URL: database.databaseUrl!,
      PORT: String(appPort),
      TEMPORAL_PORT: String(temporalPort),
      SANDBOX_CHAIN_PORT: String(chainPort),
    };
    product = await startProduct('A', env, logs);
    const healthz = `http://127.0.0.1:${env.PORT}/healthz`;
    const checkStatus = async () => {
      const response = await fetch(healthz, { signal: AbortSignal.timeout(2_000) });
      return { status: response.status, checks: ((await response.json()) as { checks: Record<string, { status: string }> }).checks };
    };
    expect((await checkStatus()).status).toBe(200);

    for (const [which, check] of [['temporal', 'temporal'], ['anvil', 'chain']] as const) {
      const pid = embeddedChildren(product.pid)[which];
      expect(pid, `A's ${which} child`).toBeDefined();
      seenChildren.add(pid!);
      logs.note(`SIGKILL A's ${which} (pid ${pid})`);
      process.kill(pid!, 'SIGKILL');
      const killedAt = performance.now();
      let down: { status: number; checks: Record<string, { status: string }> } | undefined;
      // A 503 for another reason (the worker, still finding the restarted Temporal) is not this one.
      while (!down && performance.now() - killedAt < 5_000) {
        const answer = await checkStatus().catch(() => undefined);
        if (answer?.status === 503 && answer.checks[check]?.status === 'down') down = answer;
        else await sleep(100);
      }
      const reportedAfterMs = performance.now() - killedAt;
      console.log(`[faults] /healthz after ${which} was killed: ${down ? `503 after ${Math.round(reportedAfterMs)} ms` : 'no 503 within 5 s'}`);
      expect(down, `503 naming ${check} down after ${which} was killed`).toBeDefined();
      // Issue 16 requires it: a load balancer must see the product unhealthy within one second of the child dying.
      expect(reportedAfterMs).toBeLessThanOrEqual(1_000);

      const up = await waitFor(
        `/healthz 200 again after ${which} died`,
        async () => {
          const answer = await checkStatus().catch(() => undefined);
          return answer?.status === 200 ? answer : undefined;
        },
        60_000,
        100,
      );
      console.log(`[faults] /healthz 200 again ${Math.round(performance.now() - killedAt)} ms after ${which} was killed`);
      expect(Object.keys(up.checks).sort()).toEqual(['chain', 'database', 'temporal', 'webhooks', 'worker']);
      const restarted = embeddedChildren(product.pid)[which];
      expect(restarted).toBeDefined();
      expect(restarted).not.toBe(pid);
      seenChildren.add(restarted!);
    }
  });
});
