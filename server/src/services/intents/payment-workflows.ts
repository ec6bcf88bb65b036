/**
 * Starting and signalling payment workflows from services. Starting is idempotent: the
 * workflow id derives from the intent id, and a start that finds the workflow running or
 * already closed (a retried request, a concurrent duplicate) is not an error: the id is never
 * reused, so an intent's workflow runs once, whatever happens to the request that started it.
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import {
  approvalDecidedSignal,
  cancelSignal,
  paymentWorkflowId,
  policyChangedSignal,
  progressQuery,
  railUpdatedSignal,
  WORKFLOW_NAMES,
  type PaymentProgress,
  type PaymentWorkflowInput,
} from '@purser/workflows';
import type { TemporalDeps } from '../../deps';

/** `paidInRequest`: authorised, held and signed in the agent's request (PaymentWorkflowInput). */
export async function startPaymentWorkflow(temporal: TemporalDeps, intent: { id: string; maxRetries: number; paidInRequest?: boolean }): Promise<void> {
  const args: [PaymentWorkflowInput] = [{ intentId: intent.id, maxRetries: intent.maxRetries, ...(intent.paidInRequest ? { paidInRequest: true } : {}) }];
  try {
    await temporal.client.workflow.start(WORKFLOW_NAMES.payment, {
      taskQueue: temporal.taskQueue,
      workflowId: paymentWorkflowId(intent.id),
      // A payment that ended (settled, failed, released) must never run a second time.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      args,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

const PAYMENT_SIGNALS = {
  approvalDecided: approvalDecidedSignal,
  cancel: cancelSignal,
  policyChanged: policyChangedSignal,
  railUpdated: railUpdatedSignal,
} as const;

export type PaymentSignal = keyof typeof PAYMENT_SIGNALS;

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
    await temporal.client.workflow.getHandle(paymentWorkflowId(intentId)).signal(PAYMENT_SIGNALS[signal]);
  } catch (error) {
    // A finished workflow needs no news.
    if (!(error instanceof WorkflowNotFoundError)) log(error);
  }
}

/** The workflow's own account of its steps (the progress query); null when it never started. */
export async function queryPaymentProgress(temporal: TemporalDeps, intentId: string): Promise<PaymentProgress | null> {
  try {
    return await temporal.client.workflow.getHandle(paymentWorkflowId(intentId)).query(progressQuery);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
}

/**
 * The workflow's last account of its steps, once it has closed: what it returned, or for a
 * workflow that failed or was terminated what its progress query answers; null when it never
 * started. Waits on Temporal's long poll for the close (the way `result()` always does), never
 * on a timer of ours; `signal` ends the wait early with an AbortError.
 */
export async function closedPaymentProgress(temporal: TemporalDeps, intentId: string, signal: AbortSignal): Promise<PaymentProgress | null> {
  const handle = temporal.client.workflow.getHandle<(input: PaymentWorkflowInput) => Promise<PaymentProgress>>(paymentWorkflowId(intentId));
  try {
    return await temporal.client.withAbortSignal(signal, () => handle.result());
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof WorkflowNotFoundError) return null;
    if (error instanceof WorkflowFailedError) return queryPaymentProgress(temporal, intentId);
    throw error;
  }
}
