/**
 * /healthz (and the status page's `health.get`): the database answers, Temporal answers, a
 * worker polls the payments task queue, the sandbox chain answers (when this product runs it),
 * and how many webhook deliveries wait for their receivers. With `deep`, a health-check
 * workflow also runs end to end through the worker.
 *
 * Started (`start()`, as the runtime does), the probes run in the background, each every
 * `intervalMs` with its own timeout, and a report is read from their latest results at once: it
 * answers in bounded time whatever is down. The state of a supervised child (the embedded
 * Temporal dev server, the sandbox chain) is read live, so the moment one exits the report says
 * so, and it says up again once the supervisor has restarted it and its probe answered.
 * Not started (tests), every check probes anew.
 *
 * A failed check says only 'unreachable', 'timed out', 'restarting' or 'gave up': the report is
 * served over HTTP and a raw error (a connection string, a host name, a driver message) belongs
 * in the log.
 */
import type { Database } from '@purser/db';
import type { Logger } from './logger';
import type { SupervisedState } from './supervisor';

export type CheckStatus = 'up' | 'down';

/** What a failed check reports; the error itself is logged. */
export type CheckError = 'unreachable' | 'timed out' | 'restarting' | 'gave up';

export interface Check {
  status: CheckStatus;
  /** How long the latest probe took. */
  latencyMs: number;
  error?: CheckError;
  /** A supervised child: how often it was restarted since the product started. */
  restarts?: number;
}

/** Webhook deliveries not yet delivered (first attempts and retries): a receiver may be down. */
export interface WebhookBacklog {
  pending: number;
  /** Age of the oldest one; null when none waits. */
  oldestPendingSeconds: number | null;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: {
    database: Check;
    temporal: Check;
    worker: Check;
    /** Only when this product runs the sandbox chain. */
    chain?: Check;
    /** Informational: receivers' outages are theirs, so a backlog never makes the product unavailable. */
    webhooks?: Check & Partial<WebhookBacklog>;
  };
}

export interface HealthChecker {
  check(options?: { deep?: boolean }): Promise<HealthReport>;
}

/** A checker whose probes can run in the background. */
export interface HealthMonitor extends HealthChecker {
  /** Starts the background probes; resolves once each has a first result. */
  start(): Promise<void>;
  stop(): void;
}

/** What `state()` a supervised child is in, read on every report. */
export interface SupervisedStatus {
  state(): SupervisedState;
  restarts(): number;
}

export interface HealthProbes {
  db: Pick<Database, 'ping'>;
  /** Resolves when the Temporal frontend answers. */
  pingTemporal(): Promise<void>;
  /** Resolves when a worker is polling the payments task queue. */
  pingWorker(): Promise<void>;
  /** Runs the health-check workflow through the worker (deep check). */
  runWorkflow(): Promise<void>;
  /** Resolves when the sandbox chain answers; absent when this product runs no sandbox chain. */
  pingChain?(): Promise<void>;
  /** Counts the webhook deliveries still waiting. */
  webhookBacklog?(): Promise<WebhookBacklog>;
  /** The embedded children's supervisors. */
  supervised?: { temporal?: SupervisedStatus; chain?: SupervisedStatus };
  /** Each probe's time limit. */
  timeoutMs?: number;
  /** Once started, how often each probe runs. */
  intervalMs?: number;
  /** Where a failed probe's real error goes. */
  logger?: Pick<Logger, 'warn'>;
}

type Component = keyof HealthReport['checks'];

/** Below /healthz's promise of an answer within 1 s, for a caller that probes unstarted. */
const DEFAULT_TIMEOUT_MS = 800;
const DEFAULT_INTERVAL_MS = 1_000;
/** The deep check runs a workflow: the operator asks for it and waits longer. */
const DEEP_TIMEOUT_MS = 5_000;

class ProbeTimeout extends Error {
  override name = 'ProbeTimeout';
}

interface Probe {
  component: Component;
  run(): Promise<Partial<WebhookBacklog> | void>;
}

export function createHealthChecker(probes: HealthProbes): HealthMonitor {
  const timeoutMs = probes.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const intervalMs = probes.intervalMs ?? DEFAULT_INTERVAL_MS;
  const list: Probe[] = [
    { component: 'database', run: () => probes.db.ping() },
    { component: 'temporal', run: () => probes.pingTemporal() },
    { component: 'worker', run: () => probes.pingWorker() },
  ];
  if (probes.pingChain) list.push({ component: 'chain', run: probes.pingChain });
  if (probes.webhookBacklog) list.push({ component: 'webhooks', run: probes.webhookBacklog });

  const latest = new Map<Component, Check>();
  const timers = new Set<NodeJS.Timeout>();
  let started: Promise<void> | undefined;
  let stopped = false;

  // A dependency that stays down is logged when it goes down, not on every probe.
  const probeOnce = async (probe: Probe) => {
    const wasUp = latest.get(probe.component)?.status !== 'down';
    latest.set(probe.component, await measureProbe(probe, timeoutMs, wasUp ? probes.logger : undefined));
  };

  // Each probe on its own schedule: a hanging one (bounded by its timeout) delays no other.
  const loop = async (probe: Probe) => {
    await probeOnce(probe);
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void loop(probe);
    }, intervalMs);
    timer.unref();
    timers.add(timer);
  };

  const report = (checks: Map<Component, Check>): HealthReport => {
    const supervised = probes.supervised ?? {};
    const withSupervisor = (component: 'temporal' | 'chain', check: Check | undefined): Check | undefined => {
      const supervisor = supervised[component];
      if (!check || !supervisor) return check;
      const state = supervisor.state();
      const restarts = supervisor.restarts();
      if (state === 'running') return { ...check, restarts };
      return { status: 'down', latencyMs: check.latencyMs, error: state === 'gave up' ? 'gave up' : 'restarting', restarts };
    };
    const database = checks.get('database')!;
    const temporal = withSupervisor('temporal', checks.get('temporal'))!;
    // A worker cannot poll a Temporal that is down, whatever its last probe said.
    const workerCheck = checks.get('worker')!;
    const worker = temporal.status === 'down' && workerCheck.status === 'up' ? { ...workerCheck, status: 'down' as const, error: 'unreachable' as const } : workerCheck;
    const chain = withSupervisor('chain', checks.get('chain'));
    const webhooks = checks.get('webhooks');
    const required = [database, temporal, worker, ...(chain ? [chain] : [])];
    return {
      status: required.every((check) => check.status === 'up') ? 'ok' : 'unavailable',
      checks: { database, temporal, worker, ...(chain ? { chain } : {}), ...(webhooks ? { webhooks } : {}) },
    };
  };

  const probeAll = async () => new Map(await Promise.all(list.map(async (probe) => [probe.component, await measureProbe(probe, timeoutMs, probes.logger)] as const)));

  return {
    start() {
      started ??= Promise.all(list.map((probe) => loop(probe))).then(() => undefined);
      return started;
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
    async check({ deep = false } = {}) {
      const checks = started ? (await started, new Map(latest)) : await probeAll();
      if (deep) {
        const workflow = await measureProbe({ component: 'worker', run: () => probes.runWorkflow() }, DEEP_TIMEOUT_MS, probes.logger);
        if (workflow.status === 'down') checks.set('worker', workflow);
      }
      return report(checks);
    },
  };
}

async function measureProbe(probe: Probe, timeoutMs: number, logger: HealthProbes['logger']): Promise<Check & Partial<WebhookBacklog>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const details = await Promise.race([
      probe.run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProbeTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started), ...(details ?? {}) };
  } catch (error) {
    logger?.warn({ err: error, component: probe.component }, 'health check failed');
    const reported: CheckError = error instanceof ProbeTimeout ? 'timed out' : 'unreachable';
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: reported };
  } finally {
    clearTimeout(timer);
  }
}
