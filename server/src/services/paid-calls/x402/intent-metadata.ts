/**
 * What the x402 endpoints keep in a payment intent's metadata: the seller's requirement being
 * paid, as offered, with what Purser answers of the 402's extensions. The rail prices the
 * intent from it again; a payment intent made any other way has none and cannot use the rail.
 */
import type { PaymentProtocol } from '@purser/core';
import type { MppChallenge } from '../mpp/payment-challenge';
import type { X402Version } from './payment-required';

export interface X402IntentMetadata {
  x402_version: X402Version;
  requirement: Record<string, unknown> & { network: string; asset: string; payTo: string; maxTimeoutSeconds: number };
  resource?: { url: string; description?: string; mimeType?: string };
  /** True when Purser fetched `resource.url` itself (/x402/fetch): only then is its host the seller's. */
  url_fetched?: boolean;
  /** x402 v2: the seller's payment-identifier declaration, echoed with the payment's identifier. */
  extensions?: Record<string, unknown>;
  /** x402 v2: who signed the seller's offer (offer-receipt); its receipt must be signed by the same. */
  offer_signer?: string;
  /** Paid over MPP: `requirement` is the challenge's EVM charge read as an `exact` requirement (absent: x402). */
  protocol?: 'mpp';
  /** MPP: the challenge the credential answers, as the seller sent it (the authorisation's nonce is bound to it). */
  mpp?: { challenge: MppChallenge };
}

/** The wire protocol a payment's metadata says it is paid in. */
export function protocolOf(x402: Pick<X402IntentMetadata, 'protocol'> | null | undefined): PaymentProtocol {
  return x402?.protocol === 'mpp' ? 'mpp' : 'x402';
}

export function x402MetadataOf(metadata: unknown): X402IntentMetadata | null {
  const x402 = (metadata as { x402?: X402IntentMetadata } | null | undefined)?.x402;
  return x402 && typeof x402 === 'object' && x402.requirement && typeof x402.requirement === 'object' ? x402 : null;
}
