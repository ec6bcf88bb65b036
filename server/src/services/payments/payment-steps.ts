/**
 * The server's implementation of the payment workflow's steps (core's PaymentSteps contract):
 * the worker hands them to createActivities. Each step is one short database transaction (or a
 * rail call) that is safe to run again.
 */
import {
  AppError,
  gateInputToJson,
  isAppError,
  railFromDb,
  PAYMENT_WORKFLOW_ACTOR,
  type AuthorizeOutcome,
  type IntentStatus,
  type PaymentActivities,
  type PaymentStepRecord,
  type PaymentSteps,
  type PaymentStepsBeforeOneFront,
} from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { paidInRequestSteps } from '@purser/workflows';
import type { AppDeps } from '../../deps';
import { countCaptureInvariantFailure } from '../../metrics/metrics';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import { emitPaymentEvent } from '../webhooks/emit-payment-event';
import { startWebhookDeliveries } from '../webhooks/start-webhook-deliveries';
import { intentSelect, toIntentView } from '../intents/intent-view';
import type { Rails } from '../rails/create-rails';
import { openApproval, resolveApproval } from './approval-steps';
import { authorizePayment } from './authorize-payment';
import { loadGateInput } from './gate-inputs';
import { abandonRail, checkRail, executeOnRail } from './rail-steps';
import { captureInTransaction, captureSettledInRequest, failIntent, releaseFunds, type CaptureOptions, type CaptureResult } from './settle-payment';

export interface PaymentStepsDeps extends Pick<AppDeps, 'db' | 'temporal' | 'logger'> {
  rails: Rails;
}

/** The audit action of a workflow's whole step history, logged once per intent. */
const WORKFLOW_AUDIT_ACTION = 'payment_intent.workflow_completed';
/** What a settle asks of the capture besides the money: the event, and whether the run is logged already. */
const SETTLED: CaptureOptions = { event: 'settlement.completed', auditAction: WORKFLOW_AUDIT_ACTION };

export function createPaymentSteps(deps: PaymentStepsDeps): PaymentActivities {
  const steps = createCurrentSteps(deps);
  return { ...steps, ...createStepsBeforeOneFront(deps, steps.authorizePayment) };
}

function createCurrentSteps({ db, temporal, logger, rails }: PaymentStepsDeps): PaymentSteps {
  const prisma = db.prisma;
  /**
   * A capture refused on an invariant (settle-payment.ts): the step fails for good (never
   * retried), the intent stays processing with its funds held, and an operator is alerted, by
   * the error log `capture_invariant_failure` and purser_capture_invariant_failures_total
   * (docs/operations.md).
   */
  async function alertCaptureInvariant(intentId: string, error: AppError) {
    // The alert goes out even when its details cannot be read: the step still fails for good.
    const intent = await prisma.paymentIntent.findUnique({ where: { id: intentId }, select: { rail: true, agentId: true } }).catch(() => null);
    const rail = intent?.rail ? railFromDb(intent.rail) : 'none';
    countCaptureInvariantFailure(rail);
    logger.error(
      { event: 'capture_invariant_failure', intentId, agentId: intent?.agentId, rail, reason: error.message },
      'a capture was refused: the chain does not show what the payment may take; its funds stay held for an operator',
    );
  }
  /**
   * A settle's one transaction, `capture` then the workflow's audit entry, the deliveries started
   * after the commit; null when `capture` found nothing to settle. A capture refused on an
   * invariant is alerted.
   */
  async function settleWith(
    intentId: string,
    capture: (tx: TransactionClient) => Promise<{ captured: CaptureResult; steps: PaymentStepRecord[] } | null>,
  ): Promise<PaymentStepRecord[] | null> {
    const settled = await withAuditRetry(prisma, async (tx) => {
      const done = await capture(tx);
      // A retried activity must not log the run twice.
      if (done && !done.captured.auditLogged) {
        await appendWorkflowAudit(tx, { intentId, ownerId: done.captured.ownerId, status: done.captured.status }, done.steps);
      }
      return done;
    }).catch(async (error: unknown) => {
      if (isAppError(error) && error.code === 'CAPTURE_INVARIANT') await alertCaptureInvariant(intentId, error);
      throw error;
    });
    if (!settled) return null;
    await startWebhookDeliveries(temporal, settled.captured.deliveryIds);
    return settled.steps;
  }
  return {
    authorizePayment: (intentId) =>
      authorizePayment(
        { prisma, rails, startDeliveries: (deliveryIds) => startWebhookDeliveries(temporal, deliveryIds), log: (message, data) => logger.info(data, message) },
        intentId,
      ),
    resolveApproval: (intentId, timedOut) => withAuditRetry(prisma, (tx) => resolveApproval(tx, intentId, timedOut)),
    executeOnRail: (intentId) => executeOnRail(prisma, rails, intentId),
    checkRail: (intentId) => checkRail(prisma, rails, intentId),
    abandonRail: (intentId) => abandonRail(prisma, rails, intentId),
    // The capture, its budget alerts, the settlement.completed event with the settled intent and
    // the workflow's audit entry: BEGIN, one statement, the audit entries, COMMIT (settle-payment.ts).
    settle: async (intentId, steps) => {
      await settleWith(intentId, async (tx) => ({ captured: await captureInTransaction(tx, intentId, SETTLED), steps }));
    },
    // The same for a payment the agent's request authorised, once its seller has settled it: the
    // audit entry lists the steps the request took, as the intent and its operation record them.
    settlePaidInRequest: (intentId, end) =>
      settleWith(intentId, async (tx) => {
        const captured = await captureSettledInRequest(tx, intentId, SETTLED);
        return captured && { captured, steps: [...paidInRequestSteps(captured.request), ...end] };
      }),
    releaseFunds: (intentId, failure) => releaseFunds(prisma, intentId, failure),
    failIntent: (intentId, failure) => failIntent(prisma, intentId, failure),
    async recordWorkflowAudit(intentId, steps) {
      await withAuditRetry(prisma, async (tx) => {
        const [row] = await tx.$queryRaw<{ ownerId: string; status: IntentStatus; logged: boolean }[]>`
          SELECT i."owner_id"::text AS "ownerId", i."status"::text AS "status",
                 EXISTS (SELECT 1 FROM "audit_events" e
                          WHERE e."owner_id" = i."owner_id" AND e."subject" = ${`payment_intent:${intentId}`} AND e."action" = ${WORKFLOW_AUDIT_ACTION}) AS "logged"
            FROM "payment_intents" i WHERE i."id" = ${intentId}::uuid`;
        if (!row) throw new Error(`Payment intent ${intentId} not found`);
        // A retried activity must not log the run twice.
        if (!row.logged) await appendWorkflowAudit(tx, { intentId, ...row }, steps);
      });
    },
  };
}

/**
 * The steps runs recorded before the workflow's 'one-front' patch still call (core's
 * PaymentStepsBeforeOneFront). Each runs the one front (authorizePayment) and answers in the
 * shape those runs expect, so the front has one implementation: such a run that asks to apply
 * its gate decision, choose its rail or reserve finds the payment decided, quoted and held in
 * one transaction, and its later steps find each part done. They go with the patch.
 */
function createStepsBeforeOneFront({ db, temporal }: PaymentStepsDeps, authorize: PaymentSteps['authorizePayment']): PaymentStepsBeforeOneFront {
  const prisma = db.prisma;
  const statusAfter = (outcome: AuthorizeOutcome) => {
    switch (outcome.outcome) {
      case 'authorized':
        return 'approved' as const;
      case 'needs_approval':
        return 'pending_approval' as const;
      default:
        return outcome.status;
    }
  };
  return {
    async emitEvent(intentId, type) {
      const emitted = await prisma.$transaction(async (tx: TransactionClient) => {
        const row = await tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect });
        return emitPaymentEvent(tx, { ownerId: row.ownerId, intentId, type, intent: toIntentView(row) });
      });
      await startWebhookDeliveries(temporal, emitted.deliveryIds);
    },
    async authorize(intentId) {
      const outcome = await authorize(intentId);
      if (outcome.outcome !== 'authorized') return { authorized: false };
      return { authorized: true, rail: outcome.rail, sandbox: outcome.sandbox, decision: outcome.decision };
    },
    // The front evaluates the gate again under its locks, so no decision made from these inputs is applied as it was.
    loadGate: (intentId) => prisma.$transaction(async (tx: TransactionClient) => gateInputToJson(await loadGateInput(tx, intentId, new Date()), '')),
    applyGate: async (intentId) => ({ status: statusAfter(await authorize(intentId)) }),
    openApproval: (intentId, expiresAt) => withAuditRetry(prisma, (tx) => openApproval(tx, intentId, new Date(expiresAt))),
    async selectRail(intentId) {
      const outcome = await authorize(intentId);
      if (outcome.outcome === 'authorized') return { rail: outcome.rail, sandbox: outcome.sandbox };
      if (outcome.outcome === 'refused' && outcome.rail) return outcome.rail;
      throw new AppError('RAIL_UNAVAILABLE', outcome.outcome === 'refused' ? outcome.failure.message : `The payment intent is ${statusAfter(outcome)}`);
    },
    async reserveFunds(intentId) {
      const outcome = await authorize(intentId);
      switch (outcome.outcome) {
        case 'authorized':
          return { status: 'reserved' };
        case 'needs_approval':
          return { status: 'needs_approval' };
        case 'ended':
          return { status: outcome.status, ended: true };
        case 'refused':
          throw new AppError(outcome.status === 'blocked' ? 'POLICY_VIOLATION' : (outcome.failure.code as 'INSUFFICIENT_FUNDS'), outcome.failure.message);
      }
    },
  };
}


/** The workflow's whole step history as one audit entry (the caller has checked it is not logged yet). */
async function appendWorkflowAudit(
  tx: TransactionClient,
  intent: { intentId: string; ownerId: string; status: string },
  steps: PaymentStepRecord[],
): Promise<void> {
  await appendAuditEvent(tx, {
    actor: PAYMENT_WORKFLOW_ACTOR,
    action: WORKFLOW_AUDIT_ACTION,
    subject: `payment_intent:${intent.intentId}`,
    ownerId: intent.ownerId,
    data: { status: intent.status, steps: steps.map(({ step, status, at, detail }) => ({ step, status, at, detail: detail ?? null })) },
  });
}
