/**
 * An open-loop load generator at a constant arrival rate, run by balance.ts as a child process
 * of its own so it never shares the server's event loop. Request i is issued at
 * start + i * 1000 / rate ms whether or not earlier ones were answered (a server that falls
 * behind gets more requests in flight, not fewer), over a keep-alive agent with no socket limit
 * that matters (a capped pool would queue requests and hide the server's time).
 *
 * Each response time runs from the moment its request was issued to the last byte of its
 * answer. How late each request was issued against its schedule (this process's own event loop
 * on a busy machine) is reported beside it, not mixed into it.
 *
 * Input: one JSON argument ({ url, headers, rate, seconds, warmup }); output: one JSON line on
 * stdout (PacedLoadResult). Node builtins only.
 */
import { Agent, request } from 'node:http';

export interface PacedLoadRequest {
  url: string;
  headers: Record<string, string>;
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** Requests sent first at the same pace and not recorded: connections, the JIT. */
  warmup: number;
}

export interface PacedLoadResult {
  /** Response times in ms, in the order the requests were issued. */
  latencies: number[];
  /** How late each request was issued against its schedule, ms. */
  lateness: number[];
  /** From the first recorded request issued to the last answer, ms. */
  elapsedMs: number;
  errors: string[];
  non2xx: number;
}

const MAX_SOCKETS = 256;

function once(agent: Agent, url: URL, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function run({ url, headers, rate, seconds, warmup }: PacedLoadRequest): Promise<PacedLoadResult> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const interval = 1000 / rate;
  const total = warmup + Math.round(rate * seconds);
  const latencies: number[] = [];
  const lateness: number[] = [];
  const errors: string[] = [];
  let non2xx = 0;
  const pending: Array<Promise<void>> = [];
  const start = performance.now();
  let firstRecorded = 0;
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const issued = performance.now();
    const recorded = i >= warmup;
    if (recorded && i === warmup) firstRecorded = issued;
    if (recorded) lateness.push(issued - due);
    const index = i - warmup;
    pending.push(
      once(agent, target, headers).then(
        ({ status, ms }) => {
          if (!recorded) return;
          latencies[index] = ms;
          if (status < 200 || status > 299) non2xx++;
        },
        (error: unknown) => {
          if (recorded) errors.push(error instanceof Error ? error.message : String(error));
        },
      ),
    );
  }
  await Promise.all(pending);
  const elapsedMs = performance.now() - firstRecorded;
  agent.destroy();
  return { latencies: latencies.filter((ms) => ms !== undefined), lateness, elapsedMs, errors: errors.slice(0, 5), non2xx };
}

const input = process.argv[2];
if (input) process.stdout.write(`${JSON.stringify(await run(JSON.parse(input) as PacedLoadRequest))}\n`);
