/**
 * The x402 schemes Purser pays, in the order it prefers them: a fixed price (`exact`) before a
 * maximum (`upto`), and both before a channel (`batch-settlement`, a deposit held for many calls).
 * Each is a folder of schemes/ behind one contract (schemes/payment-scheme.ts); this list is their
 * names, for the lookup, the metrics' labels and the agent's /info.
 */
export const PAYABLE_SCHEMES = ['exact', 'upto', 'batch-settlement'] as const;
export type PayableScheme = (typeof PAYABLE_SCHEMES)[number];

export function isPayableScheme(scheme: unknown): scheme is PayableScheme {
  return (PAYABLE_SCHEMES as readonly unknown[]).includes(scheme);
}
