// Delivers one webhook delivery: attempts with exponential backoff (initial, doubling, capped
// at maximum) until the endpoint answers 2xx, the sender says stop (endpoint deleted or
// disabled), or retryForMs after the first attempt has passed; then the delivery is failed.
// Timers are durable, so a delivery keeps retrying across worker restarts for the whole
// window (25 hours by default). Deterministic: time comes from the workflow clock.
import { ActivityFailure, continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { createWebhookActivities, WebhookAttemptResult } from '../activities/webhooks';
import type { WebhookRetryPolicy } from '../constants';

// The activity's own retries cover infrastructure trouble (database briefly away, worker
// restart), not the endpoint's answer: a non-2xx is a normal result, retried by the loop.
const { attemptWebhookDelivery, giveUpWebhookDelivery } = proxyActivities<ReturnType<typeof createWebhookActivities>>({
  // The HTTP request times out after 10 s; the rest is two short transactions.
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

export interface WebhookDeliveryInput {
  deliveryId: string;
  retry: WebhookRetryPolicy;
  /** Carried over by continueAsNew: when the first attempt began and how many have failed. */
  resume?: { firstAttemptAt: number; failures: number };
}

export interface WebhookDeliveryResult {
  delivered: boolean;
  /** Attempts this run (and the runs it continued) made. */
  attempts: number;
  lastStatusCode: number | null;
}

/** The wait after the n-th failed attempt (n from 1). */
function backoffMs(retry: WebhookRetryPolicy, failures: number): number {
  return Math.min(retry.initialIntervalMs * 2 ** Math.min(failures - 1, 40), retry.maximumIntervalMs);
}

export async function webhookDeliveryWorkflow({ deliveryId, retry, resume }: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const firstAttemptAt = resume?.firstAttemptAt ?? Date.now();
  const deadline = firstAttemptAt + retry.retryForMs;
  let failures = resume?.failures ?? 0;
  let lastStatusCode: number | null = null;

  for (;;) {
    // Announced to the log before the attempt; the real wait is computed after it.
    const announced = Math.min(backoffMs(retry, failures + 1), deadline - Date.now());
    let result: WebhookAttemptResult | null = null;
    try {
      result = await attemptWebhookDelivery(deliveryId, { retryInMs: announced > 0 ? announced : null });
    } catch (error) {
      // Infrastructure kept failing past the activity's retries: count it as a failed attempt
      // so the delivery still ends when its window does.
      if (!(error instanceof ActivityFailure)) throw error;
    }
    if (result) lastStatusCode = result.statusCode;
    if (result?.delivered) return { delivered: true, attempts: failures + 1, lastStatusCode };
    if (result?.stop) return { delivered: false, attempts: failures + (result.attempt > 0 ? 1 : 0), lastStatusCode };
    failures += 1;

    const wait = Math.min(backoffMs(retry, failures), deadline - Date.now());
    if (wait <= 0) break;
    await sleep(wait);
    // A long window with short intervals would grow the history without bound.
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof webhookDeliveryWorkflow>({ deliveryId, retry, resume: { firstAttemptAt, failures } });
    }
  }

  await giveUpWebhookDelivery(deliveryId);
  return { delivered: false, attempts: failures, lastStatusCode };
}
