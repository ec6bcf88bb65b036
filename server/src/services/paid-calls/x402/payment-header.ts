/**
 * The buyer's side: the payment header Purser signs and sends (v2 PAYMENT-SIGNATURE, v1
 * X-PAYMENT), decoded into what each scheme checks. This is the one place that reads a header's
 * payload by its scheme: an `exact` EIP-3009 authorisation or an `upto` Permit2 authorisation
 * (a channel's vouchers are read by schemes/batch-settlement/).
 */
import { AppError, type PaymentProtocol } from '@purser/core';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadSchema, type PaymentRequirementsV2 } from '@x402/core/schemas';
import { z } from 'zod';
import { decodeChargeCredential, isMppCredential, MPP_CREDENTIAL_HEADER } from '../mpp/payment-credential';
import { caip2Network, type X402Version } from './payment-required';

export function paymentHeaderName(x402Version: X402Version): 'PAYMENT-SIGNATURE' | 'X-PAYMENT' {
  return x402Version === 2 ? 'PAYMENT-SIGNATURE' : 'X-PAYMENT';
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
  /** The wire it travels in: an x402 payment header, or an MPP credential (an `exact` EIP-3009 authorisation either way). */
  protocol: PaymentProtocol;
  x402Version: X402Version;
  /** CAIP-2, v1 names mapped. */
  network: string;
  /** v2 only: the requirement the payment answers (for MPP, the challenge's request read as one). */
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
  if (isMppCredential(value)) return decodeMppCharge(value);
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
    info.x402Version === 1
      ? { protocol: 'x402', x402Version: 1, network: caip2Network(info.network, 1) }
      : { protocol: 'x402', x402Version: 2, network: info.accepted.network, accepted: info.accepted };
  if (scheme === 'upto' && info.x402Version === 2) {
    const payload = Permit2PayloadSchema.safeParse(info.payload);
    if (!payload.success) throw malformed(payload.error);
    return { ...common, scheme: 'upto', payload: payload.data };
  }
  const payload = Eip3009PayloadSchema.safeParse(info.payload);
  if (!payload.success || scheme !== 'exact') throw malformed(payload.error);
  return { ...common, scheme: 'exact', payload: payload.data };
}

/**
 * An MPP EVM charge credential (mpp/payment-credential.ts) as an `exact` payment: the same
 * EIP-3009 authorisation, answering the challenge's request (its amount, recipient, currency and
 * chain are what `accepted` says, and are checked against the price like an x402 v2 echo).
 */
function decodeMppCharge(value: string): ExactPaymentHeader {
  const { chainId, request, authorization, signature } = decodeChargeCredential(value);
  const network = `eip155:${chainId}`;
  const accepted = { scheme: 'exact', network, asset: request.currency, payTo: request.recipient, amount: request.amount, maxTimeoutSeconds: 0, extra: {} } as PaymentRequirementsV2;
  return { protocol: 'mpp', x402Version: 2, network, accepted, scheme: 'exact', payload: { authorization, signature } };
}

/** The header a decoded payment is sent in: x402's by version, MPP's `Authorization`. */
export function headerNameOf(decoded: Pick<DecodedPaymentHeader, 'protocol' | 'x402Version'>): string {
  return decoded.protocol === 'mpp' ? MPP_CREDENTIAL_HEADER : paymentHeaderName(decoded.x402Version);
}

/** What identifies a payment's authorisation on chain: the EIP-3009 nonce, or the Permit2 nonce. */
export function paymentReference(decoded: DecodedPaymentHeader): string {
  return decoded.scheme === 'upto' ? decoded.payload.permit2Authorization.nonce : decoded.payload.authorization.nonce;
}

/** The payer an authorisation names. */
export function paymentPayer(decoded: DecodedPaymentHeader): string {
  return decoded.scheme === 'upto' ? decoded.payload.permit2Authorization.from : decoded.payload.authorization.from;
}

/** An `exact` header's EIP-3009 payload; throws for another scheme. */
export function exactPayload(decoded: DecodedPaymentHeader): Eip3009Payload {
  if (decoded.scheme !== 'exact') throw new AppError('VALIDATION_FAILED', `The payment header is an "${decoded.scheme}" payment, not an "exact" one`);
  return decoded.payload;
}

/** An `upto` header's Permit2 payload; throws for another scheme. */
export function uptoPayload(decoded: DecodedPaymentHeader): Permit2Payload {
  if (decoded.scheme !== 'upto') throw new AppError('VALIDATION_FAILED', `The payment header is an "${decoded.scheme}" payment, not an "upto" one`);
  return decoded.payload;
}
