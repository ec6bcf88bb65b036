/**
 * Stopping `npm start` (issue 28, "Clean shutdown"): the product started as `npm start` runs it,
 * in a process group of its own as a terminal runs it, on embedded PGlite in a fresh DATA_DIR,
 * then stopped with Ctrl-C (SIGINT to the whole group) or SIGTERM to the process alone. It exits
 * 0 within seconds, logs no warning or error, restarts nothing, and leaves no process behind
 * (its Temporal dev server and anvil included). A payment in flight at the signal completes
 * within SHUTDOWN_GRACE_MS, or, cut by it, settles once the product is started again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabaseForTool } from '@purser/db';
import { freePorts } from '../../scripts/lib.mjs';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { childrenOf, embeddedChildren, isAlive, waitFor, waitForExit } from './support/product-processes';

const ROOT = path.resolve(import.meta.dirname, '../..');
const READY_LINE = 'Purser is running.';
const START_TIMEOUT_MS = 120_000;
/** The bound for a clean stop of a product with nothing in flight. */
const STOP_WITHIN_MS = 10_000;
const AGENT_API = '/functions/v1/mcp-server';
/** pino's numeric levels: 40 warn, 50 error, 60 fatal. */
const PINO_WARN = 40;

const dirs: string[] = [];
const products: Product[] = [];

afterEach(() => {
  // A failed case must not leave its product running for the next.
  for (const product of products.splice(0)) product.killAll();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'purser-shutdown-'));
  dirs.push(dir);
  return dir;
}

interface Product {
  child: ChildProcess;
  pid: number;
  appUrl: string;
  output(): string;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Every process under it when it was running: the Temporal dev server, anvil, tsx's esbuild. */
  tree: number[];
  embedded: { temporal?: number; anvil?: number };
  killAll(): void;
}

async function start(dir: string, extraEnv: Record<string, string> = {}): Promise<Product> {
  const [port, temporalPort, temporalUiPort, chainPort] = await freePorts(4);
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    // Its own process group, as a terminal gives `npm start`: a signal to -pid is a Ctrl-C.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: String(port),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(temporalUiPort),
      SANDBOX_CHAIN_PORT: String(chainPort),
      TEMPORAL_CLI: process.env.TEMPORAL_CLI ?? process.env.TEMPORAL_CLI_PATH ?? '',
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      EVM_RPC_URL: '',
      SANDBOX_CHAIN_RPC_URL: '',
      LOG_LEVEL: 'info',
      LOG_PRETTY: 'false',
      ...extraEnv,
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid!;
  const product: Product = {
    child,
    pid,
    appUrl: '',
    output: () => output,
    exited,
    tree: [],
    embedded: {},
    killAll() {
      for (const other of product.tree.filter(isAlive)) process.kill(other, 'SIGKILL');
      if (isAlive(pid)) process.kill(-pid, 'SIGKILL');
    },
  };
  products.push(product);

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!output.includes(READY_LINE)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the product exited before it was running:\n${output}`);
    if (Date.now() > deadline) throw new Error(`no "${READY_LINE}" within ${START_TIMEOUT_MS} ms:\n${output}`);
    await sleep(100);
  }
  product.appUrl = /App:\s+(http\S+)/.exec(output)![1]!;
  product.tree = processTree(pid);
  product.embedded = embeddedChildren(pid);
  return product;
}

/** Every process under `pid`, read from /proc. */
function processTree(pid: number): number[] {
  const children = childrenOf(pid);
  return children.flatMap((child) => [child, ...processTree(child)]);
}

/** The live processes of process group `pgid`, read from /proc. */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After "pid (comm) ": state, ppid, pgrp.
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp === pgid && isAlive(Number(entry))) members.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return members;
}

/** The exit code, or a failure naming what the product wrote, when it takes longer than `ms`. */
async function exitCodeWithin(product: Product, ms: number): Promise<number | null> {
  const timeout = sleep(ms).then(() => 'timeout' as const);
  const code = await Promise.race([product.exited, timeout]);
  if (code === 'timeout') throw new Error(`the product did not exit within ${ms} ms:\n${product.output()}`);
  return code;
}

/** Log lines at warn or above (pino JSON, or the Temporal core's own console lines), and lines no clean stop writes. */
function troubleLines(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (/exited unexpectedly|second signal|restarting it in/.test(line)) return true;
    if (line.startsWith('{')) {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= PINO_WARN;
      } catch {
        return true;
      }
    }
    return /\b(WARN|ERROR|FATAL)\b|Error:/i.test(line);
  });
}

/** Each process the product ran is gone: its group, and the children it moved to groups of their own. */
async function leftBehind(product: Product): Promise<number[]> {
  // tsx's esbuild ends when its stdin closes with the product: give it a moment.
  const alive = await waitForExit(product.tree, 2_000);
  return [...new Set([...alive, ...groupMembers(product.pid)])];
}

async function expectCleanStop(product: Product, stop: () => void): Promise<void> {
  const { temporal, anvil } = product.embedded;
  expect(temporal, 'the Temporal dev server runs as a child').toBeDefined();
  expect(anvil, 'anvil runs as a child').toBeDefined();
  // What the stop writes, from the signal on: a health probe that timed out on a busy machine
  // while the product ran (CI: the Temporal probe's 800 ms) says nothing of how it stops.
  const linesBefore = product.output().split('\n').length - 1;
  stop();
  expect(await exitCodeWithin(product, STOP_WITHIN_MS), product.output()).toBe(0);
  const stopping = product.output().split('\n').slice(linesBefore).join('\n');
  expect(troubleLines(stopping), product.output()).toEqual([]);
  expect(product.output()).toContain('"msg":"stopped"');
  expect(await leftBehind(product)).toEqual([]);
  expect([temporal, anvil].filter((pid) => isAlive(pid!))).toEqual([]);
}

// ------------------------------------------------------------------ the HTTP API, as a client

async function call(product: Product, method: string, url: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(`${product.appUrl}${url}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function ok(product: Product, method: string, url: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
  const answer = await call(product, method, url, options);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

interface Agent {
  did: string;
  key: string;
}

/** An owner signed up with the first run's invitation code, and an agent funded with 50 USDC. */
async function fundedAgent(product: Product): Promise<Agent> {
  const code = /Invitation code[^:]*: (\S+)/.exec(product.output())?.[1];
  expect(code, 'the first run prints an invitation code').toBeDefined();
  const session = await ok(product, 'POST', '/auth/v1/signup', {
    body: { email: `${randomUUID()}@example.test`, password: 'correct horse battery', data: { full_name: 'Shutdown Owner', invitation_code: code } },
  });
  const owner = { authorization: `Bearer ${session.access_token as string}` };
  const created = (await ok(product, 'POST', '/api/v1/agents', { headers: owner, body: { name: 'Shutdown agent', max_transaction_amount: 25, max_daily_limit: 100 } })) as {
    agent: { id: string; did: string };
    api_key: { key: string };
  };
  await ok(product, 'POST', '/api/v1/wallet/top-up', { headers: owner, body: { amount: 100, currency: 'USDC' } });
  await ok(product, 'POST', '/api/v1/wallet/fund-agent', { headers: owner, body: { agent_id: created.agent.id, amount: 50, currency: 'USDC' } });
  return { did: created.agent.did, key: created.api_key.key };
}

const agentHeaders = (agent: Agent) => ({ 'x-agent-did': agent.did, authorization: `Bearer ${agent.key}` });

/**
 * A card payment (the sandbox card network settles SANDBOX_SETTLEMENT_DELAY_MS after authorising
 * it); resolves with its answer, or with the error of a request cut short.
 */
function payByCard(product: Product, agent: Agent, amount: number, key: string) {
  return call(product, 'POST', `${AGENT_API}/payment`, {
    headers: { ...agentHeaders(agent), 'idempotency-key': key },
    body: { amount, currency: 'USDC', to_address: 'Shutdown Test Shop', description: 'paid while the product stops', rail: 'card' },
  }).catch((error: unknown) => ({ status: 0, body: { error: String(error) } as Record<string, unknown> }));
}

function paymentStatus(product: Product, agent: Agent, key: string): Promise<string | undefined> {
  return call(product, 'GET', `${AGENT_API}/payment?idempotency_key=${key}`, { headers: agentHeaders(agent) }).then((answer) =>
    answer.status === 200 ? (answer.body.status as string) : undefined,
  );
}

/** Until the card network authorised the payment and the workflow waits for its settlement. */
async function untilInFlight(product: Product, agent: Agent, key: string): Promise<void> {
  await waitFor(`payment ${key} processing`, async () => ((await paymentStatus(product, agent, key)) === 'processing' ? true : undefined), 30_000, 50);
}

/** Each payment's status by its idempotency key, read from the files of a stopped product. */
async function intentStatuses(dir: string): Promise<Record<string, string>> {
  const db = await openDatabaseForTool({ dataDir: dir });
  try {
    const intents = await db.prisma.paymentIntent.findMany({ select: { idempotencyKey: true, status: true } });
    return Object.fromEntries(intents.map((intent) => [intent.idempotencyKey, intent.status]));
  } finally {
    await db.close();
  }
}

describe('stopping npm start', () => {
  it('exits 0 within 10 s on Ctrl-C to its process group, logging no warning, restarting nothing and leaving no process behind', async () => {
    const product = await start(dataDir());
    await expectCleanStop(product, () => process.kill(-product.pid, 'SIGINT'));
  });

  it('exits 0 on SIGTERM to the process alone, and stops its Temporal dev server and anvil itself', async () => {
    const product = await start(dataDir());
    await expectCleanStop(product, () => process.kill(product.pid, 'SIGTERM'));
  });

  it('lets a payment in flight settle within SHUTDOWN_GRACE_MS, and settles one cut by it once started again, the ledger sound', async () => {
    const dir = dataDir();

    // In the grace: the request waits for the card network, which answers 3 s after authorising.
    const first = await start(dir, { SANDBOX_SETTLEMENT_DELAY_MS: '3000' });
    const agent = await fundedAgent(first);
    const settled = payByCard(first, agent, 1, 'shutdown-in-grace');
    await untilInFlight(first, agent, 'shutdown-in-grace');
    await expectCleanStop(first, () => process.kill(-first.pid, 'SIGINT'));
    const answer = await settled;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.status).toBe('settled');

    // Past the grace: the request is cut and the process stops; the workflow waits in Temporal.
    const second = await start(dir, { SANDBOX_SETTLEMENT_DELAY_MS: '8000', SHUTDOWN_GRACE_MS: '1000' });
    const cut = payByCard(second, agent, 2, 'shutdown-past-grace');
    await untilInFlight(second, agent, 'shutdown-past-grace');
    process.kill(-second.pid, 'SIGINT');
    expect(await exitCodeWithin(second, STOP_WITHIN_MS), second.output()).toBe(0);
    expect(second.output()).toContain('requests still running after SHUTDOWN_GRACE_MS: closing their connections');
    expect(second.output()).not.toMatch(/exited unexpectedly|restarting it in|second signal|shutdown took too long/);
    expect(await leftBehind(second)).toEqual([]);
    expect((await cut).status, 'the request was cut, not answered').toBe(0);
    expect(await intentStatuses(dir)).toEqual({ 'shutdown-in-grace': 'settled', 'shutdown-past-grace': 'processing' });

    // The next start resumes its workflow, which finds the card network's answer due.
    const third = await start(dir);
    await waitFor('the cut payment settled', async () => ((await paymentStatus(third, agent, 'shutdown-past-grace')) === 'settled' ? true : undefined), 60_000);
    expect(await paymentStatus(third, agent, 'shutdown-in-grace')).toBe('settled');
    const balance = await ok(third, 'GET', `${AGENT_API}/balance`, { headers: agentHeaders(agent) });
    expect((balance as { balances: { USDC: { ledger_exact: string } } }).balances.USDC.ledger_exact).toMatch(/^47(\.0*)?$/);
    await expectCleanStop(third, () => process.kill(third.pid, 'SIGTERM'));

    const db = await openDatabaseForTool({ dataDir: dir });
    try {
      expect((await verifyLedger(db.prisma)).problems).toEqual([]);
      const intents = await db.prisma.paymentIntent.findMany({ select: { status: true, ledgerTransactions: { select: { type: true } } } });
      expect(intents).toHaveLength(2);
      for (const intent of intents) {
        expect(intent.status).toBe('settled');
        expect(intent.ledgerTransactions.map((transaction) => transaction.type).sort()).toEqual(['payment_capture', 'payment_hold']);
      }
    } finally {
      await db.close();
    }
  });
});
