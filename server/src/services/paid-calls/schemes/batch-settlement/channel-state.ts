/**
 * A channel's state in its rail operation: its config (payer, payee, the seller's key, the
 * withdraw delay and Purser's salt: the contract computes its id from them), the deposit held,
 * the price of a call and what the vouchers signed so far, and how its close went.
 */
import { z } from 'zod';
import type { StoredOperation } from '../../../rail-operations/operation-record';
import { address, capturedAmount, commonState, hash, uint } from '../state-fields';

export const ChannelState = z.looseObject({
  ...commonState,
  scheme: z.literal('batch-settlement'),
  agentId: z.string(),
  receiverAuthorizer: address,
  withdrawDelay: z.number().int(),
  salt: hash,
  channelId: hash,
  /** Atomic units: the deposit held, the price of one call, what the vouchers signed so far. */
  deposit: uint,
  price: uint,
  cumulative: uint,
  vouchers: z.number().int(),
  depositSigned: z.boolean(),
  /** The deposit authorisation's validBefore, once signed (unix seconds). */
  depositValidBefore: uint.optional(),
  /** Where the seller takes refunds: the channel's first resource. */
  resourceUrl: z.string().nullable(),
  closeRequested: z.boolean().optional(),
  closeRequestedAt: z.number().int().optional(),
  /** The seller refused or failed the refund: the rail withdraws the unclaimed balance itself. */
  refundFailed: z.boolean().optional(),
  withdrawTransactionHash: hash.optional(),
  claimedOnChain: uint.optional(),
  capturedAmount,
});
export type ChannelState = z.infer<typeof ChannelState>;

export function channelStateOf(operation: Pick<StoredOperation, 'details'>): ChannelState {
  return ChannelState.parse(operation.details);
}

/** Rail operations that are channels, for a Prisma `where` on `details`. */
export const CHANNEL_DETAILS = { path: ['scheme'], equals: 'batch-settlement' } as const;
