/**
 * What the owner is shown of a paid call: the wire protocol it was paid in (in every view of the
 * intent: the list, the webhooks), and on the payment page its rail operation: the protocol, the
 * transaction that settled it, the authorisation it signed (decoded, its terms by its scheme),
 * the seller's receipt as Purser checked it, and the HTTP signature its paid request carried;
 * paid over MPP, also the seller's challenge, the credential sent (decoded) and the seller's
 * Payment-Receipt as kept. Read through the schemes', the protocols' and the front's state, never
 * raw: no signature and no payment header leaves here.
 */
import {
  toDecimalString,
  type MppChallengeView,
  type MppCredentialView,
  type PaymentAuthorizationView,
  type PaymentProtocol,
  type PaymentRailView,
  type RailName,
} from '@purser/core';
import { z } from 'zod';
import { keptAnswersOf } from './front/kept-answers';
import { chargeDescription, readChargeOffers, type MppChallenge } from './mpp/payment-challenge';
import { decodeChargeCredential } from './mpp/payment-credential';
import { schemeFor } from './schemes/lookup';
import { protocolOf, x402MetadataOf } from './x402/intent-metadata';
import { decodePaymentHeader } from './x402/payment-header';

const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

/** A paid call's (rail x402-base) wire protocol, as its metadata says; null for any other payment. */
export function paidCallProtocol(rail: RailName, metadata: unknown): PaymentProtocol | null {
  return rail === 'x402-base' ? protocolOf(x402MetadataOf(metadata)) : null;
}

export interface X402OperationView {
  protocol: PaymentProtocol;
  network: string | null;
  transactionHash: string | null;
  authorization: PaymentAuthorizationView | null;
  sellerReceipt: PaymentRailView['sellerReceipt'];
  requestSignature: PaymentRailView['requestSignature'];
  mpp: PaymentRailView['mpp'];
}

/** `details`: the rail operation's; `metadata`: its intent's (where the x402 endpoints keep the offer paid, and an MPP challenge). */
export function describeX402Operation(details: unknown, metadata: unknown): X402OperationView {
  const kept = keptAnswersOf(details);
  const x402 = x402MetadataOf(metadata);
  const protocol = protocolOf(x402);
  const authorization = kept.paymentHeader ? signedAuthorization(kept.paymentHeader) : null;
  return {
    protocol,
    network: kept.network ?? null,
    transactionHash: kept.transactionHash && TRANSACTION_HASH.test(kept.transactionHash) ? kept.transactionHash : null,
    authorization,
    sellerReceipt: kept.sellerReceipt ?? null,
    requestSignature: kept.requestSignature ?? null,
    mpp:
      protocol === 'mpp'
        ? {
            challenge: challengeView(x402?.mpp?.challenge),
            credential: kept.paymentHeader && authorization ? credentialView(kept.paymentHeader, authorization) : null,
            receipt: kept.mppReceipt ?? null,
          }
        : null,
  };
}

/** The terms of the stored payment header (an x402 header or an MPP credential); null when it cannot be read as one. */
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

/** An MPP credential: the challenge it echoes beside the authorisation it carries (already decoded from the same header). */
function credentialView(header: string, authorization: PaymentAuthorizationView): MppCredentialView | null {
  let challengeId: string;
  try {
    challengeId = decodeChargeCredential(header).challenge.id;
  } catch {
    return null;
  }
  const { scheme: _scheme, ...terms } = authorization;
  return { challengeId, ...terms };
}

/** The envelope of a kept challenge (mppx's Challenge as JSON); its request is read by the mpp folder. */
const KeptChallenge = z.object({
  id: z.string(),
  realm: z.string(),
  method: z.string(),
  intent: z.string(),
  expires: z.string().optional(),
});

/** The challenge kept in the intent's metadata; null when there is none or it is not an EVM charge Purser could have paid. */
function challengeView(kept: unknown): MppChallengeView | null {
  const envelope = KeptChallenge.safeParse(kept);
  if (!envelope.success) return null;
  const [offer] = readChargeOffers([kept as MppChallenge]);
  if (!offer) return null;
  const { id, realm, method, intent, expires } = envelope.data;
  return {
    id,
    realm,
    method,
    intent,
    expires: expires ?? null,
    request: {
      amount: toDecimalString(BigInt(offer.request.amount)),
      currency: offer.request.currency,
      recipient: offer.request.recipient,
      chainId: offer.request.methodDetails.chainId,
      description: chargeDescription(offer) ?? null,
    },
  };
}

/** Dates span ±8.64e15 ms; an EIP-3009 bound beyond that (a uint256) has no ISO form. */
function unixSecondsToIso(seconds: string): string | null {
  const value = BigInt(seconds);
  if (value > 8_640_000_000_000n) return null;
  return new Date(Number(value) * 1000).toISOString();
}
