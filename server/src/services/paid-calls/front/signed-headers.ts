/**
 * The front's two entries to a scheme's signature, by the priced scheme's name: sign a header for
 * a priced requirement, and check a header against what was priced and held before it is stored,
 * handed out or forwarded (signature included).
 */
import type { LocalAccount } from 'viem';
import { schemeFor } from '../schemes/lookup';
import type { AuthorizationTerms, SignRequest, UsdcDomain } from '../schemes/payment-scheme';
import { checkSignedHeader } from '../schemes/signed-header';
import { decodePaymentHeader, type DecodedPaymentHeader } from '../x402/payment-header';

export function signX402Authorization(request: SignRequest & { account: LocalAccount }): Promise<string> {
  return schemeFor(request.priced.scheme).sign(request.account, request);
}

/** Decodes a payment header and checks it against the intent's terms; throws X402_REFUSED listing every difference. */
export async function assertSignedAsPriced(header: string, terms: AuthorizationTerms, domain: UsdcDomain): Promise<DecodedPaymentHeader> {
  const decoded = decodePaymentHeader(header);
  await checkSignedHeader(schemeFor(decoded.scheme), decoded, terms, domain);
  return decoded;
}
