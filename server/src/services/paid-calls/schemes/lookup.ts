/**
 * The lookup: a scheme's implementation by its name. The rail and the front call the contract
 * (payment-scheme.ts) through this and never branch on a scheme's name themselves.
 */
import { isPayableScheme, type PayableScheme } from '@purser/core';
import { batchSettlementScheme } from './batch-settlement/batch-settlement-scheme';
import { exactScheme } from './exact/exact-scheme';
import type { PaymentScheme } from './payment-scheme';
import { refused } from './problems';
import { uptoScheme } from './upto/upto-scheme';

const SCHEMES = {
  exact: exactScheme,
  upto: uptoScheme,
  'batch-settlement': batchSettlementScheme,
} satisfies Record<PayableScheme, PaymentScheme>;

export function schemeFor(name: PayableScheme): PaymentScheme {
  return SCHEMES[name];
}

/** The scheme of a stored operation or a requirement; an unknown one is a defect in what was stored or sent. */
export function schemeNamed(name: unknown): PaymentScheme {
  if (!isPayableScheme(name)) throw refused(`Purser does not pay the x402 scheme ${JSON.stringify(name)}`);
  return SCHEMES[name];
}
