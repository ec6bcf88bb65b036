/**
 * An `upto` payment's state in its rail operation: the signed Permit2 authorisation of a maximum
 * (its nonce and deadline, the facilitator that alone may settle it, the header handed out), and
 * what the chain moved once it was settled.
 */
import { z } from 'zod';
import type { StoredOperation } from '../../../rail-operations/operation-record';
import { address, capturedAmount, commonState, hash, uint } from '../state-fields';

export const UptoState = z.looseObject({
  ...commonState,
  scheme: z.literal('upto'),
  /** The Permit2 nonce (a uint256, decimal): the authorisation's identity on chain. */
  nonce: uint,
  /** Permit2's deadline. */
  validBefore: uint,
  latestValidBefore: uint.optional(),
  /** The most the seller may settle (atomic units): what was held. */
  maximum: uint,
  facilitator: address,
  agentId: z.string(),
  paymentHeader: z.string(),
  capturedAmount,
  /** Set when a cancel began: the operation no longer counts in the agent's Permit2 allowance. */
  cancelRequestedAt: z.string().optional(),
  /** The agent's invalidation of the nonce, recorded once sent. */
  cancelTransactionHash: hash.optional(),
  /** Why the capture must wait for an operator: a settlement the chain shows that breaks the scheme's invariants. */
  captureInvariant: z.string().optional(),
});
export type UptoState = z.infer<typeof UptoState>;

export function uptoStateOf(operation: Pick<StoredOperation, 'details'>): UptoState {
  return UptoState.parse(operation.details);
}
