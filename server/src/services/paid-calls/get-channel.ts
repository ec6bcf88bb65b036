/** /x402/channels/{intent_id}: one of the agent's channels with its vouchers, oldest first. */
import { toDecimalString, type X402ChannelDetailView } from '@purser/core';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import type { X402Deps } from './front/x402-deps';
import { channelView, readChannel } from './schemes/batch-settlement/channel-view';

export async function getX402Channel(deps: Pick<X402Deps, 'db'>, agent: AuthenticatedAgent, intentId: string): Promise<X402ChannelDetailView> {
  const row = await readChannel(deps.db.prisma, agent.agentId, intentId);
  const vouchers = await deps.db.prisma.channelVoucher.findMany({
    where: { paymentIntentId: intentId, agentId: agent.agentId },
    orderBy: { cumulative: 'asc' },
    select: { amount: true, cumulative: true, resource: true, createdAt: true },
  });
  return {
    ...channelView(row),
    vouchers: vouchers.map((voucher) => ({
      amount_exact: toDecimalString(voucher.amount),
      cumulative_exact: toDecimalString(voucher.cumulative),
      resource: voucher.resource,
      created_at: voucher.createdAt.toISOString(),
    })),
  };
}
