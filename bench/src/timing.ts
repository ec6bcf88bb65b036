// Wall-clock helpers shared by the benchmarks.

/** Each call's wall-clock time in milliseconds, one call at a time. */
export async function latencies(times: number, fn: () => Promise<unknown>): Promise<number[]> {
  const elapsed: number[] = [];
  for (let i = 0; i < times; i++) elapsed.push(await timeOne(fn));
  return elapsed;
}

/**
 * Two operations timed turn about, so a slow patch of a noisy machine falls on both sides
 * rather than on whichever happened to run then.
 */
export async function pairedLatencies(times: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number[], number[]]> {
  const [first, second]: [number[], number[]] = [[], []];
  for (let i = 0; i < times; i++) {
    first.push(await timeOne(a));
    second.push(await timeOne(b));
  }
  return [first, second];
}

/** Operations per second when every task starts at once. */
export async function burstRate(tasks: Array<() => Promise<unknown>>): Promise<number> {
  const started = performance.now();
  await Promise.all(tasks.map((task) => task()));
  return tasks.length / ((performance.now() - started) / 1000);
}

async function timeOne(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Repeats a task `times` times in sequence: one client that waits for each answer. */
export function inSequence(times: number, fn: () => Promise<unknown>): () => Promise<void> {
  return async () => {
    for (let i = 0; i < times; i++) await fn();
  };
}

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
