/**
 * What Purser signs for x402, and the checks on both sides of the signature. A seller's 402
 * is a counterparty's word: it may name two prices, a transfer method we do not price, a
 * window of centuries. So a requirement is priced once (`priceRequirement`), the official
 * scheme client signs exactly that price with a window Purser chose (`signX402Authorization`),
 * and before any header is stored, handed out or forwarded it is decoded and compared with
 * what was priced, allowed and held (`assertSignedAsPriced`), signature included.
 *
 * Two schemes are paid:
 * - `exact`: an EIP-3009 transferWithAuthorization of exactly the price to the payee. One that
 *   must not be redeemed is voided with EIP-3009 cancelAuthorization (`cancelAuthorizationOnChain`).
 * - `upto` (x402 v2): a Permit2 PermitWitnessTransferFrom of at most the price (the maximum, which
 *   is what the gate sees and the hold takes), spendable only by x402's upto proxy, only to the
 *   payee and only when the seller's named facilitator settles it. The seller settles what was
 *   used; the ledger captures what the chain moved (x402-base-rail.ts). One that must not be
 *   redeemed has its Permit2 nonce invalidated by the agent (`invalidatePermit2NonceOnChain`).
 */
import { AppError } from '@purser/core';
import { createHash } from 'node:crypto';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { authorizationTypes, PERMIT2_ADDRESS, uptoPermit2WitnessTypes, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/client';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { appendPaymentIdentifierToExtensions, declarePaymentIdentifierExtension, isPaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { getAddress, isAddress, isAddressEqual, verifyTypedData, zeroAddress, type Address, type Hex, type LocalAccount } from 'viem';
import type { EvmChain, EvmNetworkInfo } from '../chain/evm-chain';
import { decodePaymentHeader, requirementPrice, type DecodedPaymentHeader, type PayableScheme, type X402Version } from './x402-messages';

/** How long a signed authorisation may stay redeemable, whatever the seller asks: 5 minutes. */
export const DEFAULT_X402_MAX_VALIDITY_SECONDS = 300;

/** A requirement as Purser will pay it. */
export interface PricedRequirement {
  x402Version: X402Version;
  scheme: PayableScheme;
  /** CAIP-2. */
  network: string;
  asset: Address;
  payTo: Address;
  /** Atomic units of USDC, > 0: the price, or for `upto` the most the seller may settle. */
  amount: bigint;
  /** min(the seller's maxTimeoutSeconds, the deployment's maximum). */
  validitySeconds: number;
  /** `upto` only: the one account that may settle it (the seller's facilitator). */
  facilitator?: Address;
  /** `batch-settlement` only: the channel's terms; `amount` is then the deposit to hold. */
  channel?: ChannelTerms;
}

/** What a batch-settlement requirement asks of a channel. */
export interface ChannelTerms {
  /** Atomic units: the price of one call, what each voucher adds. */
  price: bigint;
  /** The seller's key for claims and refunds (extra.receiverAuthorizer). */
  receiverAuthorizer: Address;
  /** Seconds the payer waits for a timed withdrawal (extra.withdrawDelay, the contract's default when absent). */
  withdrawDelay: number;
  /** The seller's minimum deposit (extra.minDeposit), when it announced one. */
  minDeposit: bigint | null;
}

/** X402BatchSettlement.sol's bounds on a channel's withdrawDelay. */
export const CHANNEL_WITHDRAW_DELAY_RANGE = { min: 900, max: 2_592_000 } as const;

function refused(message: string): AppError {
  return new AppError('X402_REFUSED', message);
}

/**
 * The one price of a requirement, or a refusal. Two schemes are paid, each over one transfer
 * method: `exact` over EIP-3009 (it moves exactly the signed value to exactly the payee) and, in
 * x402 v2, `upto` over Permit2 (it moves at most the signed value to exactly the payee, through
 * x402's upto proxy, settled by the facilitator the seller names). Every other scheme or method
 * could move a different amount, or to someone else, than the one priced.
 */
export function priceRequirement(
  requirement: Record<string, unknown>,
  x402Version: X402Version,
  chain: EvmNetworkInfo,
  maxValiditySeconds: number,
): PricedRequirement {
  const scheme = requirement.scheme;
  if (scheme !== 'exact' && !((scheme === 'upto' || scheme === 'batch-settlement') && x402Version === 2)) {
    throw refused(`Only the "exact" x402 scheme${x402Version === 2 ? ', the "upto" scheme and the "batch-settlement" scheme are' : ' is'} paid, not ${JSON.stringify(scheme)}`);
  }
  const extra = (requirement.extra ?? {}) as Record<string, unknown>;
  // A channel's deposit is an EIP-3009 authorisation to the official deposit collector; a
  // Permit2 deposit would need an allowance Purser does not give channels.
  const method = scheme === 'upto' ? 'permit2' : 'eip3009';
  if (extra.assetTransferMethod !== undefined && extra.assetTransferMethod !== method) {
    throw refused(`An "${scheme}" payment is signed only as ${method === 'eip3009' ? 'an EIP-3009 transfer' : 'a Permit2 transfer'}, not ${JSON.stringify(extra.assetTransferMethod)}`);
  }
  let facilitator: Address | undefined;
  if (scheme === 'upto') {
    if (typeof extra.facilitatorAddress !== 'string' || !isAddress(extra.facilitatorAddress)) throw refused('The "upto" requirement names no facilitator address (extra.facilitatorAddress)');
    facilitator = getAddress(extra.facilitatorAddress);
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
  const channel = scheme === 'batch-settlement' ? channelTerms(extra, amount) : undefined;
  return {
    x402Version,
    scheme,
    network: chain.network,
    asset: getAddress(requirement.asset),
    payTo: getAddress(requirement.payTo),
    // A channel holds its deposit: the seller's minimum, and at least one call.
    amount: channel ? (channel.minDeposit !== null && channel.minDeposit > amount ? channel.minDeposit : amount) : amount,
    validitySeconds: Math.min(timeout, maxValiditySeconds),
    ...(facilitator ? { facilitator } : {}),
    ...(channel ? { channel } : {}),
  };
}

/** A batch-settlement requirement's channel terms, or a refusal: the contract would refuse them, or they name no seller key. */
function channelTerms(extra: Record<string, unknown>, price: bigint): ChannelTerms {
  const authorizer = extra.receiverAuthorizer;
  if (typeof authorizer !== 'string' || !isAddress(authorizer) || isAddressEqual(authorizer, zeroAddress)) {
    throw refused('The "batch-settlement" requirement names no receiver authorizer (extra.receiverAuthorizer)');
  }
  const delay = extra.withdrawDelay ?? CHANNEL_WITHDRAW_DELAY_RANGE.min;
  if (typeof delay !== 'number' || !Number.isSafeInteger(delay) || delay < CHANNEL_WITHDRAW_DELAY_RANGE.min || delay > CHANNEL_WITHDRAW_DELAY_RANGE.max) {
    throw refused(`The "batch-settlement" requirement's withdrawDelay ${JSON.stringify(delay)} is outside ${CHANNEL_WITHDRAW_DELAY_RANGE.min}-${CHANNEL_WITHDRAW_DELAY_RANGE.max} seconds`);
  }
  const minDeposit = extra.minDeposit;
  if (minDeposit !== undefined && (typeof minDeposit !== 'string' || !/^\d+$/.test(minDeposit))) {
    throw refused(`The "batch-settlement" requirement's minDeposit ${JSON.stringify(minDeposit)} is not a whole number of atomic units`);
  }
  return { price, receiverAuthorizer: getAddress(authorizer), withdrawDelay: delay, minDeposit: minDeposit === undefined ? null : BigInt(minDeposit) };
}

/**
 * Signs the authorisation for a priced requirement with the official scheme client, with
 * Purser's window: `exact` as EIP-3009 under the token's own EIP-712 domain (not the seller's
 * claim of it), `upto` as a Permit2 witness transfer under Permit2's domain. A v2 payment echoes
 * the seller's requirement exactly as it was offered: the seller matches the echo field by field,
 * and the signature does not cover it.
 */
export async function signX402Authorization(request: {
  account: LocalAccount;
  requirement: Record<string, unknown>;
  priced: PricedRequirement;
  domain: { name: string; version: string };
  resource?: { url: string; description?: string; mimeType?: string };
  /**
   * x402 v2: the payment's identifier (`paymentIdentifierFor`), sent as the payment-identifier
   * extension: the seller's declaration echoed as it was (sellers check the echo) with the id added.
   */
  paymentId?: { id: string; declared?: Record<string, unknown> };
}): Promise<string> {
  const { account, requirement, priced, domain, resource, paymentId } = request;
  const signing = {
    ...requirement,
    maxTimeoutSeconds: priced.validitySeconds,
    extra: { ...((requirement.extra ?? {}) as Record<string, unknown>), name: domain.name, version: domain.version },
  } as unknown as PaymentRequirements;
  if (priced.x402Version === 1) {
    // v1 payloads name scheme and network instead of echoing the requirement.
    return encodePaymentSignatureHeader((await new ExactEvmSchemeV1(account).createPaymentPayload(1, signing)) as unknown as PaymentPayload);
  }
  // No extension context: Purser itself sees to the agent's Permit2 allowance (never more than
  // it holds), so the client signs no approval for the seller to submit.
  const client = priced.scheme === 'upto' ? new UptoEvmScheme(account) : new ExactEvmScheme(account);
  const { payload } = await client.createPaymentPayload(2, signing);
  return encodePaymentSignatureHeader({
    x402Version: 2,
    payload,
    accepted: requirement as unknown as PaymentRequirements,
    ...(resource ? { resource: resource as PaymentPayload['resource'] } : {}),
    ...(paymentId ? { extensions: paymentIdentifierExtension(paymentId.id, paymentId.declared) } : {}),
  });
}

function paymentIdentifierExtension(id: string, declared: Record<string, unknown> | undefined): Record<string, unknown> {
  const declaration = isPaymentIdentifierExtension(declared) ? structuredClone(declared) : declarePaymentIdentifierExtension(false);
  return appendPaymentIdentifierToExtensions({ [PAYMENT_IDENTIFIER]: declaration }, id);
}

/**
 * The x402 payment-identifier of an agent's payment: derived from the agent and the
 * Idempotency-Key the payment was made with, so the same call repeated carries the same
 * identifier and a seller recognises it as one payment. Hashed: the key itself is the agent's
 * and never leaves Purser.
 */
export function paymentIdentifierFor(agentId: string, idempotencyKey: string): string {
  return `pay_${createHash('sha256').update(`${agentId}\n${idempotencyKey}`).digest('hex').slice(0, 40)}`;
}

/** What a header must say to be used for a payment intent. */
export interface AuthorizationTerms {
  x402Version: X402Version;
  scheme: PayableScheme;
  network: string;
  asset: Address;
  payTo: Address;
  amount: bigint;
  /** The agent's address: the authorizer. */
  from: Address;
  /** The latest validBefore (unix seconds) the window allows: for `upto`, Permit2's deadline. */
  latestValidBefore: bigint;
  /** `upto` only: the facilitator the seller named, the only one who may settle. */
  facilitator?: Address;
}

/**
 * Decodes a payment header and checks it against the intent's terms: version, scheme, network,
 * asset, payee, value, payer, window, and that the signature is the payer's over exactly these
 * fields. Throws X402_REFUSED listing every difference.
 */
export async function assertSignedAsPriced(header: string, terms: AuthorizationTerms, domain: Awaited<ReturnType<EvmChain['usdcDomain']>>): Promise<DecodedPaymentHeader> {
  const decoded = decodePaymentHeader(header);
  const problems: string[] = [];
  const expect = (ok: boolean, problem: string) => void (ok || problems.push(problem));
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
  if (decoded.scheme === 'upto') {
    await checkPermit2Authorization(decoded, terms, domain.chainId, expect);
  } else if (decoded.scheme === 'exact') {
    await checkEip3009Authorization(decoded, terms, domain, expect);
  }
  if (problems.length > 0) throw refused(`The payment header is not what was priced and held (${problems.join('; ')}); it was not used`);
  return decoded;
}

type Expect = (ok: boolean, problem: string) => void;

async function checkEip3009Authorization(
  decoded: Extract<DecodedPaymentHeader, { scheme: 'exact' }>,
  terms: AuthorizationTerms,
  domain: Awaited<ReturnType<EvmChain['usdcDomain']>>,
  expect: Expect,
): Promise<void> {
  const { authorization, signature } = decoded.payload;
  let problems = 0;
  const check: Expect = (ok, problem) => void (ok || (problems++, expect(ok, problem)));
  check(isAddressEqual(authorization.from as Address, terms.from), `payer ${authorization.from}, not ${terms.from}`);
  check(isAddressEqual(authorization.to as Address, terms.payTo), `payee ${authorization.to}, not ${terms.payTo}`);
  check(BigInt(authorization.value) === terms.amount, `value ${authorization.value}, not ${terms.amount}`);
  check(BigInt(authorization.validBefore) <= terms.latestValidBefore, `valid until ${authorization.validBefore}, later than ${terms.latestValidBefore}`);
  check(BigInt(authorization.validAfter) <= BigInt(authorization.validBefore), 'its window is empty');
  if (problems > 0) return;
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

/**
 * An `upto` authorisation may move at most the held amount, of our USDC, from the agent, only to
 * the payee, only through x402's upto proxy, only when settled by the seller's named facilitator,
 * and only within Purser's window.
 */
async function checkPermit2Authorization(
  decoded: Extract<DecodedPaymentHeader, { scheme: 'upto' }>,
  terms: AuthorizationTerms,
  chainId: number,
  expect: Expect,
): Promise<void> {
  const { permit2Authorization: permit, signature } = decoded.payload;
  let problems = 0;
  const check: Expect = (ok, problem) => void (ok || (problems++, expect(ok, problem)));
  check(isAddressEqual(permit.from as Address, terms.from), `payer ${permit.from}, not ${terms.from}`);
  check(isAddressEqual(permit.witness.to as Address, terms.payTo), `payee ${permit.witness.to}, not ${terms.payTo}`);
  check(isAddressEqual(permit.permitted.token as Address, terms.asset), `token ${permit.permitted.token}, not ${terms.asset}`);
  check(BigInt(permit.permitted.amount) === terms.amount, `maximum ${permit.permitted.amount}, not ${terms.amount}`);
  check(isAddressEqual(permit.spender as Address, x402UptoPermit2ProxyAddress), `spender ${permit.spender}, not x402's upto proxy ${x402UptoPermit2ProxyAddress}`);
  check(terms.facilitator !== undefined && isAddressEqual(permit.witness.facilitator as Address, terms.facilitator), `facilitator ${permit.witness.facilitator}, not ${terms.facilitator ?? 'the one the seller named'}`);
  check(BigInt(permit.deadline) <= terms.latestValidBefore, `valid until ${permit.deadline}, later than ${terms.latestValidBefore}`);
  check(BigInt(permit.witness.validAfter) <= BigInt(permit.deadline), 'its window is empty');
  if (problems > 0) return;
  const valid = await verifyTypedData({
    address: terms.from,
    domain: { name: 'Permit2', chainId, verifyingContract: PERMIT2_ADDRESS },
    types: uptoPermit2WitnessTypes,
    primaryType: 'PermitWitnessTransferFrom',
    message: {
      permitted: { token: getAddress(permit.permitted.token), amount: BigInt(permit.permitted.amount) },
      spender: getAddress(permit.spender),
      nonce: BigInt(permit.nonce),
      deadline: BigInt(permit.deadline),
      witness: { to: getAddress(permit.witness.to), facilitator: getAddress(permit.witness.facilitator), validAfter: BigInt(permit.witness.validAfter) },
    },
    signature: signature as Hex,
  }).catch(() => false);
  expect(valid, `its signature is not ${terms.from}'s over these terms under Permit2 on chain ${chainId}`);
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

const eip2612PermitTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/**
 * Sets the agent's USDC allowance to Permit2 to exactly `value` with an EIP-2612 permit signed by
 * the agent and submitted by the chain's gas payer: `upto` authorisations move money through
 * Permit2, and the allowance is kept at what the agent's open `upto` payments hold, never more.
 * Resolves with the permit's transaction, or null when the allowance already is `value`.
 */
export async function setPermit2AllowanceOnChain(chain: EvmChain, account: LocalAccount, value: bigint): Promise<Hex | null> {
  const { allowance, permitNonce } = await chain.permit2Allowance(account.address);
  if (allowance === value) return null;
  const deadline = BigInt(Math.floor(Date.now() / 1000) + DEFAULT_X402_MAX_VALIDITY_SECONDS);
  const signature = await account.signTypedData({
    domain: await chain.usdcDomain(),
    types: eip2612PermitTypes,
    primaryType: 'Permit',
    message: { owner: account.address, spender: PERMIT2_ADDRESS, value, nonce: permitNonce, deadline },
  });
  return chain.submitPermit2Allowance({ owner: account.address, value, deadline, signature, sender: account });
}
