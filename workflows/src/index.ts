// Public entry of @purser/workflows: constants, the activity factories, the worker, the
// embedded dev server and the Temporal CLI it runs, what a client needs to start, signal and
// query the workflows (their inputs, results, signals and queries) and small client helpers.
// Workflow code itself is loaded by the worker from src/workflows, never imported here.
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import { TASK_QUEUE, WORKFLOW_NAMES } from './constants';
import type { healthCheckWorkflow, HealthCheckResult } from './workflows';

export {
  DEFAULT_APPROVAL_TIME_BOX_MS,
  DEFAULT_WEBHOOK_RETRY,
  paymentSessionExpiryWorkflowId,
  paymentSessionRequestExpiryWorkflowId,
  paymentWorkflowId,
  TASK_QUEUE,
  WORKFLOW_NAMES,
  webhookDeliveryWorkflowId,
  type WebhookRetryPolicy,
} from './constants';
export {
  createActivities,
  type Activities,
  type ActivityDatabase,
  type ActivityDependencies,
  type DatabaseHealth,
  type PaymentActivities,
  type PaymentSessionCloser,
  type PaymentSteps,
  type WebhookSender,
} from './activities';
export { createWebhookActivities, type WebhookAttemptOptions, type WebhookAttemptResult } from './activities/webhooks';
export {
  approvalDecidedSignal,
  cancelSignal,
  policyChangedSignal,
  progressQuery,
  railUpdatedSignal,
  type PaymentProgress,
  type PaymentStepRecord,
  type PaymentWorkflowInput,
} from './workflows/payment-messages';
export { firedSummary, paidInRequestSteps, railDetail, type PaidInRequestFront } from './workflows/payment-records';
export type { WebhookDeliveryInput, WebhookDeliveryResult, webhookDeliveryWorkflow } from './workflows/webhook-delivery';
export { createPaymentsWorker, WORKFLOWS_PATH, type PaymentsWorkerOptions, type WorkerTracing } from './worker';
export { settlesWithin, startTemporalDevServer, type DevServer, type DevServerOptions, type ProcessExit } from './dev-server';
export { ensureTemporalCli, TEMPORAL_CLI_VERSION } from './temporal-cli.mjs';
export type { HealthCheckResult } from './workflows';

/**
 * Runs healthCheckWorkflow to completion and returns its result. Fails within `timeout`
 * when no worker polls the queue or the database does not answer.
 */
export function runHealthCheck(client: Client, { taskQueue = TASK_QUEUE, timeout = '15 seconds' }: { taskQueue?: string; timeout?: Duration } = {}): Promise<HealthCheckResult> {
  return client.workflow.execute<typeof healthCheckWorkflow>(WORKFLOW_NAMES.healthCheck, {
    taskQueue,
    workflowId: `health-check-${randomUUID()}`,
    workflowExecutionTimeout: timeout,
  });
}
