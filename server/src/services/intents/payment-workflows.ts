/**
 * Starting and signalling payment workflows from services. Starting is idempotent: the
 * workflow id derives from the intent id, and a start that finds the workflow running (a
 * retried request, a concurrent duplicate) is not an error.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { paymentWorkflowId, WORKFLOW_NAMES } from '@purser/workflows/constants';
import type { PaymentProgress, PaymentWorkflowInput } from '@purser/workflows/workflows/payment';
import type { TemporalDeps } from '../../trpc/context';

export async function startPaymentWorkflow(temporal: TemporalDeps, intent: { id: string; maxRetries: number }): Promise<void> {
  const args: [PaymentWorkflowInput] = [{ intentId: intent.id, maxRetries: intent.maxRetries }];
  try {
    await temporal.client.workflow.start(WORKFLOW_NAMES.payment, {
      taskQueue: temporal.taskQueue,
      workflowId: paymentWorkflowId(intent.id),
      args,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

export type PaymentSignal = 'approvalDecided' | 'cancel' | 'policyChanged' | 'railUpdated';

/**
 * Tells the intent's workflow something changed. The change is already committed, and the
 * workflow reads it from the database; should the signal be lost (Temporal briefly down), the
 * approval timer or the next step still finds the change, so a failed signal is only logged.
 */
export async function signalPaymentWorkflow(
  temporal: TemporalDeps,
  intentId: string,
  signal: PaymentSignal,
  log: (error: unknown) => void,
): Promise<void> {
  try {
    await temporal.client.workflow.getHandle(paymentWorkflowId(intentId)).signal(signal);
  } catch (error) {
    // A finished workflow needs no news.
    if (!(error instanceof WorkflowNotFoundError)) log(error);
  }
}

/** The workflow's own account of its steps (the progress query); null when it never started. */
export async function queryPaymentProgress(temporal: TemporalDeps, intentId: string): Promise<PaymentProgress | null> {
  try {
    return await temporal.client.workflow.getHandle(paymentWorkflowId(intentId)).query<PaymentProgress>('progress');
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}
