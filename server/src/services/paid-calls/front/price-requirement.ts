/**
 * A seller's requirement priced once, as Purser will pay it. A seller's 402 is a counterparty's
 * word: it may name two prices, a transfer method we do not price, a window of centuries. So
 * every requirement passes the same checks here (a scheme paid in its version, its one transfer
 * method, our network and USDC, a payee, a price, a window) and then its scheme's own
 * (schemes/<scheme>/: a facilitator for `upto`, a channel's terms), and the official client later
 * signs exactly that price with a window Purser chose.
 */
import { AppError } from '@purser/core';
import { getAddress, isAddress, isAddressEqual } from 'viem';
import type { EvmNetworkInfo } from '../../chain/evm-chain';
import { isPayableScheme, PAYABLE_SCHEMES } from '@purser/core';
import { DEFAULT_X402_MAX_VALIDITY_SECONDS } from '../schemes/chain-clock';
import { schemeFor } from '../schemes/lookup';
import type { PricedRequirement } from '../schemes/payment-scheme';
import { refused } from '../schemes/problems';
import { requirementPrice, type X402Version } from '../x402/payment-required';
import type { X402Deps } from './x402-deps';

/** The one price of a requirement, or a refusal (X402_REFUSED, or RAIL_UNAVAILABLE for another network or asset). */
export function priceRequirement(requirement: Record<string, unknown>, x402Version: X402Version, chain: EvmNetworkInfo, maxValiditySeconds: number): PricedRequirement {
  const name = requirement.scheme;
  const scheme = isPayableScheme(name) ? schemeFor(name) : null;
  if (!scheme || !scheme.versions.includes(x402Version)) throw refused(`Only the ${paidSchemes(x402Version)} paid, not ${JSON.stringify(name)}`);
  const extra = (requirement.extra ?? {}) as Record<string, unknown>;
  if (extra.assetTransferMethod !== undefined && extra.assetTransferMethod !== scheme.transferMethod) {
    throw refused(`An "${scheme.name}" payment is signed only as ${scheme.transferMethod === 'eip3009' ? 'an EIP-3009 transfer' : 'a Permit2 transfer'}, not ${JSON.stringify(extra.assetTransferMethod)}`);
  }
  const expectedNetwork = x402Version === 1 ? chain.v1Name : chain.network;
  if (requirement.network !== expectedNetwork) {
    throw new AppError('RAIL_UNAVAILABLE', `This deployment pays on ${expectedNetwork} (${chain.displayName}); the requirement asks for ${String(requirement.network)}`);
  }
  if (typeof requirement.asset !== 'string' || !isAddress(requirement.asset) || !isAddressEqual(requirement.asset, chain.usdcAddress)) {
    throw new AppError('RAIL_UNAVAILABLE', `Only USDC (${chain.usdcAddress}) is paid over x402; the requirement asks for ${String(requirement.asset)}`);
  }
  if (typeof requirement.payTo !== 'string' || !isAddress(requirement.payTo)) throw refused("The requirement's payTo is not an EVM address");
  const amount = requirementPrice(requirement, x402Version);
  if (amount <= 0n) throw refused('The requirement asks for no money');
  const timeout = requirement.maxTimeoutSeconds;
  if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout <= 0) throw refused("The requirement's maxTimeoutSeconds is not a positive whole number");
  const terms = scheme.price(extra, amount);
  return {
    x402Version,
    scheme: scheme.name,
    network: chain.network,
    asset: getAddress(requirement.asset),
    payTo: getAddress(requirement.payTo),
    amount: terms.amount,
    validitySeconds: Math.min(timeout, maxValiditySeconds),
    ...(terms.facilitator ? { facilitator: terms.facilitator } : {}),
    ...(terms.channel ? { channel: terms.channel } : {}),
  };
}

/** The deployment's price of a requirement: its network and its longest window. */
export function priceFor(deps: Pick<X402Deps, 'chain' | 'x402MaxValiditySeconds'>, requirement: Record<string, unknown>, x402Version: X402Version): PricedRequirement {
  return priceRequirement(requirement, x402Version, deps.chain.info, deps.x402MaxValiditySeconds ?? DEFAULT_X402_MAX_VALIDITY_SECONDS);
}

/** `"exact" x402 scheme is`, or `"exact" x402 scheme, the "upto" scheme and the "batch-settlement" scheme are`. */
function paidSchemes(x402Version: X402Version): string {
  const names = PAYABLE_SCHEMES.filter((name) => schemeFor(name).versions.includes(x402Version)).map((name, index) => (index === 0 ? `"${name}" x402 scheme` : `the "${name}" scheme`));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return `${list} ${names.length > 1 ? 'are' : 'is'}`;
}
