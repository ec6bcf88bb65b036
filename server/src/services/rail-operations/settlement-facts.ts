/**
 * What the payment steps read of any rail operation's details once it settled: where an on-chain
 * rail settled it (network, transaction, payer) and, where the rail moved less than was held
 * (x402 `upto`), how much it moved. Each rail's own state is its own; these fields are the part
 * every on-chain rail writes the same way.
 */
import { z } from 'zod';

const SettlementFacts = z.looseObject({
  network: z.string().optional(),
  transactionHash: z.string().nullable().optional(),
  payer: z.string().optional(),
  /** Atomic units the rail moved, when it may be less than the hold. */
  capturedAmount: z.string().regex(/^\d+$/).optional(),
  /** Set by a rail whose settlement breaks its invariants: why the capture must wait for an operator. */
  captureInvariant: z.string().optional(),
});
export type SettlementFacts = z.infer<typeof SettlementFacts>;

/** The settlement facts of stored details; none when they cannot be read. */
export function settlementFactsOf(details: unknown): SettlementFacts {
  const parsed = SettlementFacts.safeParse(details);
  return parsed.success ? parsed.data : {};
}
