/**
 * An `exact` payment's state in its rail operation: the signed EIP-3009 authorisation (its nonce
 * and window, the header handed out), and how it ended on chain.
 */
import { z } from 'zod';
import type { StoredOperation } from '../../../rail-operations/operation-record';
import { commonState, hash, uint } from '../state-fields';

export const ExactState = z.looseObject({
  ...commonState,
  scheme: z.literal('exact'),
  /** The EIP-3009 nonce: the authorisation's identity on chain. */
  nonce: hash,
  validBefore: uint,
  latestValidBefore: uint.optional(),
  paymentHeader: z.string(),
  cancelTransactionHash: hash.optional(),
});
export type ExactState = z.infer<typeof ExactState>;

export function exactStateOf(operation: Pick<StoredOperation, 'details'>): ExactState {
  return ExactState.parse(operation.details);
}
