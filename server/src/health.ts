/**
 * /healthz: the database answers, Temporal answers, and a worker polls the payments task
 * queue. With `deep`, a health-check workflow also runs end to end through the worker.
 */
import type { Database } from '@purser/db';

export type CheckStatus = 'up' | 'down';

export interface Check {
  status: CheckStatus;
  latencyMs: number;
  error?: string;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: { database: Check; temporal: Check; worker: Check };
}

export interface HealthChecker {
  check(options?: { deep?: boolean }): Promise<HealthReport>;
}

export interface HealthProbes {
  db: Pick<Database, 'ping'>;
  /** Resolves when the Temporal frontend answers. */
  pingTemporal(): Promise<void>;
  /** Resolves when a worker is polling the payments task queue. */
  pingWorker(): Promise<void>;
  /** Runs the health-check workflow through the worker (deep check). */
  runWorkflow(): Promise<void>;
  timeoutMs?: number;
}

export function createHealthChecker(probes: HealthProbes): HealthChecker {
  const timeoutMs = probes.timeoutMs ?? 5_000;
  return {
    async check({ deep = false } = {}) {
      const [database, temporal, worker] = await Promise.all([
        measure(() => probes.db.ping(), timeoutMs),
        measure(() => probes.pingTemporal(), timeoutMs),
        measure(async () => {
          await probes.pingWorker();
          if (deep) await probes.runWorkflow();
        }, timeoutMs),
      ]);
      const allUp = database.status === 'up' && temporal.status === 'up' && worker.status === 'up';
      return { status: allUp ? 'ok' : 'unavailable', checks: { database, temporal, worker } };
    },
  };
}

async function measure(probe: () => Promise<void>, timeoutMs: number): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
