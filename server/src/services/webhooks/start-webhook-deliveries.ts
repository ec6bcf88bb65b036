/**
 * Starts delivery runs (webhookDeliveryWorkflow). A run's workflow id derives from the
 * delivery id and the run number, and such an id is never reused: starting the first run of
 * a delivery twice (a retried activity) leaves the one run there is, running or finished.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WORKFLOW_NAMES, webhookDeliveryWorkflowId } from '@purser/workflows';
import type { TemporalDeps } from '../../deps';

/**
 * Starts run `run` of a delivery: true when that run is running now (just started, or already
 * under way and joined rather than duplicated), false when it ran before (its id is spent).
 */
export async function startWebhookDeliveryRun(temporal: TemporalDeps, deliveryId: string, run: number): Promise<boolean> {
  const workflowId = webhookDeliveryWorkflowId(deliveryId, run);
  try {
    await temporal.client.workflow.start(WORKFLOW_NAMES.webhookDelivery, {
      taskQueue: temporal.taskQueue,
      workflowId,
      args: [{ deliveryId, retry: temporal.webhookRetry }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

/** Starts the first run of each delivery (after the transaction that created them committed). */
export async function startWebhookDeliveries(temporal: TemporalDeps, deliveryIds: readonly string[]): Promise<void> {
  for (const deliveryId of deliveryIds) await startWebhookDeliveryRun(temporal, deliveryId, 1);
}
