/**
 * A voucher is a payment: the call's price out of the channel's held deposit. It is gated in its
 * own transaction, before anything is signed, against the agent and the owner's rules as they are
 * at that moment (a limit lowered, a policy added, the agent suspended since the deposit was
 * held), by the same policy engine as every payment (core's `evaluateGate`, over the inputs the
 * payment's front reads: payments/gate-inputs.ts).
 *
 * What a voucher counts. Its amount is the call's price: per-transaction limits, KYA caps, the
 * category, merchant (the host called), country and time rules judge the call. The daily and
 * monthly limits counted the whole deposit when it was held, so a voucher does not count it
 * again: its usage is what the agent spent in the window without this channel's deposit, plus
 * what this channel's vouchers signed in the window. With the rules unchanged, a voucher inside
 * the deposit always passes; once the owner lowers a limit, the vouchers stop when what they
 * signed reaches it. An approval cannot be waited for inside a call: a voucher the rules send to
 * the owner is refused, unless the owner approved the channel's deposit, which covers it.
 *
 * Locks, in the payment front's order: the channel's intent (key share: its status holds while
 * the voucher is signed), then the agent's row as every payment takes it
 * (intents/lock-paying-agent.ts: a suspension, a change of its rules and its other payments
 * queue with the voucher, which sees them once they committed); the caller then takes the
 * channel's row lock (voucher.ts).
 */
import { AppError, evaluateGate, OWNER_TIME_ZONE, toDecimalString, usageWindows, type GateInput } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { loadGateInput } from '../../payments/gate-inputs';
import { lockPayingAgent } from '../../intents/lock-paying-agent';

export interface VoucherToGate {
  agentId: string;
  /** The channel's payment intent: its amount is the deposit held. */
  intentId: string;
  /** Atomic units: the call's price, what this voucher adds. */
  price: bigint;
  /** The host called (Purser fetched it). */
  merchant: string;
  /** The call's category, else the channel's. */
  category?: string;
}

/** Refuses the voucher (nothing signed, nothing changed) unless the agent and the owner's rules allow it now. */
export async function gateVoucher(tx: TransactionClient, voucher: VoucherToGate, at = new Date()): Promise<void> {
  const { agentId, intentId, price } = voucher;
  const [intent] = await tx.$queryRaw<{ status: string }[]>`
    SELECT status::text AS status FROM payment_intents WHERE id = ${intentId}::uuid AND agent_id = ${agentId}::uuid FOR KEY SHARE`;
  if (intent?.status !== 'processing') throw new AppError('CONFLICT', `The channel (payment intent ${intentId}) is no longer open; no voucher was signed`);
  const status = await lockPayingAgent(tx, agentId);
  if (status !== 'active') throw new AppError('AGENT_SUSPENDED', `The agent is ${status}; no voucher was signed`);

  const input = await loadGateInput(tx, intentId, at);
  const gated: GateInput = {
    ...input,
    intent: { ...input.intent, amount: price, merchant: voucher.merchant, merchantVerified: true, ...(voucher.category !== undefined ? { category: voucher.category } : {}) },
    usage: await usageOfVoucher(tx, intentId, input.usage, at),
  };
  const evaluation = evaluateGate(gated, at);
  const enforced = evaluation.fired.filter((rule) => !rule.shadow);
  if (evaluation.decision === 'allow') return;
  if (evaluation.decision === 'require_approval') {
    const approval = await tx.approval.findUnique({ where: { paymentIntentId: intentId }, select: { status: true } });
    if (approval?.status === 'approved') return;
  }
  const refusing = enforced.filter((rule) => rule.outcome === evaluation.decision);
  const reasons = refusing.map((rule) => `${rule.code}: ${rule.message}`).join(' ');
  const what = evaluation.decision === 'deny' ? 'refuse' : 'send to the owner for approval, which a call through a channel cannot wait for,';
  throw new AppError(
    'POLICY_VIOLATION',
    `The owner's rules ${what} this call's voucher of ${toDecimalString(price)} USDC (${reasons}); no voucher was signed. ` +
      `The channel (payment intent ${intentId}) stays open with its deposit held; close it to get back what its vouchers did not spend`,
    { details: { codes: refusing.map((rule) => rule.code) } },
  );
}

/**
 * The usage a voucher is judged with: the agent's, without this channel's deposit where the
 * window counted it, plus this channel's vouchers signed in the window.
 */
async function usageOfVoucher(tx: TransactionClient, intentId: string, usage: GateInput['usage'], at: Date): Promise<GateInput['usage']> {
  const { dailyWindowStart, monthStart } = usageWindows(at, OWNER_TIME_ZONE);
  const [row] = await tx.$queryRaw<{ deposit: bigint; reserved_at: Date | null; in_window: bigint; in_month: bigint }[]>`
    SELECT i.amount AS deposit, i.reserved_at,
           COALESCE((SELECT sum(v.amount) FROM channel_vouchers v WHERE v.payment_intent_id = i.id AND v.created_at >= ${dailyWindowStart}), 0)::bigint AS in_window,
           COALESCE((SELECT sum(v.amount) FROM channel_vouchers v WHERE v.payment_intent_id = i.id AND v.created_at >= ${monthStart}), 0)::bigint AS in_month
      FROM payment_intents i WHERE i.id = ${intentId}::uuid`;
  const deposit = BigInt(row!.deposit);
  // Counted by the usage under the same condition (reserved in the window, not released).
  const heldIn = (start: Date) => (row!.reserved_at !== null && row!.reserved_at >= start ? deposit : 0n);
  const atLeastZero = (value: bigint) => (value < 0n ? 0n : value);
  return {
    spentInWindow: atLeastZero(usage.spentInWindow - heldIn(dailyWindowStart)) + BigInt(row!.in_window),
    spentThisMonth: atLeastZero(usage.spentThisMonth - heldIn(monthStart)) + BigInt(row!.in_month),
  };
}
