/**
 * Reading and writing the x402 messages that cross an upstream exchange, in both header
 * generations: v2 puts the requirements base64-JSON in a PAYMENT-REQUIRED header, takes the
 * payment in PAYMENT-SIGNATURE and answers in PAYMENT-RESPONSE; v1 puts the requirements in
 * the 402's JSON body, takes X-PAYMENT and answers in X-PAYMENT-RESPONSE.
 *
 * The base64-JSON codecs and the message schemas are @x402/core's; this module picks the
 * right one, turns failures into AppErrors and offers a version-independent view of a
 * requirement (CAIP-2 network, amount as a bigint).
 */
import { AppError } from '@purser/core';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadSchema, PaymentRequiredSchema, type PaymentRequirementsV1, type PaymentRequirementsV2, type ResourceInfo } from '@x402/core/schemas';
import { z } from 'zod';
import type { EvmNetwork } from '../chain/evm-chain';

export type X402Version = 1 | 2;
export type X402Requirement = PaymentRequirementsV1 | PaymentRequirementsV2;

export interface PaymentRequiredInfo {
  x402Version: X402Version;
  /** The requirements as the upstream sent them: a v2 payment echoes the chosen one back. */
  accepts: X402Requirement[];
  /** v2 only: what is being paid for. */
  resource?: ResourceInfo;
  error?: string;
  extensions?: Record<string, unknown>;
}

/** One requirement, whichever generation it came in. */
export interface RequirementView {
  scheme: string;
  /** CAIP-2 (`eip155:84532`); a v1 name we do not know is left as it is. */
  network: string;
  /** Atomic units of the asset. */
  amount: bigint;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown>;
}

export const MALFORMED_PAYMENT_REQUIRED_MESSAGE = 'The upstream answered 402 without valid x402 payment requirements';

/** The v1 names of the networks we pay on, and their CAIP-2 ids. */
const V1_NETWORKS: Record<string, EvmNetwork> = { 'base-sepolia': 'eip155:84532', base: 'eip155:8453' };

/**
 * The payment requirements of a 402 (null for any other status): the v2 header when there is
 * one, else the v1 body. Throws when a 402 carries neither in a valid form.
 */
export function readPaymentRequired(response: { status: number; headers: Record<string, string>; body: Buffer }): PaymentRequiredInfo | null {
  if (response.status !== 402) return null;
  const header = headerValue(response.headers, 'payment-required');
  let message: unknown;
  try {
    message = header !== undefined ? decodePaymentRequiredHeader(header) : JSON.parse(response.body.toString('utf8'));
  } catch (error) {
    throw new AppError('UPSTREAM_ERROR', MALFORMED_PAYMENT_REQUIRED_MESSAGE, { cause: error });
  }
  const parsed = PaymentRequiredSchema.safeParse(message);
  if (!parsed.success) throw new AppError('UPSTREAM_ERROR', MALFORMED_PAYMENT_REQUIRED_MESSAGE, { details: parsed.error.issues });
  const info = parsed.data;
  return {
    x402Version: info.x402Version,
    // The schema strips fields it does not know; sellers compare the echoed requirement with
    // theirs field by field, so the entries are kept exactly as sent (the schema vouched for them).
    accepts: (message as { accepts: X402Requirement[] }).accepts,
    ...(info.x402Version === 2 ? { resource: info.resource, ...(info.extensions ? { extensions: info.extensions } : {}) } : {}),
    ...(info.error ? { error: info.error } : {}),
  };
}

/**
 * The price of a requirement in atomic units: what the official client signs, v1's
 * `maxAmountRequired` or v2's `amount`. A requirement that names both with different values
 * has two prices, and the one the gate would see might not be the one signed: refused.
 */
export function requirementPrice(requirement: Record<string, unknown>, x402Version: X402Version): bigint {
  const field = x402Version === 1 ? 'maxAmountRequired' : 'amount';
  const other = x402Version === 1 ? 'amount' : 'maxAmountRequired';
  const value = requirement[field];
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new AppError('X402_REFUSED', `The x402 v${x402Version} requirement's ${field} ${JSON.stringify(value)} is not a whole number of atomic units`);
  }
  const second = requirement[other];
  if (second !== undefined && (typeof second !== 'string' || !/^\d+$/.test(second) || BigInt(second) !== BigInt(value))) {
    throw new AppError('X402_REFUSED', `The requirement names two prices (${field} ${value}, ${other} ${JSON.stringify(second)}); nothing was signed`);
  }
  return BigInt(value);
}

export function describeRequirement(requirement: X402Requirement, x402Version: X402Version): RequirementView {
  return {
    scheme: requirement.scheme,
    network: caip2Network(requirement.network, x402Version),
    amount: requirementPrice(requirement as unknown as Record<string, unknown>, x402Version),
    asset: requirement.asset,
    payTo: requirement.payTo,
    maxTimeoutSeconds: requirement.maxTimeoutSeconds,
    extra: requirement.extra ?? {},
  };
}

/**
 * The schemes Purser pays, in the order it prefers them: a fixed price before a maximum, and
 * both before a batch-settlement channel (a deposit held for many calls; x402-channels.ts).
 */
export const PAYABLE_SCHEMES = ['exact', 'upto', 'batch-settlement'] as const;
export type PayableScheme = (typeof PAYABLE_SCHEMES)[number];

/**
 * The requirement we pay: on our network, in our USDC, `exact` when offered (the price is the
 * price), else `upto` (x402 v2 only: a signed maximum the seller settles part of), else
 * `batch-settlement` (x402 v2 only: a channel); null when none is offered.
 */
export function recommendRequirement<R extends X402Requirement>(accepts: R[], x402Version: X402Version, network: EvmNetwork, usdcAddress: string): R | null {
  const payable = (requirement: R, scheme: PayableScheme) =>
    requirement.scheme === scheme &&
    (scheme === 'exact' || x402Version === 2) &&
    caip2Network(requirement.network, x402Version) === network &&
    requirement.asset.toLowerCase() === usdcAddress.toLowerCase();
  for (const scheme of PAYABLE_SCHEMES) {
    const found = accepts.find((requirement) => payable(requirement, scheme));
    if (found) return found;
  }
  return null;
}

export function paymentHeaderName(x402Version: X402Version): 'PAYMENT-SIGNATURE' | 'X-PAYMENT' {
  return x402Version === 2 ? 'PAYMENT-SIGNATURE' : 'X-PAYMENT';
}

export function paymentResponseHeaderName(x402Version: X402Version): 'PAYMENT-RESPONSE' | 'X-PAYMENT-RESPONSE' {
  return x402Version === 2 ? 'PAYMENT-RESPONSE' : 'X-PAYMENT-RESPONSE';
}

const SettleResponseSchema = z.object({
  success: z.boolean(),
  transaction: z.string().optional(),
  network: z.string().optional(),
  payer: z.string().optional(),
  errorReason: z.string().optional(),
});

export interface PaymentResponseInfo {
  success: boolean;
  transaction?: string;
  /** CAIP-2, v1 names mapped. */
  network?: string;
  payer?: string;
  errorReason?: string;
  /** The decoded header, whole. */
  raw: unknown;
}

/**
 * The seller's settlement report (PAYMENT-RESPONSE, or v1's X-PAYMENT-RESPONSE); null when
 * there is none or it cannot be read: the paid answer is still the agent's either way.
 */
export function readPaymentResponse(headers: Record<string, string>): PaymentResponseInfo | null {
  const v2 = headerValue(headers, 'payment-response');
  const value = v2 ?? headerValue(headers, 'x-payment-response');
  if (value === undefined) return null;
  let raw: unknown;
  try {
    raw = decodePaymentResponseHeader(value);
  } catch {
    return null;
  }
  const parsed = SettleResponseSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { success, transaction, network, payer, errorReason } = parsed.data;
  return {
    success,
    // Failed settlements report an empty transaction.
    ...(transaction ? { transaction } : {}),
    ...(network ? { network: caip2Network(network, v2 === undefined ? 1 : 2) } : {}),
    ...(payer ? { payer } : {}),
    ...(errorReason ? { errorReason } : {}),
    raw,
  };
}

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Uint = z.string().regex(/^\d+$/);

/** The `exact` scheme's EIP-3009 payload: a signed transferWithAuthorization. */
const Eip3009PayloadSchema = z.object({
  authorization: z.object({
    from: Address,
    to: Address,
    value: Uint,
    validAfter: Uint,
    validBefore: Uint,
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  }),
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
});

/**
 * The `upto` scheme's Permit2 payload: a signed PermitWitnessTransferFrom that lets the x402 upto
 * proxy move at most `permitted.amount` to `witness.to`, settled by `witness.facilitator` only.
 */
const Permit2PayloadSchema = z.object({
  permit2Authorization: z.object({
    from: Address,
    permitted: z.object({ token: Address, amount: Uint }),
    spender: Address,
    nonce: Uint,
    deadline: Uint,
    witness: z.object({ to: Address, facilitator: Address, validAfter: Uint }),
  }),
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
});

export type Eip3009Payload = z.infer<typeof Eip3009PayloadSchema>;
export type Permit2Payload = z.infer<typeof Permit2PayloadSchema>;

interface DecodedHeaderCommon {
  x402Version: X402Version;
  /** CAIP-2, v1 names mapped. */
  network: string;
  /** v2 only: the requirement the payment answers. */
  accepted?: PaymentRequirementsV2;
}

/** An `exact` payment: an EIP-3009 authorisation of exactly one value. */
export interface ExactPaymentHeader extends DecodedHeaderCommon {
  scheme: 'exact';
  payload: Eip3009Payload;
}

/** An `upto` payment (v2 only): a Permit2 authorisation of at most one value. */
export interface UptoPaymentHeader extends DecodedHeaderCommon {
  scheme: 'upto';
  payload: Permit2Payload;
}

export type DecodedPaymentHeader = ExactPaymentHeader | UptoPaymentHeader;

/**
 * A PAYMENT-SIGNATURE or X-PAYMENT value as we or an official client produce it: an `exact`
 * EIP-3009 authorisation, or an `upto` Permit2 authorisation. Its payer and nonce
 * (`paymentReference`) identify the authorisation on chain.
 */
export function decodePaymentHeader(value: string): DecodedPaymentHeader {
  const malformed = (cause?: unknown) => new AppError('VALIDATION_FAILED', 'The payment header is not a valid x402 payment (exact over EIP-3009, or upto over Permit2)', { cause });
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(value);
  } catch (error) {
    throw malformed(error);
  }
  const message = PaymentPayloadSchema.safeParse(decoded);
  if (!message.success) throw malformed(message.error);
  const info = message.data;
  const scheme = info.x402Version === 1 ? info.scheme : info.accepted.scheme;
  const common: DecodedHeaderCommon =
    info.x402Version === 1 ? { x402Version: 1, network: caip2Network(info.network, 1) } : { x402Version: 2, network: info.accepted.network, accepted: info.accepted };
  if (scheme === 'upto' && info.x402Version === 2) {
    const payload = Permit2PayloadSchema.safeParse(info.payload);
    if (!payload.success) throw malformed(payload.error);
    return { ...common, scheme: 'upto', payload: payload.data };
  }
  const payload = Eip3009PayloadSchema.safeParse(info.payload);
  if (!payload.success || scheme !== 'exact') throw malformed(payload.error);
  return { ...common, scheme: 'exact', payload: payload.data };
}

/** What identifies a payment's authorisation on chain: the EIP-3009 nonce, or the Permit2 nonce. */
export function paymentReference(decoded: DecodedPaymentHeader): string {
  return decoded.scheme === 'upto' ? decoded.payload.permit2Authorization.nonce : decoded.payload.authorization.nonce;
}

/** The payer an authorisation names. */
export function paymentPayer(decoded: DecodedPaymentHeader): string {
  return decoded.scheme === 'upto' ? decoded.payload.permit2Authorization.from : decoded.payload.authorization.from;
}

function caip2Network(network: string, x402Version: X402Version): string {
  return x402Version === 1 ? (V1_NETWORKS[network] ?? network) : network;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** An `exact` header's EIP-3009 payload; throws for another scheme. */
export function exactPayload(decoded: DecodedPaymentHeader): Eip3009Payload {
  if (decoded.scheme !== 'exact') throw new AppError('VALIDATION_FAILED', `The payment header is an "${decoded.scheme}" payment, not an "exact" one`);
  return decoded.payload;
}
