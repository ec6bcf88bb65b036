/**
 * Sellers' receipts (x402's offer-receipt extension): a seller may sign, with its own key, that a
 * resource was paid for, and send the receipt in its PAYMENT-RESPONSE. Purser verifies it and
 * keeps it with the payment: the signature with @x402/extensions' own verifiers, and the receipt
 * against the payment as it happened, not as the seller tells it: the payer is the agent, the
 * network ours, the resource the URL that was paid, the transaction the one the chain says
 * settled it, the time recent, and the signer the one who signed the seller's offer in its 402.
 *
 * A receipt that fails any check is kept all the same, marked unverified with every reason: it
 * changes no money (the ledger follows the chain), and the owner may want to see what was sent.
 * A JWS receipt whose key is named by did:web is not resolved: that would fetch a URL the seller
 * chose.
 */
import type { SellerReceiptView } from '@purser/core';
import type { PaymentRequired } from '@x402/core/types';
import {
  decodeSignedOffers,
  extractJWSHeader,
  extractOffersFromPaymentRequired,
  extractPublicKeyFromKid,
  extractReceiptPayload,
  isEIP712SignedReceipt,
  OFFER_RECEIPT,
  verifyOfferSignatureEIP712,
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
  type DecodedOffer,
  type ReceiptPayload,
  type SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { isAddressEqual, isAddress } from 'viem';
import { z } from 'zod';

/** How old a receipt may be when it arrives (seconds), and how far in the future (clock skew). */
const MAX_RECEIPT_AGE_S = 3_600;
const MAX_FUTURE_S = 60;

const SignedReceiptSchema = z.union([
  z.object({ format: z.literal('jws'), signature: z.string().min(1).max(8_192) }),
  z.object({
    format: z.literal('eip712'),
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
    payload: z.object({
      version: z.number(),
      network: z.string(),
      resourceUrl: z.string(),
      payer: z.string(),
      issuedAt: z.number(),
      transaction: z.string(),
    }),
  }),
]);

/** A seller's receipt as Purser keeps it and shows it (core's sellerReceiptView). */
export type SellerReceipt = SellerReceiptView;

/** What the payment was, from Purser's own records and the chain. */
export interface PaidFacts {
  payer: string;
  /** CAIP-2. */
  network: string;
  resourceUrl: string;
  /** The settling transaction, once known. */
  transaction: string | null;
  /** Who signed the seller's offer in its 402 (`offerSigner`): the receipt's signer must be the same. */
  offerSigner?: string | null;
}

/** The receipt in a decoded PAYMENT-RESPONSE (`extensions['offer-receipt'].info.receipt`), or null. */
export function receiptInPaymentResponse(paymentResponse: unknown): SignedReceipt | null {
  const extensions = (paymentResponse as { extensions?: Record<string, { info?: { receipt?: unknown } }> } | null)?.extensions;
  const parsed = SignedReceiptSchema.safeParse(extensions?.[OFFER_RECEIPT]?.info?.receipt);
  return parsed.success ? (parsed.data as SignedReceipt) : null;
}

/** Verifies a seller's receipt against the payment; never throws for what the seller sent. */
export async function checkSellerReceipt(receipt: SignedReceipt, facts: PaidFacts): Promise<SellerReceipt> {
  const problems: string[] = [];
  let signer: string | null = null;
  let claims: ReceiptPayload | null = null;
  try {
    claims = extractReceiptPayload(receipt);
  } catch {
    problems.push('its payload cannot be read');
  }
  try {
    if (isEIP712SignedReceipt(receipt)) {
      signer = (await verifyReceiptSignatureEIP712(receipt)).signer;
    } else {
      const { kid } = extractJWSHeader(receipt.signature);
      signer = kid ?? null;
      if (!kid || !/^did:(key|jwk):/.test(kid)) throw new Error(`its key ${kid ?? '(none)'} is not a did:key or did:jwk, which are read without fetching anything`);
      await verifyReceiptSignatureJWS(receipt, await extractPublicKeyFromKid(kid));
    }
  } catch (error) {
    problems.push(`its signature does not hold: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (claims) {
    const expect = (ok: boolean, problem: string) => void (ok || problems.push(problem));
    expect(isAddress(claims.payer) && isAddressEqual(claims.payer, facts.payer as `0x${string}`), `payer ${claims.payer}, not the agent ${facts.payer}`);
    expect(claims.network === facts.network, `network ${claims.network}, not ${facts.network}`);
    expect(claims.resourceUrl === facts.resourceUrl, `resource ${claims.resourceUrl}, not ${facts.resourceUrl}`);
    if (claims.transaction) {
      expect(facts.transaction !== null && claims.transaction.toLowerCase() === facts.transaction.toLowerCase(), `transaction ${claims.transaction}, not ${facts.transaction ?? 'the settlement (none yet)'}`);
    }
    const now = Math.floor(Date.now() / 1000);
    expect(now - claims.issuedAt <= MAX_RECEIPT_AGE_S && claims.issuedAt - now <= MAX_FUTURE_S, `issued at ${claims.issuedAt}, not now`);
  }
  const { offerSigner } = facts;
  if (offerSigner && signer && !sameSigner(offerSigner, signer)) problems.push(`signed by ${signer}, not by ${offerSigner}, who signed the offer`);
  return { format: receipt.format, verified: problems.length === 0, problems, signer, claims: claims as unknown as Record<string, unknown> | null, receipt: receipt as unknown as Record<string, unknown> };
}

/**
 * Who signed the seller's offer for this resource, when its 402 carried one (offer-receipt's
 * `info.offers`) whose signature holds: an address (EIP-712) or a key id (JWS). Offers are signed
 * afresh for every 402; their signer is what stays, and what a receipt is held to.
 */
export async function offerSigner(extensions: PaymentRequired['extensions'] | undefined, resourceUrl: string): Promise<string | null> {
  let offers: DecodedOffer[];
  try {
    offers = decodeSignedOffers(extractOffersFromPaymentRequired({ extensions } as PaymentRequired));
  } catch {
    return null;
  }
  for (const offer of offers) {
    if (offer.resourceUrl !== resourceUrl) continue;
    if (offer.signedOffer.format === 'eip712') {
      const verified = await verifyOfferSignatureEIP712(offer.signedOffer).catch(() => null);
      if (verified) return verified.signer;
    } else {
      const { kid } = extractJWSHeader(offer.signedOffer.signature);
      if (kid) return kid;
    }
  }
  return null;
}

function sameSigner(a: string, b: string): boolean {
  return isAddress(a) && isAddress(b) ? isAddressEqual(a, b) : a === b;
}
