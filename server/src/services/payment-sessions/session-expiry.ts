/**
 * Starts an open session's expiry timer (paymentSessionExpiryWorkflow) once the transaction that
 * opened it committed, and a budget request's, which closes it if its owner has not decided by
 * the expiry it asked for (a grant then starts the open session's, as it may set a sooner expiry).
 * Each workflow id is the session's, never reused: a second start (a retried request) joins the
 * one there is.
 *
 * Failure window: Temporal unreachable right after the commit leaves the session without its
 * timer; it still reads closed and the gate refuses its payments from its expiry on (the row
 * carries it), but no budget.closed is sent. The failure is logged for an operator.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { paymentSessionExpiryWorkflowId, paymentSessionRequestExpiryWorkflowId, WORKFLOW_NAMES } from '@purser/workflows';
import type { PaymentSessionView } from '@purser/core';
import type { AppDeps } from '../../deps';

export async function startSessionExpiry(deps: Pick<AppDeps, 'temporal' | 'logger'>, session: Pick<PaymentSessionView, 'id' | 'status' | 'expiresAt'>): Promise<void> {
  if (session.status !== 'open' && session.status !== 'requested') return;
  try {
    await deps.temporal.client.workflow.start(WORKFLOW_NAMES.paymentSessionExpiry, {
      taskQueue: deps.temporal.taskQueue,
      workflowId: session.status === 'open' ? paymentSessionExpiryWorkflowId(session.id) : paymentSessionRequestExpiryWorkflowId(session.id),
      args: [{ sessionId: session.id, expiresAt: session.expiresAt }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    deps.logger.error({ err: error, sessionId: session.id }, 'The payment session expiry timer could not be started; it will not announce its close');
  }
}
