import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createHealthChecker } from './health';
import type { SupervisedState } from './supervisor';

const ok = async () => {};
const fail = async () => {
  throw new Error('connect ECONNREFUSED 10.0.0.7:7233 (postgres://purser:s3cret@db)');
};

describe('createHealthChecker', () => {
  it('reports ok only when database, Temporal and worker are all up', async () => {
    const health = createHealthChecker({ db: { ping: ok }, pingTemporal: ok, pingWorker: ok, runWorkflow: ok });
    const report = await health.check();
    expect(report.status).toBe('ok');
    expect(Object.values(report.checks).map((check) => check.status)).toEqual(['up', 'up', 'up']);
  });

  it('names the failing component with a generic error and logs the real one', async () => {
    const logged: unknown[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const health = createHealthChecker({ db: { ping: ok }, pingTemporal: fail, pingWorker: ok, runWorkflow: ok, logger });
    const report = await health.check();
    expect(report.status).toBe('unavailable');
    expect(report.checks.temporal).toMatchObject({ status: 'down', error: 'unreachable' });
    expect(report.checks.database.status).toBe('up');
    expect(JSON.stringify(report)).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|s3cret/);
    expect(logged).toEqual([expect.objectContaining({ component: 'temporal', err: expect.objectContaining({ message: expect.stringContaining('ECONNREFUSED') }) })]);
  });

  it('runs the workflow only for a deep check', async () => {
    let runs = 0;
    const health = createHealthChecker({
      db: { ping: ok },
      pingTemporal: ok,
      pingWorker: ok,
      runWorkflow: async () => {
        runs += 1;
      },
    });
    await health.check();
    expect(runs).toBe(0);
    await health.check({ deep: true });
    expect(runs).toBe(1);
  });

  it('turns a probe that hangs into a down check', async () => {
    const health = createHealthChecker({
      db: { ping: () => new Promise(() => {}) },
      pingTemporal: ok,
      pingWorker: ok,
      runWorkflow: ok,
      timeoutMs: 20,
    });
    const report = await health.check();
    expect(report.checks.database).toMatchObject({ status: 'down', error: 'timed out' });
  });
});

describe('createHealthChecker, started (probes in the background)', () => {
  it('answers from the latest results at once while a probe hangs, and reports it down when its timeout ends', async () => {
    let hang = false;
    const health = createHealthChecker({
      db: { ping: () => (hang ? new Promise<void>(() => {}) : Promise.resolve()) },
      pingTemporal: ok,
      pingWorker: ok,
      runWorkflow: ok,
      timeoutMs: 50,
      intervalMs: 10,
    });
    await health.start();
    try {
      expect((await health.check()).status).toBe('ok');
      hang = true;
      let report = await health.check();
      for (let tries = 0; report.checks.database.status === 'up' && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        report = await health.check();
      }
      expect(report).toMatchObject({ status: 'unavailable', checks: { database: { status: 'down', error: 'timed out' } } });
      // The report itself never waits on the hanging probe.
      const answered = await Promise.race([health.check().then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 30, 'waited'))]);
      expect(answered).toBe('answered');
    } finally {
      health.stop();
    }
  });

  it('reads a supervised child live: down the moment it is restarting or given up, with its restarts', async () => {
    let temporal: SupervisedState = 'running';
    let chain: SupervisedState = 'running';
    const health = createHealthChecker({
      db: { ping: ok },
      pingTemporal: ok,
      pingWorker: ok,
      runWorkflow: ok,
      pingChain: ok,
      supervised: { temporal: { state: () => temporal, restarts: () => 2 }, chain: { state: () => chain, restarts: () => 0 } },
      intervalMs: 60_000,
    });
    await health.start();
    try {
      expect(await health.check()).toMatchObject({ status: 'ok', checks: { temporal: { status: 'up', restarts: 2 }, chain: { status: 'up', restarts: 0 } } });
      temporal = 'restarting';
      expect(await health.check()).toMatchObject({
        status: 'unavailable',
        checks: { temporal: { status: 'down', error: 'restarting' }, worker: { status: 'down', error: 'unreachable' }, chain: { status: 'up' } },
      });
      temporal = 'running';
      chain = 'gave up';
      expect(await health.check()).toMatchObject({ status: 'unavailable', checks: { temporal: { status: 'up' }, chain: { status: 'down', error: 'gave up' } } });
    } finally {
      health.stop();
    }
  });

  it('reports the webhook backlog without letting it make the product unavailable', async () => {
    const health = createHealthChecker({
      db: { ping: ok },
      pingTemporal: ok,
      pingWorker: ok,
      runWorkflow: ok,
      webhookBacklog: async () => ({ pending: 7, oldestPendingSeconds: 42 }),
    });
    expect(await health.check()).toMatchObject({ status: 'ok', checks: { webhooks: { status: 'up', pending: 7, oldestPendingSeconds: 42 } } });
    const failing = createHealthChecker({ db: { ping: ok }, pingTemporal: ok, pingWorker: ok, runWorkflow: ok, webhookBacklog: fail });
    expect(await failing.check()).toMatchObject({ status: 'ok', checks: { webhooks: { status: 'down', error: 'unreachable' } } });
  });

  it('logs a dependency going down once, not on every probe while it stays down', async () => {
    const logged: unknown[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    let probes = 0;
    const health = createHealthChecker({
      db: { ping: ok },
      pingTemporal: async () => {
        probes += 1;
        await fail();
      },
      pingWorker: ok,
      runWorkflow: ok,
      intervalMs: 5,
      logger,
    });
    await health.start();
    try {
      while (probes < 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(logged).toHaveLength(1);
    } finally {
      health.stop();
    }
  });
});
