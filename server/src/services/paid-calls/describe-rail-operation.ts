/**
 * What the owner's payment page shows of an x402 payment's rail operation: the transaction that
 * settled it, the authorisation it signed (decoded, its terms by its scheme), and the seller's
 * receipt as Purser checked it, and the HTTP signature its paid request carried. Read through the schemes' and the front's state, never raw.
 */
import { toDecimalString, type PaymentAuthorizationView, type PaymentRailView } from '@purser/core';
import { keptAnswersOf } from './front/kept-answers';
import { schemeFor } from './schemes/lookup';
import { decodePaymentHeader } from './x402/payment-header';

const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

export interface X402OperationView {
  network: string | null;
  transactionHash: string | null;
  authorization: PaymentAuthorizationView | null;
  sellerReceipt: PaymentRailView['sellerReceipt'];
  requestSignature: PaymentRailView['requestSignature'];
}

export function describeX402Operation(details: unknown): X402OperationView {
  const kept = keptAnswersOf(details);
  return {
    network: kept.network ?? null,
    transactionHash: kept.transactionHash && TRANSACTION_HASH.test(kept.transactionHash) ? kept.transactionHash : null,
    authorization: kept.paymentHeader ? signedAuthorization(kept.paymentHeader) : null,
    sellerReceipt: kept.sellerReceipt ?? null,
    requestSignature: kept.requestSignature ?? null,
  };
}

/** The terms of the stored x402 payment header; null when it cannot be read as one. */
function signedAuthorization(header: string): PaymentAuthorizationView | null {
  let decoded;
  try {
    decoded = decodePaymentHeader(header);
  } catch {
    return null;
  }
  const terms = schemeFor(decoded.scheme).signedTerms(decoded);
  const validAfter = unixSecondsToIso(terms.validAfter);
  const validBefore = unixSecondsToIso(terms.validBefore);
  if (validAfter === null || validBefore === null) return null;
  return { scheme: decoded.scheme, from: terms.from, to: terms.to, value: toDecimalString(BigInt(terms.value)), validAfter, validBefore, nonce: terms.nonce };
}

/** Dates span ±8.64e15 ms; an EIP-3009 bound beyond that (a uint256) has no ISO form. */
function unixSecondsToIso(seconds: string): string | null {
  const value = BigInt(seconds);
  if (value > 8_640_000_000_000n) return null;
  return new Date(Number(value) * 1000).toISOString();
}
