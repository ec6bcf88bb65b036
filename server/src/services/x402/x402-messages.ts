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

/** The requirement we can pay: the `exact` scheme on our network, in our USDC; null when none is offered. */
export function recommendRequirement<R extends X402Requirement>(accepts: R[], x402Version: X402Version, network: EvmNetwork, usdcAddress: string): R | null {
  return (
    accepts.find(
      (requirement) =>
        requirement.scheme === 'exact' &&
        caip2Network(requirement.network, x402Version) === network &&
        requirement.asset.toLowerCase() === usdcAddress.toLowerCase(),
    ) ?? null
  );
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

export interface DecodedPaymentHeader {
  x402Version: X402Version;
  scheme: string;
  /** CAIP-2, v1 names mapped. */
  network: string;
  /** v2 only: the requirement the payment answers. */
  accepted?: PaymentRequirementsV2;
  payload: z.infer<typeof Eip3009PayloadSchema>;
}

/**
 * A PAYMENT-SIGNATURE or X-PAYMENT value carrying an EIP-3009 authorisation, as we or an
 * official client produce it; its `from` and `nonce` identify the authorisation on chain.
 */
export function decodePaymentHeader(value: string): DecodedPaymentHeader {
  const malformed = (cause?: unknown) => new AppError('VALIDATION_FAILED', 'The payment header is not a valid x402 EIP-3009 payment', { cause });
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(value);
  } catch (error) {
    throw malformed(error);
  }
  const message = PaymentPayloadSchema.safeParse(decoded);
  if (!message.success) throw malformed(message.error);
  const payload = Eip3009PayloadSchema.safeParse(message.data.payload);
  if (!payload.success) throw malformed(payload.error);
  const info = message.data;
  if (info.x402Version === 1) return { x402Version: 1, scheme: info.scheme, network: caip2Network(info.network, 1), payload: payload.data };
  return { x402Version: 2, scheme: info.accepted.scheme, network: info.accepted.network, accepted: info.accepted, payload: payload.data };
}

function caip2Network(network: string, x402Version: X402Version): string {
  return x402Version === 1 ? (V1_NETWORKS[network] ?? network) : network;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}
