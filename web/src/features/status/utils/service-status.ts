// The status page's services and what each one really depends on, read from the product's own
// health report (tRPC `health.get`, the same object as GET /healthz: database, Temporal, the
// payments worker and, when the product runs it, the sandbox chain, each up or down with its
// latency; plus the webhook backlog, which is informational). Why each service depends on what
// it does:
// - Intent & Policy API: an intent and its hold are written to the database, then its payment
//   workflow starts on Temporal and runs in the worker.
// - Webhook Delivery: deliveries are Temporal workflows run by the worker, logged in the database.
//   Deliveries waiting for their receivers are shown as a note, never as a state: a receiver's
//   outage is not ours, and the server does not count it against the product either.
// - Realtime Telemetry: the dashboard's live updates are the database's LISTEN/NOTIFY events.
// - Wallet Provisioning: an agent's keys, DID and wallet are created in one database transaction.
// - Base / EVM Rail: x402 payments run as workflows in the worker, holds in the database, and
//   settle on the chain. When the product runs the sandbox chain (a local anvil) the report
//   checks it, and the rail depends on it; on a real network the report has no chain check, so
//   the page cannot vouch for its RPC endpoint and says so.
// - Solana Rail: a sandbox simulator inside the server (no public network); its payments
//   still need the database, Temporal and the worker, so that is what its status reflects.
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type HealthReport = inferRouterOutputs<AppRouter>['health']['get'];

/** The part of the server's health report the page reads. */
export type HealthChecks = Pick<HealthReport, 'checks'>;

/** The checks a service can depend on; 'chain' is in the report only when the product runs the sandbox chain. */
export type CheckName = 'database' | 'temporal' | 'worker' | 'chain';

export type Check = NonNullable<HealthChecks['checks'][CheckName]>;
export type CheckError = NonNullable<Check['error']>;
export type WebhookBacklog = NonNullable<HealthChecks['checks']['webhooks']>;

export type ServiceState = 'operational' | 'degraded' | 'outage' | 'unknown';

export interface ServiceDefinition {
  name: string;
  dependsOn: readonly CheckName[];
  /** Shown under the name: what the status does not cover, or what waits. */
  note?: string;
}

export interface ServiceGroup {
  name: string;
  services: readonly ServiceDefinition[];
}

export const CHECK_LABELS: Record<CheckName, string> = {
  database: 'Database',
  temporal: 'Temporal',
  worker: 'Payments worker',
  chain: 'Sandbox chain',
};

/** What a failed check's error means to a reader; 'gave up' needs an operator. */
export const CHECK_ERROR_LABELS: Record<CheckError, string> = {
  unreachable: 'Unreachable',
  'timed out': 'Timed out',
  restarting: 'Restarting',
  'gave up': 'Gave up — restart needed',
};

/** A check that answers slower than this makes the services behind it 'degraded'. */
export const SLOW_CHECK_MS = 1_000;

const PAYMENTS: readonly CheckName[] = ['database', 'temporal', 'worker'];

/**
 * The spec's groups and services as this report describes them: the Base / EVM Rail needs the
 * sandbox chain when the report checks one, and Webhook Delivery notes its backlog.
 */
export function serviceGroups(report: HealthChecks | undefined): readonly ServiceGroup[] {
  const backlog = report?.checks.webhooks;
  return [
    {
      name: 'Core Platform',
      services: [
        { name: 'Intent & Policy API', dependsOn: PAYMENTS },
        { name: 'Webhook Delivery', dependsOn: PAYMENTS, note: backlog && backlogNote(backlog) },
        { name: 'Realtime Telemetry', dependsOn: ['database'] },
      ],
    },
    {
      name: 'Agent Orchestration',
      services: [
        { name: 'Wallet Provisioning', dependsOn: ['database'] },
        report?.checks.chain
          ? { name: 'Base / EVM Rail', dependsOn: [...PAYMENTS, 'chain'], note: 'Runs on the product’s sandbox chain (a local anvil); no public network.' }
          : { name: 'Base / EVM Rail', dependsOn: PAYMENTS, note: 'The chain’s RPC endpoint is not checked here.' },
        { name: 'Solana Rail', dependsOn: PAYMENTS, note: 'Sandbox simulator inside the server; no public Solana network.' },
      ],
    },
  ];
}

/** '12 deliveries waiting for their receivers, oldest 3 min.'; nothing when none waits or the count failed. */
function backlogNote(backlog: WebhookBacklog): string | undefined {
  // A failed count has no `pending`: the telemetry panel says why.
  if (!backlog.pending) return undefined;
  return `${waitingDeliveries(backlog.pending)}${backlog.oldestPendingSeconds == null ? '' : `, oldest ${formatAge(backlog.oldestPendingSeconds)}`}.`;
}

function waitingDeliveries(pending: number): string {
  return pending === 1 ? '1 delivery waiting for its receiver' : `${pending} deliveries waiting for their receivers`;
}

/** A short age: '40 s', '3 min', '5 h' (deliveries are retried for 25 hours). */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3_600)} h`;
}

/** The telemetry panel's label for a check's state: 'Up', or what its error means. */
export function checkLabel(check: Check): string {
  if (check.status === 'up') return 'Up';
  return check.error ? CHECK_ERROR_LABELS[check.error] : 'Down';
}

/**
 * A service is out when anything it needs is down, degraded when something it needs is slow,
 * unknown without a report or when the report lacks a check it needs.
 */
export function serviceState(dependsOn: readonly CheckName[], report: HealthChecks | undefined): ServiceState {
  if (!report) return 'unknown';
  const checks = dependsOn.map((name) => report.checks[name]);
  if (checks.some((check) => check?.status === 'down')) return 'outage';
  const answered = checks.filter((check) => check !== undefined);
  if (answered.length < checks.length) return 'unknown';
  if (answered.some((check) => check.latencyMs > SLOW_CHECK_MS)) return 'degraded';
  return 'operational';
}

export interface ServiceStatus extends ServiceDefinition {
  state: ServiceState;
  /** The checks behind a 'degraded' or 'outage' state. */
  failing: CheckName[];
}

export function serviceStatuses(report: HealthChecks | undefined): { name: string; services: ServiceStatus[] }[] {
  return serviceGroups(report).map((group) => ({
    name: group.name,
    services: group.services.map((service) => {
      const state = serviceState(service.dependsOn, report);
      return { ...service, state, failing: report ? failingChecks(service.dependsOn, report, state) : [] };
    }),
  }));
}

/** The checks to blame: the ones down for an outage, the slow ones when degraded. */
function failingChecks(dependsOn: readonly CheckName[], report: HealthChecks, state: ServiceState): CheckName[] {
  if (state === 'outage') return dependsOn.filter((name) => report.checks[name]?.status === 'down');
  if (state === 'degraded') return dependsOn.filter((name) => (report.checks[name]?.latencyMs ?? 0) > SLOW_CHECK_MS);
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
  const states = serviceStatuses(report).flatMap((group) => group.services.map((service) => service.state));
  if (states.every((state) => state === 'outage')) return 'major-outage';
  if (states.some((state) => state === 'outage')) return 'partial-outage';
  if (states.some((state) => state === 'degraded')) return 'degraded';
  return 'operational';
}
