/**
 * A closing channel whose seller does not refund does not keep the deposit: the agent takes the
 * unclaimed balance back through the contract (channel-withdrawal.ts), in its own transactions,
 * once the refund failed or its grace passed; the channel's withdraw delay then completes it.
 */
import { readAgentEvmAccount } from '../../../identity/agent-keys';
import type { StoredOperation } from '../../../rail-operations/operation-record';
import { mergeDetails } from '../operation-details';
import type { SchemeContext } from '../payment-scheme';
import { channelConfigOf } from './channel-client';
import type { ChannelState } from './channel-state';
import { finalizeChannelWithdrawal, initiateChannelWithdrawal, pendingChannelWithdrawal } from './channel-withdrawal';

/** How long a closing channel's seller has to refund before the agent withdraws on chain itself. */
const REFUND_GRACE_S = 120n;

/**
 * Initiates the withdrawal of `unclaimed` once the refund failed or its grace passed, and
 * finalizes it once the channel's delay has passed on chain. True when the finalization moved
 * the money back.
 */
export async function withdrawUnclaimed(context: SchemeContext, operation: StoredOperation, state: ChannelState, unclaimed: bigint): Promise<boolean> {
  const { chain } = context;
  const config = channelConfigOf(state, chain.info.usdcAddress);
  const payer = () => readAgentEvmAccount(context.prisma, context.masterKey, state.agentId, { evenIfRevoked: true });
  const pending = await pendingChannelWithdrawal(chain, state.channelId as `0x${string}`, config.withdrawDelay);
  const { timestamp } = await chain.latestBlock();
  if (pending) {
    if (timestamp < pending.finalizableAt) return false;
    await finalizeChannelWithdrawal(chain, await payer(), config);
    return true;
  }
  const closeRequestedAt = BigInt(state.closeRequestedAt ?? 0);
  if (state.refundFailed !== true && BigInt(Math.floor(Date.now() / 1000)) < closeRequestedAt + REFUND_GRACE_S) return false;
  const withdrawTransactionHash = await initiateChannelWithdrawal(chain, await payer(), config, unclaimed);
  const patch: Partial<ChannelState> = { withdrawTransactionHash };
  await mergeDetails(context.prisma, { id: operation.id }, patch, { returning: [] });
  return false;
}
