import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '@purser/db';
import {
  countGateDecision,
  countPaymentTransition,
  countWebhookAttempt,
  countX402Payment,
  createMetrics,
  temporalTelemetryOptions,
  type MetricsDeps,
} from './metrics';
import { sample } from '../../test/support/prometheus-text';

type Rows = { ledger: object[]; backlog: object[] };

/** A database answering the two scrape-time queries, counting the calls. */
function fakeDatabase(rows: Rows | Error) {
  const queries: string[] = [];
  const db = {
    prisma: {
      $queryRaw: async (strings: TemplateStringsArray) => {
        const sql = strings.join('?');
        queries.push(sql);
        if (rows instanceof Error) throw rows;
        return sql.includes('ledger_accounts') ? rows.ledger : rows.backlog;
      },
    },
  } as unknown as Pick<Database, 'prisma'>;
  return { db, queries };
}

const quiet: MetricsDeps['logger'] = { warn: () => {} };
const noRows: Rows = { ledger: [], backlog: [{ pending: 0, oldest: null }] };

describe('metrics', () => {
  it('counts a payment once it reaches a terminal status, with its rail, outcome and time since creation', async () => {
    const metrics = createMetrics({ db: fakeDatabase(noRows).db, logger: quiet });
    const before = await metrics.scrape();
    const createdAt = new Date('2026-01-01T00:00:00Z');
    countPaymentTransition('processing', { rail: 'card', createdAt }, new Date('2026-01-01T00:00:01Z'));
    countPaymentTransition('settled', { rail: 'x402_base', createdAt }, new Date('2026-01-01T00:00:02Z'));
    countPaymentTransition('blocked', { rail: null, createdAt }, new Date('2026-01-01T00:00:00.200Z'));
    const after = await metrics.scrape();

    const delta = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('purser_payments_total', { rail: 'x402-base', outcome: 'settled' })).toBe(1);
    expect(delta('purser_payments_total', { rail: 'none', outcome: 'blocked' })).toBe(1);
    expect(sample(after, 'purser_payments_total', { rail: 'card', outcome: 'processing' })).toBeUndefined();
    expect(delta('purser_payment_duration_seconds_sum', { rail: 'x402-base', outcome: 'settled' })).toBeCloseTo(2);
    expect(delta('purser_payment_duration_seconds_bucket', { rail: 'x402-base', outcome: 'settled', le: '2.5' })).toBe(1);
    expect(delta('purser_payment_duration_seconds_bucket', { rail: 'x402-base', outcome: 'settled', le: '1' })).toBe(0);
  });

  it('counts each rule the gate fired by its code and outcome, shadow ones apart, and an evaluation that fired none as an allow', async () => {
    const metrics = createMetrics({ db: fakeDatabase(noRows).db, logger: quiet });
    countGateDecision({ fired: [] });
    countGateDecision({
      fired: [
        { code: 'DAILY_LIMIT_EXCEEDED', outcome: 'deny', shadow: false },
        { code: 'APPROVAL_THRESHOLD_EXCEEDED', outcome: 'require_approval', shadow: true },
      ],
    });
    const text = await metrics.scrape();
    expect(sample(text, 'purser_policy_decisions_total', { rule: 'none', outcome: 'allow' })).toBe(1);
    expect(sample(text, 'purser_policy_decisions_total', { rule: 'DAILY_LIMIT_EXCEEDED', outcome: 'deny' })).toBe(1);
    expect(sample(text, 'purser_policy_decisions_total', { rule: 'APPROVAL_THRESHOLD_EXCEEDED', outcome: 'shadow_require_approval' })).toBe(1);
  });

  it('keeps paid-call protocols, schemes and webhook outcomes to a bounded set of label values', async () => {
    const metrics = createMetrics({ db: fakeDatabase(noRows).db, logger: quiet });
    countX402Payment('exact', 'x402', 'signed');
    countX402Payment('exact', 'mpp', 'signed');
    countX402Payment('a seller-chosen string', 'x402', 'unsettled');
    countX402Payment(undefined, 'x402', 'unsettled');
    for (const status of [200, 204, 500, null]) countWebhookAttempt(status);
    const text = await metrics.scrape();
    expect(sample(text, 'purser_x402_payments_total', { protocol: 'x402', scheme: 'exact', outcome: 'signed' })).toBe(1);
    expect(sample(text, 'purser_x402_payments_total', { protocol: 'mpp', scheme: 'exact', outcome: 'signed' })).toBe(1);
    expect(sample(text, 'purser_x402_payments_total', { protocol: 'x402', scheme: 'other', outcome: 'unsettled' })).toBe(2);
    expect(sample(text, 'purser_webhook_delivery_attempts_total', { outcome: 'delivered' })).toBe(2);
    expect(sample(text, 'purser_webhook_delivery_attempts_total', { outcome: 'rejected' })).toBe(1);
    expect(sample(text, 'purser_webhook_delivery_attempts_total', { outcome: 'unreachable' })).toBe(1);
  });

  it('gives every app its own registry: HTTP requests apart, the process counters and Node metrics in each, no name collision', async () => {
    const first = createMetrics({ db: fakeDatabase(noRows).db, logger: quiet });
    const second = createMetrics({ db: fakeDatabase(noRows).db, logger: quiet });
    first.observeRequest({ method: 'GET', route: '/api/v1/agents/:id', statusCode: 200, seconds: 0.03 });
    first.observeRequest({ method: 'GET', route: undefined, statusCode: 404, seconds: 0.001 });
    const [one, two] = [await first.scrape(), await second.scrape()];

    expect(sample(one, 'purser_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/agents/:id', status_code: '200' })).toBe(1);
    expect(sample(one, 'purser_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/v1/agents/:id', status_code: '200', le: '0.05' })).toBe(1);
    expect(sample(one, 'purser_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sample(two, 'purser_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/agents/:id', status_code: '200' })).toBeUndefined();
    for (const text of [one, two]) {
      expect(text).toContain('# TYPE purser_payments_total counter');
      expect(text).toContain('# TYPE purser_process_cpu_seconds_total counter');
      expect(text).toContain('# TYPE purser_nodejs_eventloop_lag_seconds gauge');
    }
    expect(first.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('reads the ledger totals and the webhook backlog when scraped, the backlog with one query', async () => {
    const { db, queries } = fakeDatabase({
      ledger: [
        { kind: 'owner', currency: 'USDC', balance: '12500000' },
        { kind: 'external', currency: 'USDC', balance: '-12500001' },
        { kind: 'hold', currency: 'USDC', balance: '1' },
      ],
      backlog: [{ pending: 3, oldest: 42.5 }],
    });
    const text = await createMetrics({ db, logger: quiet }).scrape();
    expect(sample(text, 'purser_ledger_balance', { kind: 'owner', currency: 'USDC' })).toBe(12.5);
    expect(sample(text, 'purser_ledger_balance', { kind: 'external', currency: 'USDC' })).toBe(-12.500001);
    expect(sample(text, 'purser_ledger_balance', { kind: 'hold', currency: 'USDC' })).toBe(0.000001);
    expect(sample(text, 'purser_webhook_deliveries_pending')).toBe(3);
    expect(sample(text, 'purser_webhook_oldest_pending_age_seconds')).toBe(42.5);
    expect(queries.filter((sql) => sql.includes('webhook_deliveries'))).toHaveLength(1);
    expect(queries.filter((sql) => sql.includes('ledger_accounts'))).toHaveLength(1);
  });

  it('still answers when the database cannot be read, without the figures it would have read, and counts the failure', async () => {
    const warnings: unknown[] = [];
    const healthy = createMetrics({ db: fakeDatabase({ ...noRows, ledger: [{ kind: 'owner', currency: 'USDC', balance: '1' }] }).db, logger: quiet });
    const before = sample(await healthy.scrape(), 'purser_metrics_collect_failures_total', { collector: 'database' }) ?? 0;
    const broken = createMetrics({ db: fakeDatabase(new Error('connection refused')).db, logger: { warn: (...args: unknown[]) => void warnings.push(args) } });
    const text = await broken.scrape();
    expect(sample(text, 'purser_ledger_balance', { kind: 'owner', currency: 'USDC' })).toBeUndefined();
    expect(sample(text, 'purser_webhook_deliveries_pending')).toBeNaN();
    expect(warnings).toHaveLength(2);
    // Counted while that scrape was answered, so the next one shows them (with two more).
    expect(sample(await broken.scrape(), 'purser_metrics_collect_failures_total', { collector: 'database' })).toBe(before + 2);
  });

  describe('the Temporal SDK exporter', () => {
    let exporter: Server | undefined;
    afterAll(() => new Promise<void>((resolve) => (exporter ? exporter.close(() => resolve()) : resolve())));

    it('is configured on loopback at the given port, and not at all without one', () => {
      expect(temporalTelemetryOptions(undefined)).toBeUndefined();
      expect(temporalTelemetryOptions(9464)).toEqual({
        metrics: { prometheus: { bindAddress: '127.0.0.1:9464', countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true } },
      });
    });

    it('is appended to the scrape, and left out (counted) when it does not answer', async () => {
      exporter = createServer((request, response) => {
        response.setHeader('content-type', 'text/plain');
        response.end(request.url === '/metrics' ? '# TYPE temporal_worker_task_slots_available gauge\ntemporal_worker_task_slots_available{worker_type="WorkflowWorker"} 5\n' : '');
      });
      await new Promise<void>((resolve) => exporter!.listen(0, '127.0.0.1', resolve));
      temporalTelemetryOptions((exporter.address() as AddressInfo).port);
      const metrics = createMetrics({ db: fakeDatabase(noRows).db, logger: quiet });
      const text = await metrics.scrape();
      expect(sample(text, 'temporal_worker_task_slots_available', { worker_type: 'WorkflowWorker' })).toBe(5);
      expect(sample(text, 'purser_payments_total', { rail: 'x402-base', outcome: 'settled' })).toBeGreaterThanOrEqual(1);

      const failures = sample(text, 'purser_metrics_collect_failures_total', { collector: 'temporal_sdk' }) ?? 0;
      await new Promise<void>((resolve) => exporter!.close(() => resolve()));
      exporter = undefined;
      const without = await metrics.scrape();
      expect(without).not.toContain('temporal_worker_task_slots_available');
      expect(without).toContain('# TYPE purser_payments_total counter');
      expect(sample(await metrics.scrape(), 'purser_metrics_collect_failures_total', { collector: 'temporal_sdk' })).toBe(failures + 1);
    });
  });
});
