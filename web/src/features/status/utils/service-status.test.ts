import { describe, expect, it } from 'vitest';
import { overallState, SERVICE_GROUPS, serviceState, serviceStatuses, SLOW_CHECK_MS, type CheckName, type HealthChecks } from './service-status';

function report(overrides: Partial<Record<CheckName, { status: 'up' | 'down'; latencyMs: number }>> = {}): HealthChecks {
  const up = { status: 'up' as const, latencyMs: 5 };
  return { checks: { database: up, temporal: up, worker: up, ...overrides } };
}

const stateOf = (health: HealthChecks, name: string) =>
  serviceStatuses(health)
    .flatMap((group) => group.services)
    .find((service) => service.name === name)?.state;

describe('SERVICE_GROUPS', () => {
  it('lists the spec’s groups and services', () => {
    expect(SERVICE_GROUPS.map((group) => [group.name, group.services.map((service) => service.name)])).toEqual([
      ['Core Platform', ['Intent & Policy API', 'Webhook Delivery', 'Realtime Telemetry']],
      ['Agent Orchestration', ['Wallet Provisioning', 'Base / EVM Rail', 'Solana Rail']],
    ]);
  });

  it('says plainly what the rails’ status does not cover', () => {
    const rails = SERVICE_GROUPS[1]!.services;
    expect(rails.find((service) => service.name === 'Solana Rail')?.note).toMatch(/sandbox simulator/i);
    expect(rails.find((service) => service.name === 'Base / EVM Rail')?.note).toMatch(/not checked/i);
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

  it('is unknown without a report', () => {
    expect(serviceState(['database'], undefined)).toBe('unknown');
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
    const states = serviceStatuses(databaseDown).flatMap((group) => group.services.map((service) => service.state));
    expect(new Set(states)).toEqual(new Set(['outage']));
  });

  it('names the checks to blame', () => {
    const temporalDown = report({ temporal: { status: 'down', latencyMs: 5_000 }, worker: { status: 'up', latencyMs: 3_000 } });
    const api = serviceStatuses(temporalDown)[0]!.services[0]!;
    expect(api.failing).toEqual(['temporal']);
  });
});

describe('overallState', () => {
  it('is all operational only for a fresh report where every service is', () => {
    expect(overallState(report(), { failed: false })).toBe('operational');
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
