import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createHealthChecker } from './health';

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
