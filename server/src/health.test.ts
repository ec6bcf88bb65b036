import { describe, expect, it } from 'vitest';
import { createHealthChecker } from './health';

const ok = async () => {};
const fail = async () => {
  throw new Error('connection refused');
};

describe('createHealthChecker', () => {
  it('reports ok only when database, Temporal and worker are all up', async () => {
    const health = createHealthChecker({ db: { ping: ok }, pingTemporal: ok, pingWorker: ok, runWorkflow: ok });
    const report = await health.check();
    expect(report.status).toBe('ok');
    expect(Object.values(report.checks).map((check) => check.status)).toEqual(['up', 'up', 'up']);
  });

  it('names the failing component and its error', async () => {
    const health = createHealthChecker({ db: { ping: ok }, pingTemporal: fail, pingWorker: ok, runWorkflow: ok });
    const report = await health.check();
    expect(report.status).toBe('unavailable');
    expect(report.checks.temporal).toMatchObject({ status: 'down', error: 'connection refused' });
    expect(report.checks.database.status).toBe('up');
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
    expect(report.checks.database).toMatchObject({ status: 'down', error: 'timed out after 20 ms' });
  });
});
