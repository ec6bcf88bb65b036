/**
 * What Purser signs for x402, and the checks on both sides of the signature. A seller's 402
 * is a counterparty's word: it may name two prices, a transfer method we do not price, a
 * window of centuries. So a requirement is priced once (`priceRequirement`), the official
 * scheme client signs exactly that price with a window Purser chose (`signX402Authorization`),
 * and before any header is stored, handed out or forwarded it is decoded and compared with
 * what was priced, allowed and held (`assertSignedAsPriced`), signature included.
 *
 * An authorisation that must not be redeemed is voided on chain with EIP-3009
 * cancelAuthorization, signed with the agent's key (`cancelAuthorizationOnChain`).
 */
import { AppError } from '@purser/core';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/client';
import { getAddress, isAddress, isAddressEqual, verifyTypedData, type Address, type Hex, type LocalAccount } from 'viem';
import type { EvmChain, EvmNetworkInfo } from '../chain/evm-chain';
import { decodePaymentHeader, requirementPrice, type DecodedPaymentHeader, type X402Version } from './x402-messages';

/** How long a signed authorisation may stay redeemable, whatever the seller asks: 5 minutes. */
export const DEFAULT_X402_MAX_VALIDITY_SECONDS = 300;

/** A requirement as Purser will pay it. */
export interface PricedRequirement {
  x402Version: X402Version;
  /** CAIP-2. */
  network: string;
  asset: Address;
  payTo: Address;
  /** Atomic units of USDC, > 0. */
  amount: bigint;
  /** min(the seller's maxTimeoutSeconds, the deployment's maximum). */
  validitySeconds: number;
}

function refused(message: string): AppError {
  return new AppError('X402_REFUSED', message);
}

/**
 * The one price of a requirement, or a refusal. Only the `exact` scheme over EIP-3009 is paid:
 * it moves exactly the signed value to exactly the payee. Every other scheme or transfer method
 * (permit2 approvals, `upto`) could move a different amount than the one priced.
 */
export function priceRequirement(
  requirement: Record<string, unknown>,
  x402Version: X402Version,
  chain: EvmNetworkInfo,
  maxValiditySeconds: number,
): PricedRequirement {
  if (requirement.scheme !== 'exact') throw refused(`Only the "exact" x402 scheme is paid, not ${JSON.stringify(requirement.scheme)}`);
  const extra = (requirement.extra ?? {}) as Record<string, unknown>;
  if (extra.assetTransferMethod !== undefined && extra.assetTransferMethod !== 'eip3009') {
    throw refused(`Only EIP-3009 transfers are signed, not ${JSON.stringify(extra.assetTransferMethod)}`);
  }
  const expectedNetwork = x402Version === 1 ? chain.v1Name : chain.network;
  if (requirement.network !== expectedNetwork) {
    throw new AppError('RAIL_UNAVAILABLE', `This deployment pays on ${expectedNetwork} (${chain.displayName}); the requirement asks for ${String(requirement.network)}`);
  }
  if (typeof requirement.asset !== 'string' || !isAddress(requirement.asset) || !isAddressEqual(requirement.asset, chain.usdcAddress)) {
    throw new AppError('RAIL_UNAVAILABLE', `Only USDC (${chain.usdcAddress}) is paid over x402; the requirement asks for ${String(requirement.asset)}`);
  }
  if (typeof requirement.payTo !== 'string' || !isAddress(requirement.payTo)) throw refused('The requirement\'s payTo is not an EVM address');
  const amount = requirementPrice(requirement, x402Version);
  if (amount <= 0n) throw refused('The requirement asks for no money');
  const timeout = requirement.maxTimeoutSeconds;
  if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout <= 0) throw refused('The requirement\'s maxTimeoutSeconds is not a positive whole number');
  return {
    x402Version,
    network: chain.network,
    asset: getAddress(requirement.asset),
    payTo: getAddress(requirement.payTo),
    amount,
    validitySeconds: Math.min(timeout, maxValiditySeconds),
  };
}

/**
 * Signs the EIP-3009 authorisation for a priced requirement with the official scheme client,
 * under the token's own EIP-712 domain (not the seller's claim of it) and with Purser's window.
 * A v2 payment echoes the seller's requirement exactly as it was offered: the seller matches the
 * echo field by field, and the signature does not cover it.
 */
export async function signX402Authorization(request: {
  account: LocalAccount;
  requirement: Record<string, unknown>;
  priced: PricedRequirement;
  domain: { name: string; version: string };
  resource?: { url: string; description?: string; mimeType?: string };
}): Promise<string> {
  const { account, requirement, priced, domain, resource } = request;
  const signing = {
    ...requirement,
    maxTimeoutSeconds: priced.validitySeconds,
    extra: { ...((requirement.extra ?? {}) as Record<string, unknown>), name: domain.name, version: domain.version },
  } as unknown as PaymentRequirements;
  if (priced.x402Version === 1) {
    // v1 payloads name scheme and network instead of echoing the requirement.
    return encodePaymentSignatureHeader((await new ExactEvmSchemeV1(account).createPaymentPayload(1, signing)) as unknown as PaymentPayload);
  }
  const { payload } = await new ExactEvmScheme(account).createPaymentPayload(2, signing);
  return encodePaymentSignatureHeader({
    x402Version: 2,
    payload,
    accepted: requirement as unknown as PaymentRequirements,
    ...(resource ? { resource: resource as PaymentPayload['resource'] } : {}),
  });
}

/** What a header must say to be used for a payment intent. */
export interface AuthorizationTerms {
  x402Version: X402Version;
  network: string;
  asset: Address;
  payTo: Address;
  amount: bigint;
  /** The agent's address: the authorizer. */
  from: Address;
  /** The latest validBefore (unix seconds) the window allows. */
  latestValidBefore: bigint;
}

/**
 * Decodes a payment header and checks it against the intent's terms: version, scheme, network,
 * asset, payee, value, payer, window, and that the signature is the payer's over exactly these
 * fields. Throws X402_REFUSED listing every difference.
 */
export async function assertSignedAsPriced(header: string, terms: AuthorizationTerms, domain: Awaited<ReturnType<EvmChain['usdcDomain']>>): Promise<DecodedPaymentHeader> {
  const decoded = decodePaymentHeader(header);
  const { authorization, signature } = decoded.payload;
  const problems: string[] = [];
  const expect = (ok: boolean, problem: string) => void (ok || problems.push(problem));
  expect(decoded.x402Version === terms.x402Version, `x402 version ${decoded.x402Version}, not ${terms.x402Version}`);
  expect(decoded.scheme === 'exact', `scheme ${decoded.scheme}, not exact`);
  expect(decoded.network === terms.network, `network ${decoded.network}, not ${terms.network}`);
  if (decoded.accepted) {
    const { asset, payTo } = decoded.accepted;
    expect(isAddress(asset) && isAddressEqual(asset, terms.asset), `asset ${asset}, not ${terms.asset}`);
    expect(isAddress(payTo) && isAddressEqual(payTo, terms.payTo), `accepted payTo ${payTo}, not ${terms.payTo}`);
    expect(decoded.accepted.amount === terms.amount.toString(), `accepted amount ${decoded.accepted.amount}, not ${terms.amount}`);
  }
  expect(isAddressEqual(authorization.from as Address, terms.from), `payer ${authorization.from}, not ${terms.from}`);
  expect(isAddressEqual(authorization.to as Address, terms.payTo), `payee ${authorization.to}, not ${terms.payTo}`);
  expect(BigInt(authorization.value) === terms.amount, `value ${authorization.value}, not ${terms.amount}`);
  expect(BigInt(authorization.validBefore) <= terms.latestValidBefore, `valid until ${authorization.validBefore}, later than ${terms.latestValidBefore}`);
  expect(BigInt(authorization.validAfter) <= BigInt(authorization.validBefore), 'its window is empty');
  if (problems.length === 0) {
    const valid = await verifyTypedData({
      address: terms.from,
      domain,
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: getAddress(authorization.from),
        to: getAddress(authorization.to),
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce as Hex,
      },
      signature: signature as Hex,
    }).catch(() => false);
    expect(valid, `its signature is not ${terms.from}'s over these terms under ${domain.name} v${domain.version}`);
  }
  if (problems.length > 0) throw refused(`The payment header is not what was priced and held (${problems.join('; ')}); it was not used`);
  return decoded;
}

const cancelAuthorizationTypes = {
  CancelAuthorization: [
    { name: 'authorizer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** Voids an unused authorisation on chain (EIP-3009 cancelAuthorization), signed by its authorizer. */
export async function cancelAuthorizationOnChain(chain: EvmChain, account: LocalAccount, nonce: Hex): Promise<Hex> {
  const domain = await chain.usdcDomain();
  const signature = await account.signTypedData({
    domain,
    types: cancelAuthorizationTypes,
    primaryType: 'CancelAuthorization',
    message: { authorizer: account.address, nonce },
  });
  return chain.cancelAuthorization({ authorizer: account.address, nonce, signature, sender: account });
}
