/**
 * /x402/channels/{intent_id}/close: no voucher is signed after this; the seller is asked (the
 * official client's refund, at the channel's resource) to claim what the vouchers signed and
 * return the rest of the deposit; then the payment workflow is told to look at the chain, which
 * it captures from. A seller that refuses, or does not refund within a grace, does not keep the
 * deposit: the rail withdraws the unclaimed balance through the contract (the agent's own
 * transactions), which the channel's withdraw delay completes; the seller keeps only what its
 * vouchers let it claim.
 */
import type { X402ChannelCloseView } from '@purser/core';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { isAnswerable } from '../agent-api/intent-outcome';
import { awaitIntent } from '../intents/await-intent';
import { signalPaymentWorkflow } from '../intents/payment-workflows';
import { requestSignerFor, upstreamFetch } from './front/call-upstream';
import { schemeContext, type X402Deps } from './front/x402-deps';
import { channelView, readChannel } from './schemes/batch-settlement/channel-view';
import { askForRefund, recordCloseRequest } from './schemes/batch-settlement/close-channel-steps';

/** How long a close waits for the chain's answer to reach the ledger before answering. */
const CLOSE_WAIT_MS = 15_000;

export async function closeX402Channel(deps: X402Deps, agent: AuthenticatedAgent, intentId: string): Promise<X402ChannelCloseView> {
  const row = await readChannel(deps.db.prisma, agent.agentId, intentId);
  const context = schemeContext(deps);
  const { state } = await recordCloseRequest(context, intentId);
  // The refund request is the agent's paid request too: signed agent-payer-auth like its vouchers' calls.
  const signed = async () => upstreamFetch(deps, { signer: await requestSignerFor(deps, agent), tag: 'agent-payer-auth' });
  const refund: X402ChannelCloseView['refund'] =
    row.status === 'pending' && state.depositSigned && state.resourceUrl ? await askForRefund(context, intentId, state, await signed()) : { requested: false, success: false, error: null };
  await signalPaymentWorkflow(deps.temporal, intentId, 'railUpdated', (error) => deps.logger.warn({ err: error, intentId }, 'could not signal the payment workflow'));
  await awaitIntent(deps.db.prisma, agent.ownerId, intentId, isAnswerable, CLOSE_WAIT_MS, { events: deps.events });
  return { ...channelView(await readChannel(deps.db.prisma, agent.agentId, intentId)), refund };
}
