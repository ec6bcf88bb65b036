/**
 * The hold: agent -> hold, the last part of the front of a payment (authorize-payment.ts),
 * taken under the agent wallet's lock once every limit was checked there.
 */
import { railFromDb, PAYMENT_WORKFLOW_ACTOR } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { getOrCreateHoldAccount, postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { transitionIntent, type LockedIntent } from '../intents/transition-intent';

/** What the hold's pending payment row copies from the intent. */
export const holdRowSelect = { category: true, merchant: true, toAddress: true, purpose: true, metadata: true, rail: true } as const satisfies Prisma.PaymentIntentSelect;
type HoldRow = Prisma.PaymentIntentGetPayload<{ select: typeof holdRowSelect }>;

/**
 * agent -> hold for an approved intent whose limits were just checked under the wallet lock,
 * the agent's pending payment row, and the intent moved to processing (audited).
 */
export async function holdFunds(
  tx: TransactionClient,
  intent: LockedIntent,
  row: HoldRow & { walletId: string; agentAccountId: string },
  { at, policyDecision }: { at: Date; policyDecision: Prisma.InputJsonObject },
): Promise<void> {
  const intentId = intent.id;
  const holdAccount = await getOrCreateHoldAccount(tx, row.walletId, intent.currency);
  const hold = await postLedgerTransaction(tx, {
    type: 'payment_hold',
    description: `Funds held for payment intent ${intentId}`,
    paymentIntentId: intentId,
    entries: [
      { accountId: row.agentAccountId, amount: -intent.amount, currency: intent.currency },
      { accountId: holdAccount, amount: intent.amount, currency: intent.currency },
    ],
  });
  await tx.agentTransaction.create({
    data: {
      agentId: intent.agentId,
      type: 'payment',
      amount: intent.amount,
      currency: intent.currency,
      status: 'pending',
      category: row.category,
      toAddress: row.toAddress,
      description: row.purpose || row.merchant || 'Payment',
      metadata: { ...(row.metadata as Prisma.JsonObject), payment_intent_id: intentId, rail: railFromDb(row.rail ?? 'ledger') },
      paymentIntentId: intentId,
      ledgerTransactionId: hold.id,
    },
    select: { id: true },
  });
  await transitionIntent(tx, intent, {
    to: 'processing',
    actor: PAYMENT_WORKFLOW_ACTOR,
    data: { reservedAt: at, policyDecision },
    audit: { ledger_transaction_id: hold.id, amount: intent.amount.toString(), currency: intent.currency },
  });
}
