/**
 * The agent's open channel that can pay a priced call: same seller, key, terms and network, with
 * room left for the call. An open channel is used before anything else the seller offers.
 */
import type { PrismaClient } from '@purser/db';
import { isAddressEqual, type Address } from 'viem';
import type { PricedRequirement } from '../payment-scheme';
import { CHANNEL_DETAILS, ChannelState } from './channel-state';

export async function findOpenChannel(prisma: PrismaClient, agentId: string, priced: PricedRequirement): Promise<{ intentId: string; operationId: string } | null> {
  const candidates = await prisma.railOperation.findMany({
    where: { rail: 'x402_base', status: 'pending', details: CHANNEL_DETAILS, paymentIntent: { agentId, status: 'processing' } },
    select: { id: true, paymentIntentId: true, details: true },
    orderBy: { createdAt: 'asc' },
  });
  const terms = priced.channel!;
  const found = candidates.find(({ details }) => {
    const channel = ChannelState.safeParse(details);
    if (!channel.success) return false;
    const state = channel.data;
    return (
      state.closeRequested !== true &&
      state.network === priced.network &&
      isAddressEqual(state.payTo as Address, priced.payTo) &&
      isAddressEqual(state.receiverAuthorizer as Address, terms.receiverAuthorizer) &&
      state.withdrawDelay === terms.withdrawDelay &&
      state.price === terms.price.toString() &&
      BigInt(state.deposit) - BigInt(state.cumulative) >= terms.price
    );
  });
  return found ? { intentId: found.paymentIntentId, operationId: found.id } : null;
}
