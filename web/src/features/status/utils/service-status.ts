// The status page's services and what each one really depends on, read from the product's own
// health report (tRPC `health.get`: database, Temporal and the payments worker, each up or down
// with its latency). Why each service depends on what it does:
// - Intent & Policy API: an intent and its hold are written to the database, then its payment
//   workflow starts on Temporal and runs in the worker.
// - Webhook Delivery: deliveries are Temporal workflows run by the worker, logged in the database.
// - Realtime Telemetry: the dashboard's live updates are the database's LISTEN/NOTIFY events.
// - Wallet Provisioning: an agent's keys, DID and wallet are created in one database transaction.
// - Base / EVM Rail: x402 payments run as workflows in the worker, holds in the database. The
//   chain's RPC endpoint is not part of the health report, so the page cannot vouch for it.
// - Solana Rail: a sandbox simulator inside the server (no public network); its payments
//   still need the database, Temporal and the worker, so that is what its status reflects.

export type CheckName = 'database' | 'temporal' | 'worker';

/** The part of the server's health report the page reads. */
export interface HealthChecks {
  checks: Record<CheckName, { status: 'up' | 'down'; latencyMs: number; error?: string }>;
}

export type ServiceState = 'operational' | 'degraded' | 'outage' | 'unknown';

export interface ServiceDefinition {
  name: string;
  dependsOn: readonly CheckName[];
  /** Shown under the name: what the status does not cover. */
  note?: string;
}

export const SERVICE_GROUPS: readonly { name: string; services: readonly ServiceDefinition[] }[] = [
  {
    name: 'Core Platform',
    services: [
      { name: 'Intent & Policy API', dependsOn: ['database', 'temporal', 'worker'] },
      { name: 'Webhook Delivery', dependsOn: ['database', 'temporal', 'worker'] },
      { name: 'Realtime Telemetry', dependsOn: ['database'] },
    ],
  },
  {
    name: 'Agent Orchestration',
    services: [
      { name: 'Wallet Provisioning', dependsOn: ['database'] },
      { name: 'Base / EVM Rail', dependsOn: ['database', 'temporal', 'worker'], note: 'The chain’s RPC endpoint is not checked here.' },
      { name: 'Solana Rail', dependsOn: ['database', 'temporal', 'worker'], note: 'Sandbox simulator inside the server; no public Solana network.' },
    ],
  },
];

export const CHECK_LABELS: Record<CheckName, string> = { database: 'Database', temporal: 'Temporal', worker: 'Payments worker' };

/** A check that answers slower than this makes the services behind it 'degraded'. */
export const SLOW_CHECK_MS = 1_000;

/** A service is out when anything it needs is down, degraded when something it needs is slow. */
export function serviceState(dependsOn: readonly CheckName[], report: HealthChecks | undefined): ServiceState {
  if (!report) return 'unknown';
  const checks = dependsOn.map((name) => report.checks[name]);
  if (checks.some((check) => check.status === 'down')) return 'outage';
  if (checks.some((check) => check.latencyMs > SLOW_CHECK_MS)) return 'degraded';
  return 'operational';
}

export interface ServiceStatus extends ServiceDefinition {
  state: ServiceState;
  /** The checks behind a 'degraded' or 'outage' state. */
  failing: CheckName[];
}

export function serviceStatuses(report: HealthChecks | undefined): { name: string; services: ServiceStatus[] }[] {
  return SERVICE_GROUPS.map((group) => ({
    name: group.name,
    services: group.services.map((service) => {
      const state = serviceState(service.dependsOn, report);
      return { ...service, state, failing: report ? failingChecks(service.dependsOn, report, state) : [] };
    }),
  }));
}

/** The checks to blame: the ones down for an outage, the slow ones when degraded. */
function failingChecks(dependsOn: readonly CheckName[], report: HealthChecks, state: ServiceState): CheckName[] {
  if (state === 'outage') return dependsOn.filter((name) => report.checks[name].status === 'down');
  if (state === 'degraded') return dependsOn.filter((name) => report.checks[name].latencyMs > SLOW_CHECK_MS);
  return [];
}

export type OverallState = 'checking' | 'unreachable' | 'operational' | 'degraded' | 'partial-outage' | 'major-outage';

export const OVERALL_LABELS: Record<OverallState, string> = {
  checking: 'Checking systems…',
  unreachable: 'Status unavailable',
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  'partial-outage': 'Partial outage',
  'major-outage': 'Major outage',
};

/** The page's badge: 'All systems operational' only when a fresh report says every service is. */
export function overallState(report: HealthChecks | undefined, { failed }: { failed: boolean }): OverallState {
  if (failed) return 'unreachable';
  if (!report) return 'checking';
  const states = SERVICE_GROUPS.flatMap((group) => group.services).map((service) => serviceState(service.dependsOn, report));
  if (states.every((state) => state === 'outage')) return 'major-outage';
  if (states.some((state) => state === 'outage')) return 'partial-outage';
  if (states.some((state) => state === 'degraded')) return 'degraded';
  return 'operational';
}
