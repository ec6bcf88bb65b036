/**
 * The end of a reserved payment: capture (hold -> payee) or release (hold -> agent, the
 * compensation of the reserve). Each posts at most one ledger transaction per intent (the
 * unique (payment_intent_id, type) index stands behind the checks here), so a retried
 * activity or a restarted worker completes the payment exactly once.
 *
 * The payee of a ledger-rail payment to the address of another agent's wallet is that agent:
 * an internal custodial transfer. Any other payment leaves the platform: the external account.
 *
 * Most rails move exactly the held amount. An x402 `upto` payment holds the signed maximum and
 * moves what the seller settled, as read from the chain (the rail's `capturedAmount`): its
 * capture pays that amount and returns the rest of the hold to the agent in the same ledger
 * transaction, and the intent's amount becomes what was paid (the maximum stays in its
 * requirement and in the capture's audit entry).
 *
 * The capture is one statement, purser_capture_payment (migration *_settle_in_one_step), fed what
 * TypeScript decides (the time, the windows the budget alerts count spend over, the event to emit);
 * its transition's audit entry is appended here and written with the transaction's others, so a
 * settle is BEGIN, the capture, the audit entries, COMMIT (settle-statements tests count them).
 */
import {
  AppError,
  BUDGET_ALERT_THRESHOLDS,
  INTENT_NOT_FOUND_MESSAGE,
  PAYMENT_WORKFLOW_ACTOR,
  railToDb,
  type IntentStatus,
  type Currency,
  type RailName,
  type WebhookEventType,
} from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import type { PaidInRequestFront } from '@purser/workflows';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import { getOrCreateAgentAccount, getOrCreateHoldAccount, postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { lockIntent, transitionIntent, type LockedIntent } from '../intents/transition-intent';
import { isUuid } from '../agents/owned-agent';
import { budgetWindows } from '../budgets/record-budget-alerts';
import { closeSessionIfSpent } from '../payment-sessions/close-payment-session';
import { restoreToReserve } from '../payment-sessions/session-reserve';
import { countPaymentTransition } from '../../metrics/metrics';

export interface CaptureResult {
  /** Webhook deliveries of the event and the budget alerts the capture caused: start them after commit. */
  deliveryIds: string[];
  ownerId: string;
  /** The intent's status once the capture is done (settled). */
  status: IntentStatus;
  /** Whether the intent's audit log already holds `auditAction` (when one was asked about). */
  auditLogged: boolean;
}

export interface CaptureOptions {
  /** The event to emit with the settled intent, in the same statement (its deliveries come first). */
  event?: WebhookEventType;
  /** An audit action to look for on the intent, so a retried step does not log it twice. */
  auditAction?: string;
}

export async function capturePayment(prisma: PrismaClient, intentId: string): Promise<CaptureResult> {
  return withAuditRetry(prisma, (tx) => captureInTransaction(tx, intentId));
}

/** What purser_capture_payment answers (migration *_settle_in_one_step). */
interface CaptureRow {
  outcome: 'captured' | 'settled_before' | 'not_found' | 'not_ready' | 'refused' | 'invariant';
  message: string | null;
  ownerId: string;
  agentId: string;
  status: IntentStatus;
  /** As the database spells it, which is as the API names it. */
  rail: RailName | null;
  createdAt: Date;
  ledgerTransactionId: string | null;
  payee: string | null;
  held: string | null;
  paid: string | null;
  returned: string | null;
  deliveryIds: string[];
  auditLogged: boolean | null;
  reservedAt: Date | null;
  policyDecision: unknown;
  operationReference: string | null;
  operationSandbox: boolean | null;
  operationSettledAt: Date | null;
  /** The payment session the intent is charged to. */
  paymentSessionId: string | null;
}

/**
 * capturePayment's work in the caller's transaction, in one statement: purser_capture_payment
 * locks the intent, checks it may be captured, reads what the rail moved, locks the wallets,
 * posts the capture, completes the agent's history row (and the payee's), settles the intent,
 * records the budget alerts the spend now reaches (budgets/record-budget-alerts.ts) and, when
 * asked, emits the event with the settled intent and looks for an audit action. The transition's
 * audit entry is appended here, to be written with the transaction's others.
 *
 * A retry of a committed capture moves nothing and answers the same deliveries (to start again,
 * in case the run that committed them stopped before starting them).
 */
export async function captureInTransaction(tx: TransactionClient, intentId: string, options: CaptureOptions = {}): Promise<CaptureResult> {
  const row = await capture(tx, intentId, options, false);
  return { deliveryIds: row.deliveryIds, ownerId: row.ownerId, status: row.status, auditLogged: row.auditLogged === true };
}

/**
 * The same for a payment authorised in the agent's request, once its rail operation has settled
 * (the seller settled it on chain before the workflow started): null, and nothing written, when
 * its funds are not held or its operation has not settled, and the workflow ends it the usual way.
 * The answer says what the request did, for the workflow's record of the payment.
 */
export async function captureSettledInRequest(
  tx: TransactionClient,
  intentId: string,
  options: CaptureOptions = {},
): Promise<(CaptureResult & { request: PaidInRequestFront }) | null> {
  const row = await capture(tx, intentId, options, true);
  if (row.outcome === 'not_ready') return null;
  const reservedAt = new Date(row.reservedAt ?? row.createdAt).toISOString();
  return {
    deliveryIds: row.deliveryIds,
    ownerId: row.ownerId,
    status: row.status,
    auditLogged: row.auditLogged === true,
    request: {
      createdAt: new Date(row.createdAt).toISOString(),
      reservedAt,
      decision: row.policyDecision,
      rail: row.rail ?? 'ledger',
      sandbox: row.operationSandbox === true,
      reference: row.operationReference ?? '',
      settledAt: row.operationSettledAt ? new Date(row.operationSettledAt).toISOString() : reservedAt,
    },
  };
}

async function capture(tx: TransactionClient, intentId: string, options: CaptureOptions, whenSettled: boolean): Promise<CaptureRow> {
  if (!isUuid(intentId)) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  const at = new Date();
  const { windowStart, monthStart } = budgetWindows(at);
  const [row] = await tx.$queryRaw<CaptureRow[]>`
    SELECT "outcome", "message", "owner_id"::text AS "ownerId", "agent_id"::text AS "agentId", "status", "rail", "created_at" AS "createdAt",
           "ledger_transaction_id"::text AS "ledgerTransactionId", "payee", "held"::text AS "held", "paid"::text AS "paid",
           "returned"::text AS "returned", "delivery_ids"::text[] AS "deliveryIds", "audit_logged" AS "auditLogged",
           "reserved_at" AS "reservedAt", "policy_decision" AS "policyDecision", "operation_reference" AS "operationReference",
           "operation_sandbox" AS "operationSandbox", "operation_settled_at" AS "operationSettledAt",
           "payment_session_id"::text AS "paymentSessionId"
      FROM "purser_capture_payment"(
        ${intentId}::uuid, ${at.toISOString()}::timestamptz, ${windowStart.toISOString()}::timestamptz, ${monthStart.toISOString()}::timestamptz,
        ${[...BUDGET_ALERT_THRESHOLDS]}::int[], ${options.event ?? null}::text, ${options.auditAction ?? null}::text, ${whenSettled})`;
  if (!row || row.outcome === 'not_found') throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  // Not capturable from its status: a bug of the caller's, retried until someone looks.
  if (row.outcome === 'refused') throw new Error(row.message ?? `Cannot capture payment intent ${intentId}`);
  // The rail found a settlement it could not match to this payment, or the chain moved more
  // than was held (the signed maximum is the hold, and Permit2 enforces it) or nothing at all
  // (a settlement of 0 is declined by the rail, which releases the hold whole): never retried,
  // and the funds stay held for an operator.
  if (row.outcome === 'invariant') throw new AppError('CAPTURE_INVARIANT', row.message ?? `Payment intent ${intentId}: the capture is refused`);

  if (row.outcome === 'captured') {
    const returned = BigInt(row.returned ?? '0');
    await appendAuditEvent(tx, {
      actor: PAYMENT_WORKFLOW_ACTOR,
      action: 'payment_intent.settled',
      subject: `payment_intent:${intentId}`,
      ownerId: row.ownerId,
      data: {
        from: 'processing',
        to: 'settled',
        ledger_transaction_id: row.ledgerTransactionId,
        payee: row.payee,
        ...(returned > 0n ? { held: row.held, paid: row.paid, returned: row.returned } : {}),
      },
      at,
    });
    countPaymentTransition('settled', { rail: row.rail && railToDb(row.rail), createdAt: new Date(row.createdAt) }, at);
    if (row.paymentSessionId !== null) {
      // What an upto payment left unspent goes back to a session that sets its budget aside; the
      // payment that paid its session's total closes it (budget.closed after the payment's own events).
      if (returned > 0n) await restoreToReserve(tx, { id: intentId, agentId: row.agentId, currency: await currencyOf(tx, intentId), paymentSessionId: row.paymentSessionId }, returned);
      return { ...row, deliveryIds: [...row.deliveryIds, ...(await closeSessionIfSpent(tx, row.paymentSessionId, at))] };
    }
  }
  return row;
}

async function currencyOf(tx: TransactionClient, intentId: string): Promise<Currency> {
  return (await tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { currency: true } })).currency;
}

/** Returns held funds to the agent (when any are held) and fails the intent with the reason. */
export async function releaseFunds(prisma: PrismaClient, intentId: string, failure: { code: string; message: string }): Promise<void> {
  await withAuditRetry(prisma, async (tx) => {
    const intent = await lockIntent(tx, intentId);
    if (intent.status !== 'processing' || intent.settledAt !== null) return; // released already, or never reserved
    const wallet = await tx.agentWallet.findUniqueOrThrow({ where: { agentId: intent.agentId }, select: { id: true } });
    const agentAccount = await getOrCreateAgentAccount(tx, wallet.id, intent.currency);
    const holdAccount = await getOrCreateHoldAccount(tx, wallet.id, intent.currency);
    const release = await postLedgerTransaction(tx, {
      type: 'payment_release',
      description: `Held funds returned: ${failure.code}`,
      paymentIntentId: intentId,
      entries: [
        { accountId: holdAccount, amount: -intent.amount, currency: intent.currency },
        { accountId: agentAccount.id, amount: intent.amount, currency: intent.currency },
      ],
    });
    await tx.agentTransaction.updateMany({
      where: { paymentIntentId: intentId, agentId: intent.agentId, type: 'payment' },
      data: { status: 'failed' },
    });
    await transitionIntent(tx, intent, {
      to: 'failed',
      actor: PAYMENT_WORKFLOW_ACTOR,
      data: { releasedAt: new Date(), failureCode: failure.code, failureMessage: failure.message },
      audit: { ledger_transaction_id: release.id, reason: failure.code },
    });
    // A session that set its budget aside gets back what this payment drew (session-reserve.ts),
    // counted once the payment no longer spends it.
    await restoreToReserve(tx, intent, intent.amount);
  });
}

/** Fails an intent that holds no funds; a terminal intent is left as it is. */
export async function failIntent(prisma: PrismaClient, intentId: string, failure: { code: string; message: string }): Promise<IntentStatus> {
  return withAuditRetry(prisma, async (tx) => {
    const intent: LockedIntent = await lockIntent(tx, intentId);
    if (intent.reservedAt !== null) throw new Error(`Payment intent ${intentId} holds funds: release them instead`);
    if (!['created', 'pending_approval', 'approved'].includes(intent.status)) return intent.status;
    await transitionIntent(tx, intent, { to: 'failed', actor: PAYMENT_WORKFLOW_ACTOR, data: { failureCode: failure.code, failureMessage: failure.message } });
    return 'failed';
  });
}
