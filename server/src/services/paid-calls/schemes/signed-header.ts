/**
 * What was signed, checked against what was priced and held before any header is stored, handed
 * out or forwarded: the fields every x402 payment carries (version, scheme, network, the
 * requirement it answers), then the scheme's own (its authorisation and signature).
 */
import { isAddress, isAddressEqual } from 'viem';
import type { DecodedPaymentHeader } from '../x402/payment-header';
import type { AuthorizationTerms, PaymentScheme, UsdcDomain } from './payment-scheme';
import { problemList, refused } from './problems';

/** Throws X402_REFUSED listing every difference between the header and the terms. */
export async function checkSignedHeader(scheme: Pick<PaymentScheme, 'name' | 'check'>, decoded: DecodedPaymentHeader, terms: AuthorizationTerms, domain: UsdcDomain): Promise<void> {
  const { expect, problems } = problemList();
  expect(decoded.x402Version === terms.x402Version, `x402 version ${decoded.x402Version}, not ${terms.x402Version}`);
  expect(decoded.scheme === terms.scheme, `scheme ${decoded.scheme}, not ${terms.scheme}`);
  expect(decoded.network === terms.network, `network ${decoded.network}, not ${terms.network}`);
  if (decoded.accepted) {
    const { asset, payTo } = decoded.accepted;
    expect(decoded.accepted.scheme === terms.scheme, `accepted scheme ${decoded.accepted.scheme}, not ${terms.scheme}`);
    expect(isAddress(asset) && isAddressEqual(asset, terms.asset), `asset ${asset}, not ${terms.asset}`);
    expect(isAddress(payTo) && isAddressEqual(payTo, terms.payTo), `accepted payTo ${payTo}, not ${terms.payTo}`);
    expect(decoded.accepted.amount === terms.amount.toString(), `accepted amount ${decoded.accepted.amount}, not ${terms.amount}`);
  }
  if (decoded.scheme === scheme.name) await scheme.check(decoded, terms, domain, expect);
  if (problems.length > 0) throw refused(`The payment header is not what was priced and held (${problems.join('; ')}); it was not used`);
}
