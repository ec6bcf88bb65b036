/**
 * /healthz: the database answers, Temporal answers, and a worker polls the payments task
 * queue. With `deep`, a health-check workflow also runs end to end through the worker.
 * A failed check says only 'unreachable' or 'timed out': the report is served over HTTP and
 * a raw error (a connection string, a host name, a driver message) belongs in the log.
 */
import type { Database } from '@purser/db';
import type { Logger } from './logger';

export type CheckStatus = 'up' | 'down';

/** What a failed check reports; the error itself is logged. */
export type CheckError = 'unreachable' | 'timed out';

export interface Check {
  status: CheckStatus;
  latencyMs: number;
  error?: CheckError;
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
  /** Where a failed probe's real error goes. */
  logger?: Pick<Logger, 'warn'>;
}

type Component = keyof HealthReport['checks'];

class ProbeTimeout extends Error {
  override name = 'ProbeTimeout';
}

export function createHealthChecker(probes: HealthProbes): HealthChecker {
  const timeoutMs = probes.timeoutMs ?? 5_000;
  return {
    async check({ deep = false } = {}) {
      const measure = (component: Component, probe: () => Promise<void>) => measureProbe(component, probe, timeoutMs, probes.logger);
      const [database, temporal, worker] = await Promise.all([
        measure('database', () => probes.db.ping()),
        measure('temporal', () => probes.pingTemporal()),
        measure('worker', async () => {
          await probes.pingWorker();
          if (deep) await probes.runWorkflow();
        }),
      ]);
      const allUp = database.status === 'up' && temporal.status === 'up' && worker.status === 'up';
      return { status: allUp ? 'ok' : 'unavailable', checks: { database, temporal, worker } };
    },
  };
}

async function measureProbe(component: Component, probe: () => Promise<void>, timeoutMs: number, logger: HealthProbes['logger']): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProbeTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    logger?.warn({ err: error, component }, 'health check failed');
    const reported: CheckError = error instanceof ProbeTimeout ? 'timed out' : 'unreachable';
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: reported };
  } finally {
    clearTimeout(timer);
  }
}
