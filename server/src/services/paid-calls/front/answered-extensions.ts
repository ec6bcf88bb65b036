/**
 * What an intent keeps of the 402's extensions Purser answers: the payment-identifier declaration
 * as the seller made it (echoed with the payment's identifier), and who signed the seller's offer
 * (offer-receipt), which its receipt must match. Both are the same for every 402 of one resource,
 * so a retried call is the same request.
 */
import { OFFER_RECEIPT } from '@x402/extensions/offer-receipt';
import { PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import type { X402IntentMetadata } from '../x402/intent-metadata';
import { offerSigner } from './seller-receipts';

/** The most of a seller's payment-identifier declaration kept with a payment. */
const KEPT_EXTENSION_MAX_BYTES = 4 * 1024;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function answeredExtensions(extensions: Record<string, unknown>, url: string | undefined): Promise<Pick<X402IntentMetadata, 'extensions' | 'offer_signer'>> {
  const declared = extensions[PAYMENT_IDENTIFIER];
  const keep = isObject(declared) && Buffer.byteLength(JSON.stringify(declared)) <= KEPT_EXTENSION_MAX_BYTES;
  const signer = url && isObject(extensions[OFFER_RECEIPT]) ? await offerSigner(extensions, url) : null;
  return { ...(keep ? { extensions: { [PAYMENT_IDENTIFIER]: declared } } : {}), ...(signer ? { offer_signer: signer } : {}) };
}
