/**
 * An agent's channels as the agent API shows them (core's X402ChannelView): its state (opening
 * until the deposit is signed, open, closing once asked, closed once the chain decided), the
 * deposit, the price of a call, what the vouchers signed and what was captured.
 */
import { AppError, toDecimalString, type X402ChannelView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { CHANNEL_DETAILS, ChannelState } from './channel-state';

export type ChannelRow = {
  paymentIntentId: string;
  status: string;
  details: unknown;
  createdAt: Date;
  paymentIntent: { status: X402ChannelView['status']; toAddress: string | null };
  _count: { vouchers: number };
};

const channelSelect = {
  paymentIntentId: true,
  status: true,
  details: true,
  createdAt: true,
  paymentIntent: { select: { status: true, toAddress: true } },
  _count: { select: { vouchers: true } },
} as const;

export function channelView(row: ChannelRow): X402ChannelView {
  const state = ChannelState.parse(row.details);
  return {
    intent_id: row.paymentIntentId,
    status: row.paymentIntent.status,
    state: row.status !== 'pending' ? 'closed' : state.closeRequested ? 'closing' : state.depositSigned ? 'open' : 'opening',
    channel_id: state.channelId ?? null,
    pay_to: state.payTo ?? row.paymentIntent.toAddress ?? '',
    network: state.network,
    resource: state.resourceUrl ?? null,
    deposit_exact: toDecimalString(BigInt(state.deposit)),
    price_exact: toDecimalString(BigInt(state.price)),
    cumulative_exact: toDecimalString(BigInt(state.cumulative)),
    vouchers_count: row._count.vouchers,
    captured_exact: row.status === 'settled' && state.capturedAmount ? toDecimalString(BigInt(state.capturedAmount)) : row.status === 'declined' ? '0' : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The agent's channels, newest first (at most 100). */
export function readChannels(prisma: PrismaClient, agentId: string): Promise<ChannelRow[]> {
  return prisma.railOperation.findMany({
    where: { rail: 'x402_base', details: CHANNEL_DETAILS, paymentIntent: { agentId } },
    select: channelSelect,
    orderBy: { createdAt: 'desc' },
    take: 100,
  });
}

/** One of the agent's channels; NOT_FOUND for any other intent. */
export async function readChannel(prisma: PrismaClient, agentId: string, intentId: string): Promise<ChannelRow> {
  const row = await prisma.railOperation.findFirst({
    where: { paymentIntentId: intentId, rail: 'x402_base', details: CHANNEL_DETAILS, paymentIntent: { agentId } },
    select: channelSelect,
  });
  if (!row) throw new AppError('NOT_FOUND', `The agent has no x402 channel with payment intent ${intentId}`);
  return row;
}
