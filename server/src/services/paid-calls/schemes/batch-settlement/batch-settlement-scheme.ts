/**
 * x402 `batch-settlement` (v2 only): a channel, many paid calls to one seller for one deposit and
 * one claim. The intent's amount is the deposit: it passes the gate and the hold like any payment.
 * Opening signs nothing: it records the channel (its config, with a salt of its own, and its id);
 * each call then signs a voucher (voucher.ts), the first one with the deposit. The operation stays
 * pending while the channel is open. Once the agent asks to close it, the chain decides: when the
 * channel holds nothing the seller has not claimed (the seller refunded the rest), it is settled
 * for what the seller claimed (`capturedAmount`), or declined when that is nothing. The contract
 * refuses claims above what the agent's vouchers signed, so the capture is never more than the
 * vouchers. A seller that does not refund does not keep the deposit (withdraw-unclaimed.ts).
 */
import { toDecimalString } from '@purser/core';
import { computeChannelId, readChannelBalanceAndTotalClaimed } from '@x402/evm/batch-settlement/client';
import type { ClientEvmSigner } from '@x402/evm';
import { randomBytes } from 'node:crypto';
import { getAddress, isAddress, isAddressEqual, zeroAddress, type Hex } from 'viem';
import { resolveOperation, type StoredOperation } from '../../../rail-operations/operation-record';
import type { RailDetails } from '../../../rail-operations/rail';
import { decisionBlock } from '../authorization';
import { chainClockSeconds } from '../chain-clock';
import { mergeDetails } from '../operation-details';
import type { ChannelTerms, PaymentScheme, SchemeContext } from '../payment-scheme';
import { refused } from '../problems';
import { channelConfigOf } from './channel-client';
import { channelStateOf, type ChannelState } from './channel-state';
import { withdrawUnclaimed } from './withdraw-unclaimed';

/** X402BatchSettlement.sol's bounds on a channel's withdrawDelay. */
export const CHANNEL_WITHDRAW_DELAY_RANGE = { min: 900, max: 2_592_000 } as const;

/**
 * The longest withdraw delay Purser opens a channel with: one day. A seller that refuses to
 * refund keeps the unclaimed deposit locked for its delay before the agent can take it back
 * (withdraw-unclaimed.ts); the contract allows 30 days, so a seller asking more than a day is
 * refused before anything is held or signed.
 */
export const MAX_CHANNEL_WITHDRAW_DELAY_S = 86_400;

/**
 * The most a channel's deposit may be, in calls: a seller's minimum deposit above 100 calls'
 * worth (minDeposit > 100 x the call's price) is refused before anything is held or signed, so a
 * seller cannot make a cheap call escrow a large sum. The agent's `max_amount`, per-transaction
 * and daily limits bound the deposit further (front/pay-through-channel.ts, the payment's gate).
 */
export const MAX_CHANNEL_DEPOSIT_CALLS = 100n;

/**
 * How often an open channel is looked at without a signal: it may stay open for hours, and its
 * close signals the workflow, so the history is not flooded with a look each second.
 */
const CHANNEL_POLL_MS = 30_000;

export const NO_SINGLE_HEADER = 'A "batch-settlement" requirement is paid through a channel by /x402/fetch, one voucher per call; no single payment header is signed for it';

export const batchSettlementScheme: PaymentScheme = {
  name: 'batch-settlement',
  versions: [2],
  // A channel's deposit is an EIP-3009 authorisation to the official deposit collector; a
  // Permit2 deposit would need an allowance Purser does not give channels.
  transferMethod: 'eip3009',
  paidInRequest: 'by-workflow',
  channel: true,

  price(extra, amount) {
    const channel = channelTerms(extra, amount);
    // A channel holds its deposit: the seller's minimum, and at least one call.
    return { amount: channel.minDeposit !== null && channel.minDeposit > amount ? channel.minDeposit : amount, channel };
  },

  sign: async () => {
    throw refused(NO_SINGLE_HEADER);
  },

  /** The channel's operation: its config (a fresh salt, so each channel has its own id), the deposit held, and the vouchers' cumulative, which starts at nothing. */
  async open(context, { payment, price, x402, payer }) {
    const { chain } = context;
    const terms = price.channel!;
    const state: ChannelState = {
      network: chain.info.network,
      x402Version: x402.x402_version,
      scheme: 'batch-settlement',
      agentId: payment.payer.agentId,
      payer,
      payTo: price.payTo,
      receiverAuthorizer: terms.receiverAuthorizer,
      withdrawDelay: terms.withdrawDelay,
      salt: `0x${randomBytes(32).toString('hex')}`,
      channelId: '0x',
      deposit: price.amount.toString(),
      price: terms.price.toString(),
      cumulative: '0',
      vouchers: 0,
      depositSigned: false,
      resourceUrl: x402.resource?.url ?? null,
      fromBlock: '0',
      transactionHash: null,
    };
    state.channelId = computeChannelId(channelConfigOf(state, price.asset), chain.info.network);
    state.fromBlock = (await chain.latestBlock()).number.toString();
    return { reference: state.channelId, status: 'pending', settleAfter: new Date(Date.now() + CHANNEL_POLL_MS), details: state as RailDetails };
  },

  check: async (_decoded, _terms, _domain, expect) => expect(false, NO_SINGLE_HEADER),

  follow,

  nextLook: (_context, _operation, now) => new Date(now + CHANNEL_POLL_MS),

  /** A channel cannot be voided by the agent alone: it is closed, and ends as the chain says. */
  async cancel(context, operation) {
    const current = await follow(context, operation);
    if (current.status !== 'pending') return current;
    const patch: Partial<ChannelState> = { closeRequested: true };
    const details = await mergeDetails(context.prisma, { id: current.id, status: 'pending' }, patch);
    return follow(context, { ...current, details: (details ?? { ...current.details, ...patch }) as RailDetails });
  },

  // A seller's claim is read from the channel on chain, never from its word.
  confirm: async () => null,

  signedTerms: () => {
    throw refused(NO_SINGLE_HEADER);
  },
};

/** A batch-settlement requirement's channel terms, or a refusal: the contract would refuse them, or they name no seller key. */
function channelTerms(extra: Record<string, unknown>, price: bigint): ChannelTerms {
  const authorizer = extra.receiverAuthorizer;
  if (typeof authorizer !== 'string' || !isAddress(authorizer) || isAddressEqual(authorizer, zeroAddress)) {
    throw refused('The "batch-settlement" requirement names no receiver authorizer (extra.receiverAuthorizer)');
  }
  const delay = extra.withdrawDelay ?? CHANNEL_WITHDRAW_DELAY_RANGE.min;
  if (typeof delay !== 'number' || !Number.isSafeInteger(delay) || delay < CHANNEL_WITHDRAW_DELAY_RANGE.min || delay > CHANNEL_WITHDRAW_DELAY_RANGE.max) {
    throw refused(`The "batch-settlement" requirement's withdrawDelay ${JSON.stringify(delay)} is outside ${CHANNEL_WITHDRAW_DELAY_RANGE.min}-${CHANNEL_WITHDRAW_DELAY_RANGE.max} seconds`);
  }
  if (delay > MAX_CHANNEL_WITHDRAW_DELAY_S) {
    throw refused(
      `The "batch-settlement" requirement's withdrawDelay of ${delay} seconds is above the ${MAX_CHANNEL_WITHDRAW_DELAY_S} seconds (one day) Purser opens a channel with: a seller that refused to refund would lock the deposit that long; no channel was opened and nothing was held or signed`,
    );
  }
  const minDeposit = extra.minDeposit;
  if (minDeposit !== undefined && (typeof minDeposit !== 'string' || !/^\d+$/.test(minDeposit))) {
    throw refused(`The "batch-settlement" requirement's minDeposit ${JSON.stringify(minDeposit)} is not a whole number of atomic units`);
  }
  const deposit = minDeposit === undefined ? null : BigInt(minDeposit);
  if (deposit !== null && deposit > MAX_CHANNEL_DEPOSIT_CALLS * price) {
    throw refused(
      `The "batch-settlement" requirement asks a deposit of ${toDecimalString(deposit)} USDC for calls of ${toDecimalString(price)} USDC, above the ${MAX_CHANNEL_DEPOSIT_CALLS} calls' worth (${toDecimalString(MAX_CHANNEL_DEPOSIT_CALLS * price)} USDC) Purser deposits in a channel; no channel was opened and nothing was held or signed`,
    );
  }
  return { price, receiverAuthorizer: getAddress(authorizer), withdrawDelay: delay, minDeposit: deposit };
}

/**
 * A channel ends when the agent asked to close it and the chain shows nothing left that the
 * seller has not claimed (balance == totalClaimed: the seller refunded the rest): settled for
 * what it claimed, declined when nothing. A deposit that never landed ends once its
 * authorisation expired (it can no longer move money); before then, the channel waits.
 */
async function follow(context: SchemeContext, operation: StoredOperation): Promise<StoredOperation> {
  if (operation.status !== 'pending') return operation;
  const { chain, prisma } = context;
  const state = channelStateOf(operation);
  // The deposit is an EIP-3009 authorisation: dead in a block whose timestamp reaches validBefore.
  const expiredAt = (timestamp: bigint) => state.depositValidBefore === undefined || timestamp >= BigInt(state.depositValidBefore);
  // Nothing to look at on chain until the close, or until the clock says the deposit's window may
  // have passed; the chain then decides, at one block (authorization.ts, decisionBlock).
  if (state.closeRequested !== true && (!state.depositSigned || !expiredAt(chainClockSeconds(chain.info)))) return operation;
  const block = await decisionBlock(context, expiredAt);
  const depositExpired = () => expiredAt(block.timestamp);
  const reader = {
    readContract: (args: Parameters<typeof chain.publicClient.readContract>[0]) => chain.publicClient.readContract({ ...args, blockNumber: block.number }),
  } as unknown as ClientEvmSigner;
  const [balance, totalClaimed] = await readChannelBalanceAndTotalClaimed(reader, state.channelId as Hex);
  if (state.closeRequested !== true) {
    if (balance > 0n) return operation;
    return resolveOperation(prisma, operation, { status: 'declined', declineCode: 'deposit_expired', declineMessage: "The channel's deposit never reached the chain and its authorisation expired; nothing moved" });
  }
  if (balance > totalClaimed) {
    // The seller has not refunded: after a grace, or at once when it refused, take back the
    // unclaimed balance through the contract's withdrawal, which the delay then completes.
    if (!(await withdrawUnclaimed(context, operation, state, balance - totalClaimed))) return operation;
    return follow(context, operation);
  }
  if (totalClaimed > 0n) {
    return resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { capturedAmount: totalClaimed.toString(), claimedOnChain: totalClaimed.toString() });
  }
  // Nothing claimed: a deposit still in its window could land later; wait for it to expire.
  if (state.depositSigned && balance === 0n && !depositExpired()) return operation;
  return resolveOperation(prisma, operation, { status: 'declined', declineCode: 'channel_unclaimed', declineMessage: 'The channel closed with nothing claimed by the seller; the deposit is returned' });
}
