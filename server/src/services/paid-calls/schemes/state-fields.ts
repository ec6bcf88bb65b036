/**
 * The zod pieces every scheme's state in `rail_operations.details` is made of, and the fields all
 * of them keep. Schemas are loose: the front keeps its own fields beside a scheme's (the seller's
 * answer and receipt, front/kept-answers.ts), and each reader takes only its own.
 */
import { z } from 'zod';

export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
export const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
/** A whole number kept as a decimal string (atomic units, unix seconds, block numbers, Permit2 nonces). */
export const uint = z.string().regex(/^\d+$/);

/** What every scheme's operation keeps: where, between whom, since which block, and its transaction once known. */
export const commonState = {
  network: z.string(),
  x402Version: z.union([z.literal(1), z.literal(2)]),
  payer: address,
  payTo: address,
  fromBlock: uint,
  transactionHash: z.string().nullable().optional(),
};

/** Settled for what the chain moved to the payee (atomic units): what the capture takes. */
export const capturedAmount = uint.optional();
