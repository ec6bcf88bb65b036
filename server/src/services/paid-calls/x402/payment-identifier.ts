/**
 * x402 v2's payment-identifier extension: the seller's declaration echoed as it was (sellers
 * check the echo) with the payment's identifier added, so a call repeated with the same
 * Idempotency-Key carries the same identifier and the seller recognises it as one payment.
 */
import { createHash } from 'node:crypto';
import { appendPaymentIdentifierToExtensions, declarePaymentIdentifierExtension, isPaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';

/**
 * The x402 payment-identifier of an agent's payment: derived from the agent and the
 * Idempotency-Key the payment was made with. Hashed: the key itself is the agent's and never
 * leaves Purser.
 */
export function paymentIdentifierFor(agentId: string, idempotencyKey: string): string {
  return `pay_${createHash('sha256').update(`${agentId}\n${idempotencyKey}`).digest('hex').slice(0, 40)}`;
}

/** The extensions a payment sends: the seller's declaration (or a fresh one) with `id` appended. */
export function paymentIdentifierExtension(id: string, declared: unknown): Record<string, unknown> {
  const declaration = isPaymentIdentifierExtension(declared) ? structuredClone(declared) : declarePaymentIdentifierExtension(false);
  return appendPaymentIdentifierToExtensions({ [PAYMENT_IDENTIFIER]: declaration }, id);
}

/** The seller's declaration kept with an intent's metadata, if any. */
export function declaredPaymentIdentifier(extensions: Record<string, unknown> | undefined): unknown {
  return extensions?.[PAYMENT_IDENTIFIER];
}
