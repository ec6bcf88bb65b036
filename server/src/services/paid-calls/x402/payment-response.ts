/**
 * The seller's settlement report after a paid call: v2's PAYMENT-RESPONSE, v1's
 * X-PAYMENT-RESPONSE (base64 JSON, @x402/core's codec).
 */
import { decodePaymentResponseHeader } from '@x402/core/http';
import { z } from 'zod';
import { caip2Network, headerValue, type X402Version } from './payment-required';

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
