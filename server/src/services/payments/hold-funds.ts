/**
 * Reserve: the authoritative check of every limit, then agent -> hold. Runs under the agent
 * wallet's row lock, so concurrent payments of one agent queue here and each sees the ones
 * before it: a burst can never overspend the balance, a per-transaction cap or a daily limit.
 * The policy engine runs again with the usage read under that lock (the gate's figures may be
 * stale by now). Business refusals are committed (intent blocked or failed, audited) and then
 * thrown as typed errors the workflow does not retry.
 */
import { AppError, railFromDb, type ReserveOutcome, evaluateGate, toGateDecision, PAYMENT_WORKFLOW_ACTOR } from '@purser/core';
import type { Prisma, PrismaClient, TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { getOrCreateAgentAccount, getOrCreateHoldAccount, postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { lockIntent, transitionIntent, type LockedIntent } from '../intents/transition-intent';
import { loadGateInput } from './gate-records';

/** What the hold's pending payment row copies from the intent. */
export const holdRowSelect = { category: true, merchant: true, toAddress: true, purpose: true, metadata: true, rail: true } as const satisfies Prisma.PaymentIntentSelect;
type HoldRow = Prisma.PaymentIntentGetPayload<{ select: typeof holdRowSelect }>;

type Refusal = { code: 'POLICY_VIOLATION' | 'INSUFFICIENT_FUNDS' | 'AGENT_SUSPENDED'; message: string };

export async function reserveFunds(prisma: PrismaClient, intentId: string): Promise<ReserveOutcome> {
  const result = await withAuditRetry(prisma, (tx) => reserveInTransaction(tx, intentId));
  if ('refusal' in result) throw new AppError(result.refusal.code, result.refusal.message);
  return result.outcome;
}

async function reserveInTransaction(tx: TransactionClient, intentId: string): Promise<{ outcome: ReserveOutcome } | { refusal: Refusal }> {
  const intent = await lockIntent(tx, intentId);
  if (intent.reservedAt !== null) return { outcome: { status: 'reserved' } }; // a retry of a committed reserve
  if (intent.status !== 'approved') return { outcome: { status: intent.status, ended: true } };

  const row = await tx.paymentIntent.findUniqueOrThrow({
    where: { id: intentId },
    select: {
      ...holdRowSelect,
      approval: { select: { status: true } },
      agent: { select: { status: true, wallet: { select: { id: true } } } },
    },
  });
  const { agent } = row;
  /** Commits the refusal (the intent's failure names the rule that fired, when one did). */
  const refuse = async (code: Refusal['code'], message: string, data: Prisma.PaymentIntentUpdateInput = {}, failureCode: string = code) => {
    await transitionIntent(tx, intent, {
      to: code === 'POLICY_VIOLATION' ? 'blocked' : 'failed',
      actor: PAYMENT_WORKFLOW_ACTOR,
      data: { ...data, failureCode, failureMessage: message },
      audit: { reason: failureCode },
    });
    return { refusal: { code, message } };
  };
  if (agent.status !== 'active') return refuse('AGENT_SUSPENDED', `The agent is ${agent.status}`);
  if (!agent.wallet) return refuse('INSUFFICIENT_FUNDS', 'The agent has no wallet');

  // Lock order: the agent's wallet (inside getOrCreateAgentAccount), then its accounts.
  const agentAccount = await getOrCreateAgentAccount(tx, agent.wallet.id, intent.currency);
  // The gate again, with the usage read under the wallet lock: this is the decision that counts.
  const at = new Date();
  const evaluation = evaluateGate(await loadGateInput(tx, intentId, at), at);
  const policyDecision = toGateDecision(evaluation, at) as unknown as Prisma.InputJsonObject;

  if (evaluation.decision === 'deny') {
    const denial = evaluation.fired.find((rule) => !rule.shadow && rule.outcome === 'deny');
    return refuse('POLICY_VIOLATION', denial?.message ?? 'Refused by policy', { policyDecision }, denial?.code);
  }
  if (evaluation.decision === 'require_approval' && row.approval?.status !== 'approved') {
    await transitionIntent(tx, intent, { to: 'pending_approval', actor: PAYMENT_WORKFLOW_ACTOR, data: { policyDecision }, audit: { reason: 'limits changed since the gate' } });
    return { outcome: { status: 'needs_approval' } };
  }
  if (agentAccount.balance < intent.amount) return refuse('INSUFFICIENT_FUNDS', 'Insufficient balance');

  await holdFunds(tx, intent, { ...row, walletId: agent.wallet.id, agentAccountId: agentAccount.id }, { at, policyDecision });
  return { outcome: { status: 'reserved' } };
}

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
