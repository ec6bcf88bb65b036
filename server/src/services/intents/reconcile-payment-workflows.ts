/**
 * The reconciler: a payment whose workflow closed while its intent is still open holds funds that
 * nothing will ever capture or release (an operator terminated the run, a bug failed it, the
 * history limit ended it before continue-as-new existed). One pass walks the open intents, asks
 * Temporal how each one's workflow stands, and starts a new run for every intent whose workflow
 * is closed without having ended it. The new run's steps are idempotent (authorizePayment answers
 * the hold it already placed, the rail's operation is recorded once, capture and release are
 * guarded transitions), so it picks the payment up where the old run left it.
 *
 * Exactly once: the new run has the same workflow id and is started only over a run that failed,
 * was terminated, cancelled or timed out (ALLOW_DUPLICATE_FAILED_ONLY), so two servers
 * reconciling at once start one run, and a payment that ended is never run again. An intent whose
 * workflow completed but left it open is a bug no new run can fix: it is logged for an operator
 * (except a capture refused for good, CAPTURE_INVARIANT, which was alerted when it happened).
 *
 * The same pass sweeps what a suspension's own sweep may have missed (its process died between the
 * commit and the sweep): x402 authorisations of suspended or deleted agents that no seller has
 * redeemed are cancelled (agents/cancel-agent-authorizations.ts).
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { TERMINAL_INTENT_STATUSES, INTENT_STATUSES, type IntentStatus } from '@purser/core';
import { paymentWorkflowId, WORKFLOW_NAMES, type PaymentWorkflowInput } from '@purser/workflows';
import type { AppDeps } from '../../deps';
import { startPaymentWorkflow } from './payment-workflows';

export type ReconcileDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger'>;

/** How often the reconciler looks. */
export const RECONCILE_INTERVAL_MS = 60_000;
/** An intent changed this recently is its workflow's (or its request's) to move; left alone. */
const RECONCILE_AFTER_MS = 2 * 60_000;
/** Intents one pass looks at at most; the next pass goes on from the last one. */
const RECONCILE_BATCH = 200;

const OPEN_STATUSES: IntentStatus[] = INTENT_STATUSES.filter((status) => !TERMINAL_INTENT_STATUSES.includes(status));

export interface ReconcileResult {
  /** Intents whose workflow was started again. */
  restarted: string[];
  /** Intents whose workflow completed and left them open: an operator's to look at. */
  stuck: string[];
  /** Where the next pass goes on (null: from the start). */
  after: string | null;
}

/**
 * One pass over the open intents with ids after `after`, oldest change first within the batch.
 * `olderThanMs` (tests) replaces how long an intent must have been left alone.
 */
export async function reconcilePaymentWorkflows(deps: ReconcileDeps, options: { after?: string | null; olderThanMs?: number } = {}): Promise<ReconcileResult> {
  const before = new Date(Date.now() - (options.olderThanMs ?? RECONCILE_AFTER_MS));
  const intents = await deps.db.prisma.paymentIntent.findMany({
    where: {
      status: { in: OPEN_STATUSES },
      updatedAt: { lt: before },
      // A row still in the outbox never started: the relay starts it.
      workflowOutbox: { is: null },
      ...(options.after ? { id: { gt: options.after } } : {}),
    },
    orderBy: { id: 'asc' },
    take: RECONCILE_BATCH,
    select: { id: true, maxRetries: true, railOperation: { select: { details: true } } },
  });
  const restarted: string[] = [];
  const stuck: string[] = [];
  for (const intent of intents) {
    const state = await workflowState(deps, intent.id);
    if (state === 'running') continue;
    if (state === 'completed') {
      // A capture refused for good (CAPTURE_INVARIANT) ends its run with the funds held: it was
      // alerted when it happened, and it is the operator's.
      if (intent.railOperation && (intent.railOperation.details as { captureInvariant?: unknown }).captureInvariant !== undefined) continue;
      stuck.push(intent.id);
      deps.logger.error({ intentId: intent.id }, 'a payment workflow completed but its intent is still open; an operator must look at it');
      continue;
    }
    if (state === 'missing') {
      await startPaymentWorkflow(deps.temporal, intent);
    } else if (!(await startAgain(deps, intent))) {
      continue;
    }
    restarted.push(intent.id);
    deps.logger.warn({ intentId: intent.id, previousRun: state }, 'started the payment workflow again: its last run closed with the intent open');
  }
  const last = intents.length === RECONCILE_BATCH ? intents[intents.length - 1]!.id : null;
  return { restarted, stuck, after: last };
}

type WorkflowState = 'running' | 'completed' | 'missing' | 'failed' | 'terminated' | 'cancelled' | 'timed_out';

async function workflowState(deps: ReconcileDeps, intentId: string): Promise<WorkflowState> {
  try {
    const { status } = await deps.temporal.client.workflow.getHandle(paymentWorkflowId(intentId)).describe();
    switch (status.name) {
      case 'RUNNING':
      case 'CONTINUED_AS_NEW':
      case 'PAUSED':
        return 'running';
      case 'COMPLETED':
        return 'completed';
      case 'FAILED':
        return 'failed';
      case 'CANCELLED':
        return 'cancelled';
      case 'TIMED_OUT':
        return 'timed_out';
      default:
        return 'terminated';
    }
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'missing';
    throw error;
  }
}

/** A new run over one that failed or was ended from outside; false when another server was first. */
async function startAgain(deps: ReconcileDeps, intent: { id: string; maxRetries: number }): Promise<boolean> {
  const args: [PaymentWorkflowInput] = [{ intentId: intent.id, maxRetries: intent.maxRetries }];
  try {
    await deps.temporal.client.workflow.start(WORKFLOW_NAMES.payment, {
      taskQueue: deps.temporal.taskQueue,
      workflowId: paymentWorkflowId(intent.id),
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      args,
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

export interface Reconciler {
  stop(): Promise<void>;
}

/** Reconciles every `intervalMs`, one pass at a time, walking the open intents batch by batch. */
export function startReconciler(deps: ReconcileDeps & { sweep?: () => Promise<void> }, options: { intervalMs?: number } = {}): Reconciler {
  let after: string | null = null;
  const pass = async () => {
    try {
      ({ after } = await reconcilePaymentWorkflows(deps, { after }));
      await deps.sweep?.();
    } catch (error) {
      deps.logger.warn({ err: error }, 'the payment reconciler could not finish a pass');
    }
  };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => void (running = running.then(pass)), options.intervalMs ?? RECONCILE_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
