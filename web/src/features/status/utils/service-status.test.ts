import { describe, expect, it } from 'vitest';
import {
  checkLabel,
  formatAge,
  overallState,
  serviceGroups,
  serviceState,
  serviceStatuses,
  SLOW_CHECK_MS,
  type Check,
  type CheckName,
  type HealthChecks,
  type WebhookBacklog,
} from './service-status';

const up: Check = { status: 'up', latencyMs: 5 };

function report(overrides: Partial<Record<CheckName, Check>> = {}, webhooks?: WebhookBacklog): HealthChecks {
  return { checks: { database: up, temporal: up, worker: up, ...overrides, ...(webhooks ? { webhooks } : {}) } };
}

/** What the product reports when it runs the sandbox chain, as `npm start` does. */
const withChain = (chain: Check = { ...up, restarts: 0 }, others: Partial<Record<CheckName, Check>> = {}) => report({ chain, ...others });

const backlog = (pending: number, oldestPendingSeconds: number | null): WebhookBacklog => ({ status: 'up', latencyMs: 3, pending, oldestPendingSeconds });

const allServices = (health: HealthChecks | undefined) => serviceStatuses(health).flatMap((group) => group.services);
const serviceOf = (health: HealthChecks | undefined, name: string) => allServices(health).find((service) => service.name === name);
const stateOf = (health: HealthChecks, name: string) => serviceOf(health, name)?.state;
const statesBesides = (health: HealthChecks, name: string) =>
  Object.fromEntries(allServices(health).filter((service) => service.name !== name).map((service) => [service.name, service.state]));

describe('serviceGroups', () => {
  it('lists the spec’s groups and services, with or without a sandbox chain', () => {
    for (const health of [undefined, report(), withChain()]) {
      expect(serviceGroups(health).map((group) => [group.name, group.services.map((service) => service.name)])).toEqual([
        ['Core Platform', ['Intent & Policy API', 'Webhook Delivery', 'Realtime Telemetry']],
        ['Agent Orchestration', ['Wallet Provisioning', 'Base / EVM Rail', 'Solana Rail']],
      ]);
    }
  });

  it('says plainly what the rails’ status does not cover when the report checks no chain', () => {
    expect(serviceOf(report(), 'Solana Rail')?.note).toMatch(/sandbox simulator/i);
    const base = serviceOf(report(), 'Base / EVM Rail');
    expect(base?.note).toMatch(/not checked/i);
    expect(base?.dependsOn).toEqual(['database', 'temporal', 'worker']);
  });

  it('makes the Base / EVM Rail depend on the sandbox chain when the report checks it, and stops calling it unchecked', () => {
    const base = serviceOf(withChain(), 'Base / EVM Rail');
    expect(base?.dependsOn).toEqual(['database', 'temporal', 'worker', 'chain']);
    expect(base?.note).toMatch(/sandbox chain/i);
    expect(base?.note).not.toMatch(/not checked/i);
  });

  it('notes the webhook backlog on Webhook Delivery only, and only when deliveries wait', () => {
    expect(serviceOf(report({}, backlog(12, 190)), 'Webhook Delivery')?.note).toBe('12 deliveries waiting for their receivers, oldest 3 min.');
    expect(serviceOf(report({}, backlog(1, 40)), 'Webhook Delivery')?.note).toBe('1 delivery waiting for its receiver, oldest 40 s.');
    expect(serviceOf(report({}, backlog(0, null)), 'Webhook Delivery')?.note).toBeUndefined();
    expect(serviceOf(report(), 'Webhook Delivery')?.note).toBeUndefined();
    // A failed count says nothing about deliveries.
    expect(serviceOf(report({}, { status: 'down', latencyMs: 800, error: 'timed out' }), 'Webhook Delivery')?.note).toBeUndefined();
    const others = allServices(report({}, backlog(12, 190))).filter((service) => service.name !== 'Webhook Delivery');
    expect(others.map((service) => service.note)).toEqual(allServices(report()).filter((service) => service.name !== 'Webhook Delivery').map((service) => service.note));
  });
});

describe('serviceState', () => {
  it('is operational when every check the service needs is up and quick', () => {
    expect(serviceState(['database', 'worker'], report())).toBe('operational');
  });

  it('is an outage when a check it needs is down, whatever the others say', () => {
    expect(serviceState(['database', 'worker'], report({ worker: { status: 'down', latencyMs: 5_000 } }))).toBe('outage');
  });

  it('is degraded when a check it needs is slow', () => {
    expect(serviceState(['database'], report({ database: { status: 'up', latencyMs: SLOW_CHECK_MS + 1 } }))).toBe('degraded');
    expect(serviceState(['database'], report({ database: { status: 'up', latencyMs: SLOW_CHECK_MS } }))).toBe('operational');
  });

  it('is unknown without a report, or when the report lacks a check it needs', () => {
    expect(serviceState(['database'], undefined)).toBe('unknown');
    expect(serviceState(['database', 'chain'], report())).toBe('unknown');
  });
});

describe('serviceStatuses', () => {
  it('takes down only the services that depend on the failed check', () => {
    const workerDown = report({ worker: { status: 'down', latencyMs: 5_000 } });
    expect(stateOf(workerDown, 'Intent & Policy API')).toBe('outage');
    expect(stateOf(workerDown, 'Webhook Delivery')).toBe('outage');
    expect(stateOf(workerDown, 'Base / EVM Rail')).toBe('outage');
    expect(stateOf(workerDown, 'Solana Rail')).toBe('outage');
    expect(stateOf(workerDown, 'Realtime Telemetry')).toBe('operational');
    expect(stateOf(workerDown, 'Wallet Provisioning')).toBe('operational');
  });

  it('takes down everything when the database is down', () => {
    const databaseDown = report({ database: { status: 'down', latencyMs: 5_000 } });
    const states = allServices(databaseDown).map((service) => service.state);
    expect(new Set(states)).toEqual(new Set(['outage']));
  });

  it('names the checks to blame', () => {
    const temporalDown = report({ temporal: { status: 'down', latencyMs: 5_000 }, worker: { status: 'up', latencyMs: 3_000 } });
    const api = serviceStatuses(temporalDown)[0]!.services[0]!;
    expect(api.failing).toEqual(['temporal']);
  });

  it('takes down only the Base / EVM Rail when the sandbox chain is down, and blames the chain', () => {
    for (const error of ['unreachable', 'timed out', 'restarting', 'gave up'] as const) {
      const chainDown = withChain({ status: 'down', latencyMs: 12, error, restarts: 3 });
      const base = serviceOf(chainDown, 'Base / EVM Rail');
      expect(base?.state).toBe('outage');
      expect(base?.failing).toEqual(['chain']);
      expect(statesBesides(chainDown, 'Base / EVM Rail')).toEqual({
        'Intent & Policy API': 'operational',
        'Webhook Delivery': 'operational',
        'Realtime Telemetry': 'operational',
        'Wallet Provisioning': 'operational',
        'Solana Rail': 'operational',
      });
      expect(overallState(chainDown, { failed: false })).toBe('partial-outage');
    }
  });

  it('shows the Base / EVM Rail degraded when the sandbox chain is slow', () => {
    const chainSlow = withChain({ status: 'up', latencyMs: SLOW_CHECK_MS + 1, restarts: 0 });
    expect(stateOf(chainSlow, 'Base / EVM Rail')).toBe('degraded');
    expect(serviceOf(chainSlow, 'Base / EVM Rail')?.failing).toEqual(['chain']);
  });

  it('keeps the states it had before the chain check when the report has none', () => {
    const workerDown = { worker: { status: 'down', latencyMs: 5_000 } } as const;
    const states = (health: HealthChecks) => allServices(health).map((service) => [service.name, service.state]);
    expect(states(report())).toEqual(states(withChain()));
    expect(states(report(workerDown))).toEqual(states(withChain(undefined, workerDown)));
    expect(stateOf(report(), 'Base / EVM Rail')).toBe('operational');
  });

  it('never changes a state for the webhook backlog, however long or however it was counted', () => {
    const states = (health: HealthChecks) => allServices(health).map((service) => [service.name, service.state]);
    for (const base of [report(), withChain(), report({ worker: { status: 'down', latencyMs: 5_000 } })]) {
      for (const webhooks of [
        backlog(12_000, 25 * 3_600),
        { status: 'down', latencyMs: 800, error: 'timed out' } as const,
        { status: 'up', latencyMs: SLOW_CHECK_MS * 5, pending: 3, oldestPendingSeconds: 60 } as const,
      ]) {
        const withBacklog = { checks: { ...base.checks, webhooks } };
        expect(states(withBacklog)).toEqual(states(base));
        expect(overallState(withBacklog, { failed: false })).toBe(overallState(base, { failed: false }));
      }
    }
  });
});

describe('checkLabel', () => {
  it('names each error a check can report in words a reader acts on', () => {
    const down = (error: NonNullable<Check['error']>): Check => ({ status: 'down', latencyMs: 1, error });
    expect(checkLabel(down('restarting'))).toBe('Restarting');
    expect(checkLabel(down('gave up'))).toBe('Gave up — restart needed');
    expect(checkLabel(down('unreachable'))).toBe('Unreachable');
    expect(checkLabel(down('timed out'))).toBe('Timed out');
    expect(checkLabel({ status: 'down', latencyMs: 1 })).toBe('Down');
    expect(checkLabel(up)).toBe('Up');
  });
});

describe('formatAge', () => {
  it('rounds down to seconds, minutes or hours', () => {
    expect(formatAge(0)).toBe('0 s');
    expect(formatAge(59)).toBe('59 s');
    expect(formatAge(60)).toBe('1 min');
    expect(formatAge(3_599)).toBe('59 min');
    expect(formatAge(25 * 3_600 + 59)).toBe('25 h');
  });
});

describe('overallState', () => {
  it('is all operational only for a fresh report where every service is', () => {
    expect(overallState(report(), { failed: false })).toBe('operational');
    expect(overallState(withChain(), { failed: false })).toBe('operational');
  });

  it('is checking before the first report and unreachable when the check failed', () => {
    expect(overallState(undefined, { failed: false })).toBe('checking');
    expect(overallState(undefined, { failed: true })).toBe('unreachable');
    expect(overallState(report(), { failed: true })).toBe('unreachable');
  });

  it('tells a partial outage from a major one, and a slow platform from a broken one', () => {
    expect(overallState(report({ worker: { status: 'down', latencyMs: 5_000 } }), { failed: false })).toBe('partial-outage');
    expect(overallState(report({ database: { status: 'down', latencyMs: 5_000 } }), { failed: false })).toBe('major-outage');
    expect(overallState(report({ temporal: { status: 'up', latencyMs: 2_500 } }), { failed: false })).toBe('degraded');
  });
});
