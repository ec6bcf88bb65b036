/**
 * GET /balance under a fixed load: autocannon holds 200 requests/s (its overallRate) from a
 * child process of its own, so the load generator never shares the server's event loop. Each
 * request authenticates an agent and reads its ledger balances and its on-chain balances from
 * the sandbox chain. Target: p99 ≤ 10 ms.
 *
 * How autocannon holds a rate: each connection sends its share of the second (200 over 10
 * connections: 20) back to back when the second starts, then waits for the next one; a server
 * that cannot keep up makes it a closed loop of 10. The figures are response times as
 * measured, with --ignoreCoordinatedOmission: autocannon's correction records each answer
 * with an expected interval of Math.ceil(1 / rate) = 1 ms whatever the rate (seconds taken
 * for milliseconds), which would add a synthetic sample at every millisecond below each
 * answer's time. The rate actually achieved is in the row's detail; when it falls short of
 * the one asked, the server is saturated and the percentiles say so only in part.
 *
 * `npm run bench` calls measureBalance; on its own (PostgreSQL and the Temporal CLI needed):
 *   PURSER_TEST_DB=postgres npx tsx bench/src/balance.ts [rate=200] [seconds=10]
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { isEntryPoint, printMeasurements, requirePostgres } from './entry';
import { createFundedAgent, createOwner, startHarness, type Harness } from './harness';
import { formatNumber, type Measurement } from './report';
import { log } from './timing';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon');

export interface BalanceOptions {
  /** Requests per second, held fixed. */
  rate: number;
  seconds: number;
  /** Connections autocannon spreads the rate over. */
  connections: number;
}

/** The parts of autocannon's --json report read here. */
interface AutocannonReport {
  latency: { p50: number; p90: number; p99: number; max: number };
  requests: { total: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export async function measureBalance(h: Harness, { rate, seconds, connections }: BalanceOptions): Promise<{ p50: Measurement; p99: Measurement }> {
  if (!h.app) throw new Error('measureBalance needs the harness started with { app: true }');
  const agent = await createFundedAgent(h, await createOwner(h), 1_000_000n);
  const url = `${h.app.url}/functions/v1/mcp-server/balance`;
  const headers = { 'x-agent-did': agent.agent.did, authorization: `Bearer ${agent.api_key.key}` };
  log('balance: warming up');
  for (let i = 0; i < 50; i++) {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`GET /balance answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
  log(`balance: ${rate} requests/s for ${seconds} s (autocannon)`);
  const report = await h.guard(autocannon([url, '--overallRate', String(rate), '--connections', String(connections), '--duration', String(seconds), ...Object.entries(headers).flatMap(([name, value]) => ['--headers', `${name}=${value}`])]));
  if (report.errors || report.timeouts || report.non2xx) {
    throw new Error(`GET /balance under load: ${report.errors} errors, ${report.timeouts} timeouts, ${report.non2xx} answers other than 2xx`);
  }
  const detail = `${report.requests.total} requests over ${seconds} s on ${connections} connections (${formatNumber(report.requests.total / seconds)} req/s achieved); p90 ${report.latency.p90} ms, max ${report.latency.max} ms`;
  const row = (name: string, value: number, target: Measurement['target']): Measurement => ({ name, value, unit: 'ms', floor: null, floorName: null, target, detail });
  return {
    p50: row(`GET /balance p50 at ${rate} req/s`, report.latency.p50, { of: 'report' }),
    p99: row(`GET /balance p99 at ${rate} req/s`, report.latency.p99, { of: 'value', op: '<=', bound: 10 }),
  };
}

/** Runs the autocannon CLI in a child process and parses its --json report. */
function autocannon(args: string[]): Promise<AutocannonReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [AUTOCANNON, '--json', '--no-progress', '--ignoreCoordinatedOmission', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`autocannon (pid ${child.pid}) exited with ${code ?? signal}: ${stderr}`));
      try {
        resolve(JSON.parse(stdout) as AutocannonReport);
      } catch (error) {
        reject(new Error(`autocannon printed no JSON report: ${stdout}${stderr}`, { cause: error }));
      }
    });
  });
}

if (isEntryPoint(import.meta.url)) {
  requirePostgres();
  const rate = Number(process.argv[2] ?? 200);
  const seconds = Number(process.argv[3] ?? 10);
  const h = await startHarness({ app: true });
  try {
    const balance = await measureBalance(h, { rate, seconds, connections: 10 });
    printMeasurements([balance.p50, balance.p99]);
  } finally {
    await h.close();
  }
}
