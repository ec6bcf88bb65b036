/**
 * The server's implementation of the payment workflow's steps (PaymentSteps in
 * @purser/workflows): the worker hands it to createActivities. Each step is one short
 * database transaction (or a rail call) that is safe to run again.
 */
import { type PaymentSteps, PAYMENT_WORKFLOW_ACTOR } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../trpc/context';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import { emitPaymentEvent } from '../webhooks/emit-payment-event';
import { startWebhookDeliveries } from '../webhooks/start-webhook-deliveries';
import { intentSelect, toIntentView } from '../intents/intent-view';
import type { Rails } from '../rails/create-rails';
import { openApproval, resolveApproval } from './approval-steps';
import { authorizePayment } from './authorize-payment';
import { applyGateDecision, loadGateInput } from './gate-records';
import { abandonRail, checkRail, chooseRail, executeOnRail } from './rail-steps';
import { reserveFunds } from './reserve-funds';
import { captureInTransaction, capturePayment, failIntent, releaseFunds } from './settle-payment';

export interface PaymentStepsDeps extends Pick<AppDeps, 'db' | 'temporal' | 'logger'> {
  rails: Rails;
}

export function createPaymentSteps({ db, temporal, logger, rails }: PaymentStepsDeps): PaymentSteps {
  const prisma = db.prisma;
  return {
    async emitEvent(intentId, type) {
      const emitted = await prisma.$transaction(async (tx: TransactionClient) => {
        const row = await tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect });
        return emitPaymentEvent(tx, { ownerId: row.ownerId, intentId, type, intent: toIntentView(row) });
      });
      await startWebhookDeliveries(temporal, emitted.deliveryIds);
    },
    authorize: (intentId) =>
      authorizePayment(
        { prisma, rails, startDeliveries: (deliveryIds) => startWebhookDeliveries(temporal, deliveryIds), log: (message, data) => logger.info(data, message) },
        intentId,
      ),
    loadGate: (intentId) => prisma.$transaction((tx: TransactionClient) => loadGateInput(tx, intentId, new Date())),
    applyGate: (intentId, decision, revision) =>
      withAuditRetry(prisma, (tx) => applyGateDecision(tx, intentId, decision, revision, (message, data) => logger.info(data, message))),
    openApproval: (intentId, expiresAt) => withAuditRetry(prisma, (tx) => openApproval(tx, intentId, new Date(expiresAt))),
    resolveApproval: (intentId, timedOut) => withAuditRetry(prisma, (tx) => resolveApproval(tx, intentId, timedOut)),
    selectRail: (intentId) => chooseRail(prisma, rails, intentId),
    reserveFunds: (intentId) => reserveFunds(prisma, intentId),
    executeOnRail: (intentId) => executeOnRail(prisma, rails, intentId),
    checkRail: (intentId) => checkRail(prisma, rails, intentId),
    abandonRail: (intentId) => abandonRail(prisma, rails, intentId),
    async capturePayment(intentId) {
      const captured = await capturePayment(prisma, intentId);
      await startWebhookDeliveries(temporal, captured.deliveryIds);
    },
    async settle(intentId, steps) {
      const deliveryIds = await withAuditRetry(prisma, async (tx) => {
        const captured = await captureInTransaction(tx, intentId);
        const row = await tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect });
        const emitted = await emitPaymentEvent(tx, { ownerId: row.ownerId, intentId, type: 'settlement.completed', intent: toIntentView(row) });
        await appendWorkflowAudit(tx, { intentId, ownerId: row.ownerId, status: row.status }, steps);
        // The settlement event first: a receiver hears of the payment before the budget it used.
        return [...emitted.deliveryIds, ...captured.deliveryIds];
      });
      await startWebhookDeliveries(temporal, deliveryIds);
    },
    releaseFunds: (intentId, failure) => releaseFunds(prisma, intentId, failure),
    failIntent: (intentId, failure) => failIntent(prisma, intentId, failure),
    async recordWorkflowAudit(intentId, steps) {
      await withAuditRetry(prisma, async (tx) => {
        const row = await tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { ownerId: true, status: true } });
        await appendWorkflowAudit(tx, { intentId, ...row }, steps);
      });
    },
  };
}

/** The workflow's whole step history as one audit entry, once per intent. */
async function appendWorkflowAudit(
  tx: TransactionClient,
  intent: { intentId: string; ownerId: string; status: string },
  steps: Parameters<PaymentSteps['recordWorkflowAudit']>[1],
): Promise<void> {
  const subject = `payment_intent:${intent.intentId}`;
  const action = 'payment_intent.workflow_completed';
  // A retried activity must not log the run twice.
  const logged = await tx.auditEvent.findFirst({ where: { ownerId: intent.ownerId, subject, action }, select: { seq: true } });
  if (logged) return;
  await appendAuditEvent(tx, {
    actor: PAYMENT_WORKFLOW_ACTOR,
    action,
    subject,
    ownerId: intent.ownerId,
    data: { status: intent.status, steps: steps.map(({ step, status, at, detail }) => ({ step, status, at, detail: detail ?? null })) },
  });
}
