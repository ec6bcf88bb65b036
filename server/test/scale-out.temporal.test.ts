/**
 * Scale-out (issue 28): the product as docker-compose.yml runs it, as plain processes. Two
 * servers (A, B) and two workers (W1, W2) on one PostgreSQL, one Temporal dev server and one
 * sandbox chain, each started with its service's environment from docker-compose.yml and its
 * image's ENV: A and W1 through `npm run start:server` / `npm run start:worker`, B and W2
 * through their images' CMD. Only addresses differ from compose (the test's database,
 * Temporal, chain, ports and master key file), plus the knobs named in `testKnobs`.
 *
 * 300 payments, ledger and x402 mixed, go half through A and half through B while W1 is
 * killed (SIGKILL, not restarted) halfway: every payment must end exactly once with its money
 * moved once, the ledger balanced, the audit chains sound and the chain agreeing with the
 * ledger (fault-invariants.ts); a realtime subscriber on A must see every settlement of a
 * payment made through B; and sign-in attempts from one address, split across A and B, are
 * limited as if there were one server.
 *
 * Run: PURSER_TEST_DB=postgres TEST_DATABASE_URL=... TEMPORAL_CLI_PATH=... npx vitest run --project temporal server/test/scale-out.temporal.test.ts
 * (PURSER_SCALE_OUT_LOG=<file> also writes every line the product processes print to that file).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openTestDatabase, type TestDatabase } from '@purser/db/testing';
import { ensureTemporalCli, startTemporalDevServer, type DevServer } from '@purser/workflows';
import { freePorts } from '../../scripts/lib.mjs';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { faultInvariantProblems, readChain, waitForTerminalIntents, type ChainView } from './support/fault-invariants';
import { createFundedAgents, type FundedOwner } from './support/funded-agents';
import { ProcessLogs, startProduct, waitFor, type ProductCommand, type ProductProcess } from './support/product-processes';
import { answerCounts, RetryingClient, runBurst, type PaymentRequest } from './support/retrying-client';
import { subscribeSse, type SseSubscription } from './support/sse-subscription';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAYMENTS = 300;
const AGENTS = 10;
const AGENT_FUNDING = 30;
const CONCURRENCY = 8;
/** Password sign-ins per address per window, on every server. */
const SIGN_IN_LIMIT = 6;
/** x402 authorisations stay redeemable this long: one the killed worker left unredeemed ends within the test. */
const X402_VALIDITY_SECONDS = 20;
const TERMINAL_WAIT_MS = (X402_VALIDITY_SECONDS + 40) * 1000;

const logs = new ProcessLogs(process.env.PURSER_SCALE_OUT_LOG || undefined);
const dirs: string[] = [];
const processes: ProductProcess[] = [];
let suiteDb: TestDatabase;
let temporal: DevServer;
let sandboxChain: EvmChain;
let chain: ChainView;
let masterKeyFile: string;
let servers: { a: string; b: string };
let workers: { w1: ProductProcess; w2: ProductProcess };
let owner: FundedOwner;
let crashes: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

// ---------------------------------------------------------------- compose, read as an operator would

const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { build?: { dockerfile: string }; environment: Record<string, string | number> }>;
};

/** `${NAME:-default}` as compose resolves it with NAME unset in the shell. */
function resolveDefaults(value: string | number): string {
  return String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
}

/** The image's `ENV a=b c=d` and its `CMD [...]`, from the service's Dockerfile (its last stage). */
function image(service: string): { env: Record<string, string>; cmd: string[] } {
  const dockerfile = readFileSync(path.join(ROOT, compose.services[service]!.build!.dockerfile), 'utf8');
  const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env = Object.fromEntries(
    [...lastStage.matchAll(/^ENV (.+)$/gm)].flatMap((match) => match[1]!.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
  );
  const cmd = JSON.parse(/^CMD (\[.+\])$/m.exec(lastStage)![1]!) as string[];
  return { env, cmd };
}

/** What the test changes beyond addresses: the limits it measures and the x402 window it waits out. */
const testKnobs = {
  // The sandbox paid API is on the servers' own loopback; compose's comment says to name
  // internal sellers here (ALLOW_PRIVATE_URLS stays false, as compose sets it).
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  AGENT_RATE_LIMIT_PER_MINUTE: '100000',
  AUTH_RATE_LIMIT_PER_MINUTE: String(SIGN_IN_LIMIT),
  X402_MAX_VALIDITY_SECONDS: String(X402_VALIDITY_SECONDS),
  LOG_PRETTY: 'false',
};

/** A service's environment: its image's ENV, then compose's, then this machine's addresses. */
function serviceEnv(service: 'server' | 'worker', port: number): Record<string, string> {
  const fromCompose = Object.fromEntries(Object.entries(compose.services[service]!.environment).map(([name, value]) => [name, resolveDefaults(value)]));
  const publicUrl = `http://127.0.0.1:${port}`;
  return {
    ...image(service).env,
    ...fromCompose,
    DATABASE_URL: suiteDb.databaseUrl!,
    TEMPORAL_ADDRESS: temporal.address,
    SANDBOX_CHAIN_RPC_URL: sandboxChain.rpcUrl,
    MASTER_KEY_FILE: masterKeyFile,
    HOST: '127.0.0.1',
    PORT: String(port),
    ...(service === 'server' ? { PUBLIC_URL: publicUrl } : {}),
    ...testKnobs,
  };
}

function start(name: string, service: 'server' | 'worker', port: number, command: ProductCommand): Promise<ProductProcess> {
  return startProduct(name, serviceEnv(service, port), logs, (detail) => crashes.push(detail), command).then((started) => {
    processes.push(started);
    return started;
  });
}

const npmScript = (script: string): ProductCommand => ({ argv: ['npm', 'run', '--silent', script], cwd: ROOT });
const imageCmd = (service: string): ProductCommand => ({ argv: image(service).cmd, cwd: ROOT });

// ---------------------------------------------------------------- the suite

beforeAll(async () => {
  try {
    suiteDb = await openTestDatabase();
    if (!suiteDb.databaseUrl) throw new Error('The scale-out suite runs the product as processes on PostgreSQL: set PURSER_TEST_DB=postgres');
    const dir = tempDir('purser-scale-out-');
    const cliPath = process.env.TEMPORAL_CLI_PATH ?? (await ensureTemporalCli({ log: (line) => logs.note(line) }));
    temporal = await startTemporalDevServer({ cliPath, dbFile: path.join(dir, 'temporal.db'), log: (line) => logs.note(line) });
    sandboxChain = await startChain({ sandboxPort: 0 });
    chain = readChain(sandboxChain.rpcUrl, sandboxChain.info.usdcAddress);
    masterKeyFile = path.join(dir, 'master_key');
    writeFileSync(masterKeyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });

    const [portA, portB, portW1, portW2] = (await freePorts(4)) as [number, number, number, number];
    // W1 alone first: `npm run start:*` installs and builds what is missing, which two at once
    // would do over each other. Workers before servers: /healthz waits for a polling worker.
    const w1 = await start('W1', 'worker', portW1, npmScript('start:worker'));
    // Settled, not all: one failing to start must not leave the others unstopped by afterAll.
    const [w2, ...others] = await Promise.allSettled([
      start('W2', 'worker', portW2, imageCmd('worker')),
      start('A', 'server', portA, npmScript('start:server')),
      start('B', 'server', portB, imageCmd('server')),
    ]);
    for (const result of [w2!, ...others]) if (result.status === 'rejected') throw result.reason;
    workers = { w1, w2: (w2 as PromiseFulfilledResult<ProductProcess>).value };
    servers = { a: `http://127.0.0.1:${portA}`, b: `http://127.0.0.1:${portB}` };
    for (const url of Object.values(servers)) {
      await waitFor(`${url} healthy`, async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined), 60_000);
    }
    owner = await createFundedAgents({ appUrl: servers.a, prisma: suiteDb.db.prisma, chain, count: AGENTS, funding: AGENT_FUNDING, label: 'Scale-out' });
  } catch (error) {
    console.log(logs.tail());
    throw error;
  }
}, 240_000);

beforeEach(({ onTestFailed }) => {
  crashes = [];
  onTestFailed(() => console.log(`--- product output (tail) ---\n${logs.tail()}`));
});

afterAll(async () => {
  await Promise.all(processes.map(async (product) => {
    const stopped = product.stop();
    if ((await Promise.race([stopped.then(() => true), sleep(15_000).then(() => false)])) === false) await product.kill();
  }));
  await sandboxChain?.close();
  await temporal?.stop();
  await suiteDb?.cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 90_000);

/** Settled intents as a realtime subscriber on one server sees them, read in the background. */
function watchSettlements(stream: SseSubscription): { settled: Set<string>; resyncs: number; stop(): Promise<void> } {
  const seen = { settled: new Set<string>(), resyncs: 0 };
  let stopped = false;
  const reading = (async () => {
    while (!stopped) {
      const message = (await stream.message(60_000).catch(() => null)) as { type: string; intentId?: string; status?: string } | null;
      if (message === null) return;
      // A second 'sync' means the server dropped events for this subscriber (it fell behind).
      if (message.type === 'sync') seen.resyncs++;
      else if (message.status === 'settled') seen.settled.add(message.intentId!);
    }
  })();
  return {
    settled: seen.settled,
    get resyncs() {
      return seen.resyncs;
    },
    async stop() {
      stopped = true;
      stream.close();
      await reading;
    },
  };
}

describe('two servers and two workers on one PostgreSQL and one Temporal', () => {
  it('take 300 payments through both servers while a worker is killed: each ends exactly once, and A sees what B caused', async () => {
    const clients = { a: new RetryingClient(servers.a), b: new RetryingClient(servers.b) };
    const paths = ['/weather', '/quote', '/report'] as const;
    const payments = Array.from({ length: PAYMENTS }, (_, i) => {
      // Ledger payments of $1 (every seventh $6, above the agents' $5 maximum: refusals too) and
      // x402 payments of the sandbox paid API, alternately through A and B.
      const request: PaymentRequest = i % 3 === 2 ? { kind: 'x402', path: paths[i % paths.length]! } : { kind: 'ledger', amount: i % 7 === 6 ? 6 : 1, toAddress: 'merchant-scale-out' };
      const via = i % 2 === 0 ? ('a' as const) : ('b' as const);
      return { agent: owner.agents[i % AGENTS]!, request, key: `scale-out-${i}-${randomBytes(4).toString('hex')}`, client: clients[via], via };
    });

    // The sandbox paid API's seller, which every server's x402 payments pay.
    const seller = sandboxChain.sandboxSeller!;
    const sellerBefore = await chain.usdcBalanceOf(seller);
    const stream = await subscribeSse(servers.a, 'realtime.intentChanges', { token: owner.token });
    expect(await stream.message()).toEqual({ type: 'sync' });
    const onA = watchSettlements(stream);

    const started = Date.now();
    let outstandingAtKill = 0;
    let kill: Promise<void> | undefined;
    const outcomes = await runBurst(clients.a, payments, {
      concurrency: CONCURRENCY,
      onDone: (done) => {
        if (done !== PAYMENTS / 2) return;
        outstandingAtKill = PAYMENTS - done;
        logs.note(`SIGKILL W1 (pid ${workers.w1.pid}) with ${outstandingAtKill} payments outstanding`);
        kill = workers.w1.kill();
      },
    });
    await kill;
    await waitForTerminalIntents(suiteDb.db.prisma, owner.agents.map((agent) => agent.id), TERMINAL_WAIT_MS);
    console.log(`[scale-out] ${outcomes.length} payments in ${((Date.now() - started) / 1000).toFixed(1)} s; answers ${JSON.stringify(answerCounts(outcomes))}`);

    expect(crashes, 'nothing but W1 stopped, and only when the test killed it').toEqual([]);
    expect(outstandingAtKill).toBeGreaterThan(0);
    const problems = await faultInvariantProblems({
      prisma: suiteDb.db.prisma,
      chain,
      agents: owner.agents,
      seller: { address: seller, before: sellerBefore },
      outcomes,
      earlierOutcomes: [],
    });
    expect(problems).toEqual([]);

    // Both kinds of payment settled through both servers, and W2 carried on alone.
    const settled = await suiteDb.db.prisma.paymentIntent.findMany({
      where: { agentId: { in: owner.agents.map((agent) => agent.id) }, status: 'settled' },
      select: { id: true, idempotencyKey: true, rail: true },
    });
    const viaB = new Set(payments.filter((payment) => payment.via === 'b').map((payment) => payment.key));
    const settledViaB = settled.filter((intent) => viaB.has(intent.idempotencyKey));
    const rails = (intents: typeof settled) => new Set(intents.map((intent) => intent.rail));
    expect(rails(settledViaB)).toEqual(new Set(['ledger', 'x402_base']));
    expect(rails(settled.filter((intent) => !viaB.has(intent.idempotencyKey)))).toEqual(new Set(['ledger', 'x402_base']));

    // The subscriber on A heard of every settlement caused through B (events arrive just after commit).
    await waitFor('A to tell of every settlement through B', async () => (settledViaB.every((intent) => onA.settled.has(intent.id)) ? true : undefined), 10_000).catch(() => undefined);
    await onA.stop();
    expect(settledViaB.filter((intent) => !onA.settled.has(intent.id)).map((intent) => intent.id)).toEqual([]);
    expect(onA.resyncs, 'A never dropped events for its subscriber').toBe(0);
  }, 600_000);

  it('limit one address’s sign-in attempts split across A and B as if there were one server', async () => {
    const answers: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMIT * 2; i++) {
      const url = i % 2 === 0 ? servers.a : servers.b;
      // A different unknown email each time: the per-email back-off never applies, only the address's limit.
      const response = await fetch(`${url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `nobody-${i}-${randomBytes(4).toString('hex')}@example.test`, password: 'wrong password' }),
      });
      answers.push(response.status);
    }
    expect(answers.filter((status) => status === 429)).toHaveLength(SIGN_IN_LIMIT);
    expect(answers.slice(0, SIGN_IN_LIMIT).every((status) => status !== 429)).toBe(true);
    expect(answers.slice(SIGN_IN_LIMIT).every((status) => status === 429)).toBe(true);
  }, 60_000);
});
