/**
 * Which of a seller's offers Purser pays: on our network, in our USDC, in the schemes' order of
 * preference (core's PAYABLE_SCHEMES), each only in the x402 versions it exists in.
 */
import type { EvmNetwork } from '../../chain/evm-chain';
import { PAYABLE_SCHEMES, type PayableScheme } from '@purser/core';
import { schemeFor } from '../schemes/lookup';
import { caip2Network, type X402Requirement, type X402Version } from '../x402/payment-required';

/**
 * The requirement we pay: on our network, in our USDC, `exact` when offered (the price is the
 * price), else `upto` (x402 v2 only: a signed maximum the seller settles part of), else
 * `batch-settlement` (x402 v2 only: a channel); null when none is offered.
 */
export function recommendRequirement<R extends X402Requirement>(accepts: R[], x402Version: X402Version, network: EvmNetwork, usdcAddress: string): R | null {
  const payable = (requirement: R, scheme: PayableScheme) =>
    requirement.scheme === scheme &&
    schemeFor(scheme).versions.includes(x402Version) &&
    caip2Network(requirement.network, x402Version) === network &&
    requirement.asset.toLowerCase() === usdcAddress.toLowerCase();
  for (const scheme of PAYABLE_SCHEMES) {
    const found = accepts.find((requirement) => payable(requirement, scheme));
    if (found) return found;
  }
  return null;
}

