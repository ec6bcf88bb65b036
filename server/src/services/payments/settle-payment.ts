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
 */
import { AppError, type IntentStatus, PAYMENT_WORKFLOW_ACTOR } from '@purser/core';
import type { Prisma, PrismaClient, TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import {
  externalAccountId,
  getOrCreateAgentAccount,
  getOrCreateHoldAccount,
  lockAgentWallets,
  postLedgerTransaction,
} from '../ledger/post-ledger-transaction';
import { lockIntent, transitionIntent, type LockedIntent } from '../intents/transition-intent';
import { budgetAlertDeliveryIds, recordBudgetAlerts } from '../budgets/record-budget-alerts';
import { settlementFactsOf } from '../rail-operations/settlement-facts';


export interface CaptureResult {
  /** Webhook deliveries of the budget alerts the capture caused: start them after commit. */
  deliveryIds: string[];
}

export async function capturePayment(prisma: PrismaClient, intentId: string): Promise<CaptureResult> {
  return withAuditRetry(prisma, (tx) => captureInTransaction(tx, intentId));
}

/**
 * capturePayment's work in the caller's transaction, with the budget alerts the spend now
 * reaches (budgets/record-budget-alerts.ts) committed together with it.
 */
export async function captureInTransaction(tx: TransactionClient, intentId: string): Promise<CaptureResult> {
  const intent = await lockIntent(tx, intentId);
  const payment = { intentId, ownerId: intent.ownerId, agentId: intent.agentId };
  // A retry of a committed capture: its alerts' deliveries are started again, in case the
  // run that committed them stopped before starting them.
  if (intent.settledAt !== null) return { deliveryIds: await budgetAlertDeliveryIds(tx, payment) };
  if (intent.status !== 'processing' || intent.reservedAt === null || intent.releasedAt !== null) {
    throw new Error(`Cannot capture payment intent ${intentId}: it is ${intent.status}${intent.releasedAt ? ', released' : ''}`);
  }
  const row = await tx.paymentIntent.findUniqueOrThrow({
    where: { id: intentId },
    select: { rail: true, toAddress: true, category: true, purpose: true, agent: { select: { name: true, wallet: { select: { id: true } } } } },
  });
  const payerWalletId = row.agent.wallet!.id;
  const payee = row.rail === 'ledger' && row.toAddress ? await internalPayee(tx, row.toAddress, payerWalletId) : null;
  const held = intent.amount;
  const paid = await capturedAmount(tx, intentId, held);

  await lockAgentWallets(tx, payee ? [payerWalletId, payee.walletId] : [payerWalletId]);
  const holdAccount = await getOrCreateHoldAccount(tx, payerWalletId, intent.currency);
  const payeeAccount = payee ? (await getOrCreateAgentAccount(tx, payee.walletId, intent.currency)).id : externalAccountId(intent.currency);
  const returned = held - paid;
  const capture = await postLedgerTransaction(tx, {
    type: 'payment_capture',
    description: payee ? `Payment to agent ${payee.agentId}` : `Payment to ${row.toAddress ?? 'merchant'}`,
    paymentIntentId: intentId,
    entries: [
      { accountId: holdAccount, amount: -held, currency: intent.currency },
      { accountId: payeeAccount, amount: paid, currency: intent.currency },
      ...(returned > 0n ? [{ accountId: (await getOrCreateAgentAccount(tx, payerWalletId, intent.currency)).id, amount: returned, currency: intent.currency }] : []),
    ],
  });
  await tx.agentTransaction.updateMany({
    where: { paymentIntentId: intentId, agentId: intent.agentId, type: 'payment' },
    data: { status: 'completed', ledgerTransactionId: capture.id, ...(returned > 0n ? { amount: paid } : {}) },
  });
  await recordChainSettlement(tx, intentId, intent.agentId);
  if (payee) {
    await tx.agentTransaction.create({
      data: {
        agentId: payee.agentId,
        type: 'payment_received',
        amount: paid,
        currency: intent.currency,
        status: 'completed',
        category: row.category,
        toAddress: row.toAddress,
        description: row.purpose || `Payment from ${row.agent.name}`,
        metadata: { payment_intent_id: intentId, from_agent_id: intent.agentId },
        paymentIntentId: intentId,
        ledgerTransactionId: capture.id,
      },
      select: { id: true },
    });
  }
  await transitionIntent(tx, intent, {
    to: 'settled',
    actor: PAYMENT_WORKFLOW_ACTOR,
    data: { settledAt: new Date(), ...(returned > 0n ? { amount: paid } : {}) },
    audit: {
      ledger_transaction_id: capture.id,
      payee: payee ? `agent:${payee.agentId}` : 'external',
      ...(returned > 0n ? { held: held.toString(), paid: paid.toString(), returned: returned.toString() } : {}),
    },
  });
  return { deliveryIds: await recordBudgetAlerts(tx, payment) };
}

/**
 * What the rail moved: the held amount, or for an x402 `upto` payment the amount its settling
 * transaction moved on chain. A reading the capture must not take is an invariant failure
 * (CAPTURE_INVARIANT, never retried): the rail found a settlement it could not match to this
 * payment (`captureInvariant`), or the chain moved more than was held (the signed maximum is the
 * hold, and Permit2 enforces it) or nothing at all (a settlement of 0 is declined by the rail,
 * which releases the hold whole). The funds then stay held for an operator.
 */
async function capturedAmount(tx: TransactionClient, intentId: string, held: bigint): Promise<bigint> {
  const operation = await tx.railOperation.findUnique({ where: { paymentIntentId: intentId }, select: { rail: true, details: true } });
  if (operation?.rail !== 'x402_base') return held;
  const { capturedAmount: captured, captureInvariant } = settlementFactsOf(operation.details);
  if (captureInvariant !== undefined) throw new AppError('CAPTURE_INVARIANT', `Payment intent ${intentId}: ${captureInvariant}`);
  if (captured === undefined) return held;
  const amount = BigInt(captured);
  if (amount <= 0n || amount > held) throw new AppError('CAPTURE_INVARIANT', `Payment intent ${intentId}: the chain moved ${captured}, outside the held ${held}`);
  return amount;
}

/**
 * An on-chain payment (x402) records where it settled in the agent's transaction: network and
 * transaction hash, beside the URL it paid for.
 */
async function recordChainSettlement(tx: TransactionClient, intentId: string, agentId: string): Promise<void> {
  const operation = await tx.railOperation.findUnique({ where: { paymentIntentId: intentId }, select: { rail: true, details: true } });
  if (operation?.rail !== 'x402_base') return;
  const details = settlementFactsOf(operation.details);
  const row = await tx.agentTransaction.findFirst({ where: { paymentIntentId: intentId, agentId, type: 'payment' }, select: { id: true, metadata: true } });
  if (!row) return;
  await tx.agentTransaction.update({
    where: { id: row.id },
    data: { metadata: { ...(row.metadata as Prisma.JsonObject), network: details.network ?? null, transaction_hash: details.transactionHash ?? null, payer: details.payer ?? null } },
    select: { id: true },
  });
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

async function internalPayee(tx: TransactionClient, address: string, payerWalletId: string): Promise<{ agentId: string; walletId: string } | null> {
  const wallet = await tx.agentWallet.findFirst({
    where: { OR: [{ walletAddress: address }, { evmWalletAddress: { equals: address, mode: 'insensitive' } }], agent: { status: { not: 'deleted' } } },
    select: { id: true, agentId: true },
  });
  return wallet && wallet.id !== payerWalletId ? { agentId: wallet.agentId, walletId: wallet.id } : null;
}
