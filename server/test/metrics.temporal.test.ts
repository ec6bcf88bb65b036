/**
 * GET /metrics of a worker process, as `RUN_SERVER=false` runs it (server/src/main.ts), with the
 * Temporal SDK's exporter on (TEMPORAL_METRICS_PORT) and its metrics on a port of their own
 * (METRICS_PORT), as a container listening on every interface serves them: after a payment the
 * worker ran end to end, one scrape of that port, without a token, shows the payment counted with
 * its rail and outcome and the SDK's own worker metrics, the schedule-to-start latency of its
 * workflow tasks among them; PORT does not serve them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paymentWorkflowId, type PaymentProgress } from '@purser/workflows';
import { freePorts } from '../../scripts/lib.mjs';
import { ownerIntents } from './support/owner-intents';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';

let env: TemporalTestEnv;
let owner: SignedUpOwner;
const { api, createFundedAgent, createIntent } = ownerIntents(() => env.testApp.app, () => owner);

beforeAll(async () => {
  env = await startTemporalTestEnv();
  owner = await signUpTestOwner(env.testApp.app, env.testApp.deps.db.prisma);
  expect((await api('POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
});

/** The samples of one metric family in an exposition: each line's labels and value. */
function samples(text: string, name: string): Array<{ labels: string; value: number }> {
  return text
    .split('\n')
    .map((line) => /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && match[1] === name)
    .map((match) => ({ labels: match[2] ?? '', value: Number(match[3]) }));
}

it('shows a payment the worker process settled, by rail and outcome, beside the Temporal worker’s schedule-to-start histogram, on METRICS_PORT alone', async () => {
  const [port, temporalMetricsPort, metricsPort] = await freePorts(3);
  const worker = await env.spawnWorkerProcess({
    HOST: '0.0.0.0',
    PORT: String(port),
    TEMPORAL_METRICS_PORT: String(temporalMetricsPort),
    METRICS_PORT: String(metricsPort),
  });
  try {
    const agentId = await createFundedAgent({ fund: 50 });
    const intent = await createIntent({ agentId, amount: 5, merchant: 'Metered Merchant' });
    const progress = (await env.client.workflow.getHandle(paymentWorkflowId(intent.id)).result()) as PaymentProgress;
    expect(progress.status).toBe('settled');

    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    // Counted by the process that settled it: this worker.
    expect(samples(text, 'purser_payments_total')).toContainEqual({ labels: 'rail="ledger",outcome="settled"', value: 1 });
    expect(samples(text, 'purser_payment_duration_seconds_count')).toContainEqual({ labels: 'rail="ledger",outcome="settled"', value: 1 });
    // The SDK's exporter, appended to the same scrape: the workflow tasks of that payment (its
    // steps are local activities, timed by the workflow task that runs them).
    const scheduleToStart = samples(text, 'temporal_workflow_task_schedule_to_start_latency_seconds_count');
    expect(scheduleToStart.reduce((sum, { value }) => sum + value, 0)).toBeGreaterThan(0);
    expect(samples(text, 'temporal_local_activity_execution_latency_seconds_count').map(({ labels }) => /activity_type="(\w+)"/.exec(labels)?.[1])).toEqual(
      expect.arrayContaining(['authorizePayment', 'executeOnRail', 'settle']),
    );
    expect(samples(text, 'temporal_worker_task_slots_available').length).toBeGreaterThan(0);
  } finally {
    await worker.stop();
  }
});
