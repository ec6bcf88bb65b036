/**
 * Closing a channel, the channel's part: no voucher is signed once the close is recorded (under
 * the lock the vouchers take), and the seller is asked, through the official client's refund, to
 * claim what the vouchers signed and return the rest. What the chain then shows is the rail's to
 * follow (batch-settlement-scheme.ts).
 */
import type { X402ChannelCloseView } from '@purser/core';
import { readAgentEvmAccount } from '../../../identity/agent-keys';
import { mergeDetails } from '../operation-details';
import type { SchemeContext } from '../payment-scheme';
import { channelClient } from './channel-client';
import { ChannelState } from './channel-state';

/** Records the close (its first time kept) while the channel is open; the channel's state as it is now. */
export async function recordCloseRequest(context: SchemeContext, intentId: string): Promise<{ state: ChannelState; open: boolean }> {
  return context.prisma.$transaction(async (tx) => {
    const patch: Partial<ChannelState> = { closeRequested: true, closeRequestedAt: Math.floor(Date.now() / 1000) };
    const merged = await mergeDetails(tx, { intentId, status: 'pending' }, patch, { keepFirst: ['closeRequestedAt'] });
    if (merged) return { state: ChannelState.parse(merged), open: true };
    const row = await tx.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { details: true } });
    return { state: ChannelState.parse(row.details), open: false };
  });
}

/**
 * Asks the seller, at the channel's resource, to claim and refund the rest. A seller that refuses
 * or fails is recorded: the rail then withdraws the unclaimed balance itself at once.
 */
export async function askForRefund(context: SchemeContext, intentId: string, state: ChannelState, fetch: typeof globalThis.fetch): Promise<X402ChannelCloseView['refund']> {
  const refund: X402ChannelCloseView['refund'] = { requested: true, success: false, error: null };
  try {
    const account = await readAgentEvmAccount(context.prisma, context.masterKey, state.agentId, { evenIfRevoked: true });
    const settled = await channelClient(account, state).refund(state.resourceUrl!, { fetch });
    refund.success = settled.success;
    refund.error = settled.success ? null : (settled.errorReason ?? 'refused');
  } catch (error) {
    refund.error = error instanceof Error ? error.message : String(error);
  }
  if (!refund.success) {
    const patch: Partial<ChannelState> = { refundFailed: true };
    await mergeDetails(context.prisma, { intentId, status: 'pending' }, patch, { returning: [] });
  }
  return refund;
}
