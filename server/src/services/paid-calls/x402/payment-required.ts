/**
 * The seller's side of an x402 exchange, in both header generations: v2 puts the requirements
 * base64-JSON in a PAYMENT-REQUIRED header, v1 in the 402's JSON body. The codecs and message
 * schemas are @x402/core's; this module picks the right one, turns failures into AppErrors and
 * offers a version-independent view of a requirement (CAIP-2 network, amount as a bigint).
 */
import { AppError } from '@purser/core';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { PaymentRequiredSchema, PaymentRequiredV2Schema, type PaymentRequirementsV1, type PaymentRequirementsV2, type ResourceInfo } from '@x402/core/schemas';
import type { EvmNetwork } from '../../chain/evm-chain';
import { readSignInChallenge } from './sign-in-with-x';

export type X402Version = 1 | 2;
export type X402Requirement = PaymentRequirementsV1 | PaymentRequirementsV2;

export interface PaymentRequiredInfo {
  x402Version: X402Version;
  /**
   * The requirements as the upstream sent them: a v2 payment echoes the chosen one back. Empty
   * only for a v2 auth-only challenge (the 402 asks the agent to sign in: sign-in-with-x.ts).
   */
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

/**
 * x402 v2's auth-only challenge: a 402 that asks the buyer to sign in and offers nothing to pay,
 * which @x402/core's schema (at least one requirement) does not read. Only with a sign-in
 * challenge: a 402 that asks for nothing at all is still malformed.
 */
const SignInOnlySchema = PaymentRequiredV2Schema.extend({ accepts: PaymentRequiredV2Schema.shape.accepts.element.array().length(0) });

function isSignInOnly(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { x402Version, accepts, extensions } = message as { x402Version?: unknown; accepts?: unknown; extensions?: unknown };
  const declared = typeof extensions === 'object' && extensions !== null ? (extensions as Record<string, unknown>) : undefined;
  return x402Version === 2 && Array.isArray(accepts) && accepts.length === 0 && readSignInChallenge(declared) !== null;
}

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
  const parsed = isSignInOnly(message) ? SignInOnlySchema.safeParse(message) : PaymentRequiredSchema.safeParse(message);
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

/** A network as CAIP-2: v1 names the networks we pay on by name. */
export function caip2Network(network: string, x402Version: X402Version): string {
  return x402Version === 1 ? (V1_NETWORKS[network] ?? network) : network;
}

/** A header's value, whatever the case of its name. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}
