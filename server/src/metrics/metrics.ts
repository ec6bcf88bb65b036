/**
 * Prometheus metrics, served by GET /metrics (app.ts). Two scopes, because two things are measured:
 *
 * - What this process does, counted where it happens: payments reaching an end, gate
 *   decisions, x402 payments, webhook attempts, and Node's own figures. One set per process
 *   (the process is what Prometheus scrapes), so service code counts with one call and needs
 *   no dependency for it; a worker-only process counts what its activities do and serves them
 *   on its health-only app.
 * - What one app measures or reads when scraped: its HTTP requests, the ledger's balances and
 *   the webhook backlog from its database (one read kept for a few seconds). These live in the app's own Registry (createMetrics),
 *   which also holds the process's metrics, so several apps in one process (tests) never collide;
 *   prom-client's global default registry is not used.
 *
 * Label values are bounded: route patterns, statuses, rail names, rule codes, never free text.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TelemetryOptions } from '@temporalio/worker';
import { railFromDb, TERMINAL_INTENT_STATUSES, type IntentStatus } from '@purser/core';
import type { Database } from '@purser/db';
import type { Logger } from '../logger';
import { isPayableScheme, type PaymentProtocol } from '@purser/core';

const PREFIX = 'purser_';

/** The process's metrics: every app registry of this process shows them. */
const processRegistry = new Registry();

const payments = new Counter({
  name: 'purser_payments_total',
  help:
    'Payment intents that reached an end, by rail (none: refused before one was chosen) and outcome (the terminal status). ' +
    'Counted by the process that wrote the transition, when it was written: a transaction retried after an audit-chain conflict counts again.',
  labelNames: ['rail', 'outcome'] as const,
  registers: [processRegistry],
});

const paymentDuration = new Histogram({
  name: 'purser_payment_duration_seconds',
  help: 'Time from a payment intent\'s creation to its end, by rail and outcome (approvals waiting for an owner included).',
  labelNames: ['rail', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21_600, 86_400],
  registers: [processRegistry],
});

const policyDecisions = new Counter({
  name: 'purser_policy_decisions_total',
  help:
    'Policy and KYA gate evaluations: one per rule that fired, by its code and outcome (deny, require_approval; shadow_ before those of shadow policies); ' +
    'an evaluation where no rule fired counts once as rule="none", outcome="allow".',
  labelNames: ['rule', 'outcome'] as const,
  registers: [processRegistry],
});

const x402Payments = new Counter({
  name: 'purser_x402_payments_total',
  help:
    'Paid-call payments (x402, and MPP: label protocol) by scheme and outcome. Signing (/x402/sign-payment, /x402/fetch): signed, replayed, waiting (for the owner or the workflow), refused, declined. ' +
    'A signed payment sent to its seller (/x402/fetch, /x402/proxy): settled_confirmed (the ledger has its transaction), settled_pending (the seller says settled, not confirmed yet), unsettled.',
  labelNames: ['protocol', 'scheme', 'outcome'] as const,
  registers: [processRegistry],
});

const webhookAttempts = new Counter({
  name: 'purser_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered (2xx), rejected (another HTTP status), unreachable (no answer, or the address refused).',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

const webhooksGivenUp = new Counter({
  name: 'purser_webhook_deliveries_given_up_total',
  help: 'Webhook deliveries given up after the last retry.',
  registers: [processRegistry],
});

const captureInvariantFailures = new Counter({
  name: 'purser_capture_invariant_failures_total',
  help:
    'Captures refused because the chain\'s reading breaks the payment\'s invariants (more moved than was held, a settlement that cannot be matched), by rail. ' +
    'Each leaves the payment processing with its funds held for an operator (docs/operations.md); any increase needs a person.',
  labelNames: ['rail'] as const,
  registers: [processRegistry],
});

const collectFailures = new Counter({
  name: 'purser_metrics_collect_failures_total',
  help:
    'Values that could not be read at scrape time, by source (database, temporal_sdk); counted during a scrape, so shown from the next one. ' +
    'Meanwhile the database gauges read NaN or are absent and the Temporal SDK metrics are left out.',
  labelNames: ['collector'] as const,
  registers: [processRegistry],
});

let defaultMetricsStarted = false;

/** Node's own figures (CPU, memory, event loop, GC), once per process: each start adds monitors. */
function startDefaultMetrics(): void {
  if (defaultMetricsStarted) return;
  defaultMetricsStarted = true;
  collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
}

// ---------------------------------------------------------------- counting

const TERMINAL = new Set<IntentStatus>(TERMINAL_INTENT_STATUSES);

/** Counts an intent's transition when it is an end (transition-intent.ts); others are not payments' ends. */
export function countPaymentTransition(to: IntentStatus, intent: { rail: Parameters<typeof railFromDb>[0] | null; createdAt: Date }, at = new Date()): void {
  if (!TERMINAL.has(to)) return;
  const labels = { rail: intent.rail ? railFromDb(intent.rail) : 'none', outcome: to };
  payments.inc(labels);
  paymentDuration.observe(labels, Math.max(0, (at.getTime() - intent.createdAt.getTime()) / 1000));
}

/** Counts one gate evaluation (authorize-payment.ts): each fired rule's code and outcome, or one allow. */
export function countGateDecision(evaluation: { fired: readonly { code: string; outcome: string; shadow: boolean }[] }): void {
  if (evaluation.fired.length === 0) policyDecisions.inc({ rule: 'none', outcome: 'allow' });
  for (const rule of evaluation.fired) policyDecisions.inc({ rule: rule.code, outcome: rule.shadow ? `shadow_${rule.outcome}` : rule.outcome });
}

export type X402Outcome = 'signed' | 'replayed' | 'waiting' | 'refused' | 'declined' | 'settled_confirmed' | 'settled_pending' | 'unsettled';

/** Counts where an x402 payment's signing or its paid call concludes (paid-calls/sign-payment.ts, proxy-paid-call.ts). */
export function countX402Payment(scheme: unknown, protocol: PaymentProtocol, outcome: X402Outcome): void {
  x402Payments.inc({ protocol, scheme: isPayableScheme(scheme) ? scheme : 'other', outcome });
}

/** Counts one webhook delivery attempt by its answer (deliver-webhook.ts). */
export function countWebhookAttempt(statusCode: number | null): void {
  webhookAttempts.inc({ outcome: statusCode === null ? 'unreachable' : statusCode >= 200 && statusCode < 300 ? 'delivered' : 'rejected' });
}

export function countWebhookGivenUp(): void {
  webhooksGivenUp.inc();
}

/** Counts a capture refused for an operator (payments/payment-steps.ts, settle). */
export function countCaptureInvariantFailure(rail: string): void {
  captureInvariantFailures.inc({ rail });
}

// ---------------------------------------------------------------- the Temporal SDK's exporter

/** Where this process's Temporal Runtime serves its Prometheus metrics, once configured. */
let temporalExporterUrl: string | undefined;

/**
 * The telemetry options of Runtime.install (runtime.ts) for the Temporal SDK's own worker
 * metrics (schedule-to-start latency, task slots, poll results), served on loopback at `port`
 * and appended to /metrics, so one scrape, behind the operator token, shows both. Undefined
 * (no exporter) without a port. The Runtime is one per process, so is what this remembers.
 */
export function temporalTelemetryOptions(port: number | undefined): TelemetryOptions | undefined {
  if (port === undefined) return undefined;
  const bindAddress = `127.0.0.1:${port}`;
  temporalExporterUrl = `http://${bindAddress}/metrics`;
  return { metrics: { prometheus: { bindAddress, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true } } };
}

/** How long a scrape waits for the Temporal exporter before answering without its metrics. */
const TEMPORAL_SCRAPE_TIMEOUT_MS = 1_000;

async function temporalExporterText(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TEMPORAL_SCRAPE_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.text();
  } catch {
    collectFailures.inc({ collector: 'temporal_sdk' });
    return null;
  }
}

// ---------------------------------------------------------------- one app's registry

/**
 * How long one read of the database gauges answers scrapes: every replica's every scraper (and
 * anyone allowed to scrape) costs the database at most one read per period.
 */
export const DATABASE_GAUGES_TTL_MS = 5_000;

export interface MetricsDeps {
  db: Pick<Database, 'prisma'>;
  logger: Pick<Logger, 'warn'>;
  /** The Temporal SDK exporter to append; the one temporalTelemetryOptions configured when absent. */
  temporalExporterUrl?: string;
  /** How long the database gauges' read is kept (DATABASE_GAUGES_TTL_MS) and the clock it is kept by; tests move it. */
  databaseGauges?: { ttlMs?: number; now?: () => number };
}

export interface AppMetrics {
  registry: Registry;
  contentType: string;
  /** One answered request: its route pattern (never the URL), method, status and duration. */
  observeRequest(request: { method: string; route: string | undefined; statusCode: number; seconds: number }): void;
  /** The exposition text: this app's registry, then the Temporal SDK's when configured. */
  scrape(): Promise<string>;
}

export function createMetrics(deps: MetricsDeps): AppMetrics {
  startDefaultMetrics();
  // The app's own registry, starting with the process's metrics (the same objects, not copies).
  const registry = Registry.merge([processRegistry]);

  const httpDuration = new Histogram({
    name: 'purser_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route pattern (unmatched: no route) and status code; _count is the request count.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });

  const failed = (error: unknown) => {
    collectFailures.inc({ collector: 'database' });
    deps.logger.warn({ err: error }, 'a metric could not be read from the database');
  };

  // The three gauges' figures, read together once per period; scrapes in between (and the
  // collects of one scrape) share that read, the one in flight too.
  const readLedger = async () => {
    try {
      return await deps.db.prisma.$queryRaw<Array<{ kind: string; currency: string; balance: string }>>`
        SELECT kind::text AS kind, currency::text AS currency, sum(balance)::text AS balance FROM ledger_accounts GROUP BY kind, currency`;
    } catch (error) {
      failed(error);
      return null;
    }
  };
  // Both backlog figures come from one query (the partial index webhook_deliveries_pending).
  const readBacklog = async () => {
    try {
      const [row] = await deps.db.prisma.$queryRaw<Array<{ pending: number; oldest: number | null }>>`
        SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest FROM webhook_deliveries WHERE status = 'pending'`;
      return { pending: row?.pending ?? 0, oldestSeconds: row?.oldest == null ? 0 : Math.max(0, row.oldest) };
    } catch (error) {
      failed(error);
      return { pending: NaN, oldestSeconds: NaN };
    }
  };
  const figures = keptFor(
    deps.databaseGauges?.ttlMs ?? DATABASE_GAUGES_TTL_MS,
    deps.databaseGauges?.now ?? Date.now,
    async () => {
      const [ledger, backlog] = await Promise.all([readLedger(), readBacklog()]);
      return { ledger, backlog };
    },
  );

  new Gauge({
    name: 'purser_ledger_balance',
    help:
      'Sum of ledger account balances by account kind (owner, agent, hold, external) and currency, in whole currency units (1 = 1 USDC), read at scrape time at most once every few seconds. ' +
      'Double entry: the kinds of one currency sum to 0 (external is negative: money that came in). Every replica reports the same totals: aggregate with max, not sum.',
    labelNames: ['kind', 'currency'] as const,
    registers: [registry],
    async collect() {
      const { ledger } = await figures();
      this.reset();
      for (const row of ledger ?? []) this.set({ kind: row.kind, currency: row.currency }, atomicToUnits(BigInt(row.balance)));
    },
  });
  new Gauge({
    name: 'purser_webhook_deliveries_pending',
    help: 'Webhook deliveries not yet delivered nor given up (first attempts and retries), read at scrape time at most once every few seconds. Every replica reports the same figure.',
    registers: [registry],
    async collect() {
      this.set((await figures()).backlog.pending);
    },
  });
  new Gauge({
    name: 'purser_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest pending webhook delivery (0 when none is pending), read at scrape time at most once every few seconds.',
    registers: [registry],
    async collect() {
      this.set((await figures()).backlog.oldestSeconds);
    },
  });

  return {
    registry,
    contentType: registry.contentType,
    observeRequest({ method, route, statusCode, seconds }) {
      httpDuration.observe({ method, route: route ?? 'unmatched', status_code: String(statusCode) }, seconds);
    },
    async scrape() {
      const url = deps.temporalExporterUrl ?? temporalExporterUrl;
      const [own, temporal] = await Promise.all([registry.metrics(), url ? temporalExporterText(url) : null]);
      if (!temporal) return own;
      return `${own}\n${temporal.endsWith('\n') ? temporal : `${temporal}\n`}`;
    },
  };
}

/** Whole currency units (6 decimals) as a float, for dashboards; exact integers stay in the ledger. */
function atomicToUnits(atomic: bigint): number {
  const whole = atomic / 1_000_000n;
  return Number(whole) + Number(atomic - whole * 1_000_000n) / 1_000_000;
}

/**
 * `read`'s answer, kept for `ttlMs` after it settles: calls while it runs share it, calls within
 * the period get it again, the first call after starts a new read. `read` must not reject.
 */
function keptFor<T>(ttlMs: number, now: () => number, read: () => Promise<T>): () => Promise<T> {
  let kept: { answer: Promise<T>; until: number } | null = null;
  return () => {
    if (kept && now() < kept.until) return kept.answer;
    const entry = { answer: read(), until: Infinity };
    void entry.answer.then(() => (entry.until = now() + ttlMs));
    kept = entry;
    return entry.answer;
  };
}
