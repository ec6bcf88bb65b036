/**
 * The wire protocols a paid call is paid in: x402 (PAYMENT-REQUIRED / PAYMENT-SIGNATURE /
 * PAYMENT-RESPONSE) and MPP, the Machine Payments Protocol (`WWW-Authenticate: Payment` /
 * `Authorization: Payment` / `Payment-Receipt`). Each is a folder of the server's paid-calls room.
 * Below: what the agent and the owner are shown of MPP's three messages (here, beneath both the
 * agent API's and the payment detail's contracts, which each import them).
 */
import { z } from 'zod';

export const PAYMENT_PROTOCOLS = ['x402', 'mpp'] as const;
export type PaymentProtocol = (typeof PAYMENT_PROTOCOLS)[number];

/** An MPP seller's Payment-Receipt as it was sent, and what the chain says of the transaction it names. */
export const mppReceiptView = z.object({
  method: z.string(),
  status: z.string(),
  /** The transaction the seller says settled the payment. */
  reference: z.string(),
  timestamp: z.string(),
  /** True when one read of that transaction shows it used this payment's authorisation. */
  confirmed: z.boolean(),
});
export type MppReceiptView = z.infer<typeof mppReceiptView>;

/** The seller's `WWW-Authenticate: Payment` challenge a payment answered, as kept with the payment. */
export const mppChallengeView = z.object({
  /** The seller's own id of the challenge (its HMAC over the rest). */
  id: z.string(),
  realm: z.string(),
  /** The payment method, e.g. `evm`. */
  method: z.string(),
  /** What the method is asked to do, e.g. `charge`. */
  intent: z.string(),
  /** When the challenge stops being answerable (ISO 8601); null when it named no end. */
  expires: z.string().nullable(),
  /** What it asks for. */
  request: z.object({
    /** Decimal dollars, full precision (the seller sends atomic units of a 6-decimal token). */
    amount: z.string(),
    /** The token's contract address. */
    currency: z.string(),
    recipient: z.string(),
    chainId: z.number(),
    description: z.string().nullable(),
  }),
});
export type MppChallengeView = z.infer<typeof mppChallengeView>;

/**
 * The `Authorization: Payment` credential a payment sent, decoded: the challenge it answers and
 * the EIP-3009 authorisation it carries (the same terms as the rail's `authorization`). Never the
 * signature.
 */
export const mppCredentialView = z.object({
  /** The id of the challenge the credential echoes. */
  challengeId: z.string(),
  from: z.string(),
  to: z.string(),
  /** Decimal dollars, full precision. */
  value: z.string(),
  validAfter: z.string(),
  validBefore: z.string(),
  /** Bound to the challenge (a hash of its id and realm): one authorisation per challenge. */
  nonce: z.string(),
});
export type MppCredentialView = z.infer<typeof mppCredentialView>;

/** An MPP payment's three messages as the owner's payment page shows them; null parts are unreadable or not there yet. */
export const mppPaymentView = z.object({
  challenge: mppChallengeView.nullable(),
  credential: mppCredentialView.nullable(),
  /** The seller's Payment-Receipt, kept once the paid call answered; null until then or when it sent none. */
  receipt: mppReceiptView.nullable(),
});
export type MppPaymentView = z.infer<typeof mppPaymentView>;
