/**
 * GET /balance under a fixed load of 200 requests/s, two ways, each from a child process of its
 * own so the load generator never shares the server's event loop. Each request authenticates an
 * agent and reads its ledger balances and its on-chain balances (cached per block, see
 * server/src/services/chain/network/chain-read-cache.ts). Targets: p99 ≤ 10 ms with evenly paced
 * arrivals, and the server process's CPU per paced request at most 1 ms on PostgreSQL and 2 ms on
 * PGlite (whose database runs in the server's process, on its event loop).
 *
 * - Paced (paced-load.ts), the target row: open loop at a constant arrival rate, one request
 *   every 1000 / rate ms whatever the answers, each response time recorded.
 * - Bursty (autocannon's overallRate), reported: each of its connections sends its share of
 *   the second (200 over 10 connections: 20) back to back when the second starts, then waits
 *   for the next one, so up to 10 requests arrive together; a server that cannot keep up makes
 *   it a closed loop of 10. Its figures are response times as measured, with
 *   --ignoreCoordinatedOmission: autocannon's correction records each answer with an expected
 *   interval of Math.ceil(1 / rate) = 1 ms whatever the rate (seconds taken for milliseconds),
 *   which would add a synthetic sample at every millisecond below each answer's time.
 *
 * The CPU row's floor is a bare Fastify server in the same process sending one statement per
 * request through the same driver, under the same paced load: what serving a request that reads
 * the database costs on this machine before any of Purser's work (the kernel's socket writes and
 * wake-ups, HTTP parsing, the driver, the process's idle threads).
 *
 * The rate actually achieved is in each row's detail; when it falls short of the one asked, the
 * server is saturated and the percentiles say so only in part. Rows measured on PGlite (the
 * embedded default `npm start` runs) say so in their name; the others ran on PostgreSQL.
 *
 * `npm run bench` calls measureBalance; on its own it measures on PostgreSQL, then on PGlite
 * (PostgreSQL and the Temporal CLI needed):
 *   PURSER_TEST_DB=postgres npx tsx bench/src/balance.ts [rate=200] [seconds=10]
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { cpuDuring, type CpuScope } from './cpu';
import { isEntryPoint, printMeasurements, requirePostgres } from './entry';
import { createFundedAgent, createOwner, startHarness, type Harness } from './harness';
import type { PacedLoadRequest, PacedLoadResult } from './paced-load';
import { formatNumber, percentile, TARGETS, type Measurement } from './report';
import { log } from './timing';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon');
const PACED_LOAD = fileURLToPath(new URL('./paced-load.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

export interface BalanceOptions {
  /** Requests per second, held fixed. */
  rate: number;
  seconds: number;
  /** Connections autocannon spreads the rate over (the bursty rows). */
  connections: number;
}

export interface BalanceRows {
  pacedP50: Measurement;
  pacedP99: Measurement;
  /** The server process's CPU per request under the paced load. */
  pacedCpu: Measurement;
  burstyP50: Measurement;
  burstyP99: Measurement;
}

/** The parts of autocannon's --json report read here. */
interface AutocannonReport {
  latency: { p50: number; p90: number; p99: number; max: number };
  requests: { total: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export async function measureBalance(h: Harness, { rate, seconds, connections }: BalanceOptions): Promise<BalanceRows> {
  if (!h.app) throw new Error('measureBalance needs the harness started with { app: true }');
  const on = h.database === 'pglite' ? ', PGlite' : '';
  const agent = await createFundedAgent(h, await createOwner(h), 1_000_000n);
  const url = `${h.app.url}/functions/v1/mcp-server/balance`;
  const headers = { 'x-agent-did': agent.agent.did, authorization: `Bearer ${agent.api_key.key}` };
  log(`balance${on}: warming up`);
  for (let i = 0; i < 50; i++) {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`GET /balance answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
  const row = (name: string, value: number, target: Measurement['target'], detail: string): Measurement => ({ name, value, unit: 'ms', floor: null, floorName: null, target, detail });
  // The PostgreSQL backends' share is said beside the server's (PGlite's is the server's own).
  const scope: CpuScope = h.database === 'postgres' ? { database: new URL(h.databaseUrl).pathname.slice(1) } : {};

  log(`balance${on}: ${rate} requests/s for ${seconds} s, evenly paced`);
  // A shared machine's other work shows in the tail: say how busy it was.
  const load = loadavg()[0]!;
  const warmup = Math.min(rate, 50);
  const [paced, pacedCost] = await serverCost(() => h.guard(pacedLoad({ url, headers, rate, seconds, warmup })), scope);
  if (paced.errors.length || paced.non2xx) {
    throw new Error(`GET /balance, paced: ${paced.errors.length} errors (${paced.errors.join('; ')}), ${paced.non2xx} answers other than 2xx`);
  }
  const pacedDetail =
    `${paced.latencies.length} requests, one every ${formatNumber(1000 / rate)} ms for ${seconds} s, open loop ` +
    `(${formatNumber(paced.latencies.length / (paced.elapsedMs / 1000))} req/s achieved); p90 ${formatNumber(percentile(paced.latencies, 0.9))} ms, ` +
    `max ${formatNumber(Math.max(...paced.latencies))} ms; requests issued late by p50 ${formatNumber(percentile(paced.lateness, 0.5))} ms, p99 ${formatNumber(percentile(paced.lateness, 0.99))} ms; ` +
    `load average ${formatNumber(load)} when it began; ${pacedCost.text(warmup + paced.latencies.length)}`;

  // The floor: a bare Fastify server in this same process, sending one statement per request
  // through the same driver, under the same paced load. Whatever this process spends beside
  // serving (the idle workers, the chain's poll) is in both figures.
  log(`balance${on}: the floor, a bare server sending one statement per request, ${rate} requests/s for ${seconds} s`);
  const floorServer = await bareServerWithOneStatement(h);
  let floorCost: ServerCost;
  try {
    const [floorPaced, cost] = await serverCost(() => h.guard(pacedLoad({ url: floorServer.url, headers: {}, rate, seconds, warmup })), scope);
    if (floorPaced.errors.length || floorPaced.non2xx) throw new Error(`the bare server, paced: ${floorPaced.errors.length} errors, ${floorPaced.non2xx} answers other than 2xx`);
    floorCost = cost;
  } finally {
    await floorServer.close();
  }
  const floorCpu = floorCost.cpuMs(warmup + paced.latencies.length);
  const floorDetail = `; the floor, a bare Fastify server in this process sending one statement per request through the same driver under the same paced load: ${floorCost.text(warmup + paced.latencies.length)}`;

  log(`balance${on}: ${rate} requests/s for ${seconds} s, bursty (autocannon)`);
  const [report, burstyCost] = await serverCost(
    () => h.guard(autocannon([url, '--overallRate', String(rate), '--connections', String(connections), '--duration', String(seconds), ...Object.entries(headers).flatMap(([name, value]) => ['--headers', `${name}=${value}`])])),
    scope,
  );
  if (report.errors || report.timeouts || report.non2xx) {
    throw new Error(`GET /balance under load: ${report.errors} errors, ${report.timeouts} timeouts, ${report.non2xx} answers other than 2xx`);
  }
  const burstyDetail = `${report.requests.total} requests over ${seconds} s on ${connections} connections, each connection's share of a second sent at once (${formatNumber(report.requests.total / seconds)} req/s achieved); p90 ${report.latency.p90} ms, max ${report.latency.max} ms; ${burstyCost.text(report.requests.total)}`;
  return {
    pacedP50: row(`GET /balance p50, ${rate} req/s paced${on}`, percentile(paced.latencies, 0.5), TARGETS.report, pacedDetail),
    pacedP99: row(`GET /balance p99, ${rate} req/s paced${on}`, percentile(paced.latencies, 0.99), TARGETS.balanceP99, pacedDetail),
    pacedCpu: {
      ...row(`GET /balance server process CPU per request, ${rate} req/s paced${on}`, pacedCost.cpuMs(warmup + paced.latencies.length), TARGETS.balanceCpu[h.database], pacedDetail + floorDetail),
      floor: floorCpu,
      floorName: 'a bare server, one statement per request',
    },
    burstyP50: row(`GET /balance p50, ${rate} req/s bursty${on}`, report.latency.p50, TARGETS.report, burstyDetail),
    burstyP99: row(`GET /balance p99, ${rate} req/s bursty${on}`, report.latency.p99, TARGETS.report, burstyDetail),
  };
}

/** A bare Fastify server on 127.0.0.1 whose one route sends one statement through the harness's database driver. */
async function bareServerWithOneStatement(h: Harness): Promise<{ url: string; close(): Promise<void> }> {
  const server = Fastify();
  server.get('/floor', async () => {
    const [row] = await h.db.query<{ answer: string }>('SELECT $1::text AS answer', ['floor']);
    return { answer: row?.answer };
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/floor`, close: () => server.close() };
}

/** What the server spent on a load, per request. */
interface ServerCost {
  /** This process's CPU, in ms per request: the row's figure. */
  cpuMs(requests: number): number;
  /** That, the event loop's busy time and the PostgreSQL backends' CPU, for the detail. */
  text(requests: number): string;
}

/**
 * What the server spent while `load` ran, said per request: this process's CPU (the server, and
 * the worker idling beside it; PGlite too when it is the database), how busy its event loop was
 * and, on PostgreSQL, what the bench database's backends spent (cpu.ts). The CPU depends far less
 * than the tail on what else the machine was doing; the event loop's busy time includes the
 * moments its thread waited for a core.
 */
async function serverCost<T>(load: () => Promise<T>, scope: CpuScope): Promise<[T, ServerCost]> {
  // Inside cpuDuring: its reads of /proc are not the server's.
  const { result, cpu: programs } = await cpuDuring(async () => {
    const [cpu, loop, started] = [process.cpuUsage(), performance.eventLoopUtilization(), performance.now()];
    const loaded = await load();
    return { loaded, used: process.cpuUsage(cpu), utilization: performance.eventLoopUtilization(loop).utilization, elapsed: performance.now() - started };
  }, scope);
  const { used, utilization, elapsed } = result;
  const backends = programs.programs.find(([program]) => program === 'PostgreSQL backends')?.[1];
  const cpuMs = (requests: number) => (used.user + used.system) / 1000 / requests;
  return [
    result.loaded,
    {
      cpuMs,
      text: (requests) =>
        `server process CPU ${formatNumber(cpuMs(requests))} ms per request, ` +
        `event loop busy ${formatNumber((utilization * elapsed) / requests)} ms per request (${Math.round(utilization * 100)} %)` +
        (scope.database ? `, PostgreSQL backends ${formatNumber((backends ?? 0) / requests)} ms per request` : ''),
    },
  ];
}

/** Runs paced-load.ts in a child process and parses its result. */
function pacedLoad(request: PacedLoadRequest): Promise<PacedLoadResult> {
  return runChild('paced load', [process.execPath, ['--import', TSX, PACED_LOAD, JSON.stringify(request)]]);
}

/** Runs the autocannon CLI in a child process and parses its --json report. */
function autocannon(args: string[]): Promise<AutocannonReport> {
  return runChild('autocannon', [process.execPath, [AUTOCANNON, '--json', '--no-progress', '--ignoreCoordinatedOmission', ...args]]);
}

/** Runs a load generator and parses the JSON it prints on stdout. */
function runChild<T>(what: string, [command, args]: [string, string[]]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`${what} (pid ${child.pid}) exited with ${code ?? signal}: ${stderr}`));
      try {
        resolve(JSON.parse(stdout) as T);
      } catch (error) {
        reject(new Error(`${what} printed no JSON report: ${stdout}${stderr}`, { cause: error }));
      }
    });
  });
}

if (isEntryPoint(import.meta.url)) {
  requirePostgres();
  const rate = Number(process.argv[2] ?? 200);
  const seconds = Number(process.argv[3] ?? 10);
  const rows: Measurement[] = [];
  for (const database of ['postgres', 'pglite'] as const) {
    const h = await startHarness({ app: true, database });
    try {
      const balance = await measureBalance(h, { rate, seconds, connections: 10 });
      rows.push(balance.pacedP50, balance.pacedP99, balance.pacedCpu, balance.burstyP50, balance.burstyP99);
    } finally {
      await h.close();
    }
  }
  printMeasurements(rows);
}
