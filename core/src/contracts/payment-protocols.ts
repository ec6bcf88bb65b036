/**
 * The wire protocols a paid call is paid in: x402 (PAYMENT-REQUIRED / PAYMENT-SIGNATURE /
 * PAYMENT-RESPONSE) and MPP, the Machine Payments Protocol (`WWW-Authenticate: Payment` /
 * `Authorization: Payment` / `Payment-Receipt`). Each is a folder of the server's paid-calls room.
 */
export const PAYMENT_PROTOCOLS = ['x402', 'mpp'] as const;
export type PaymentProtocol = (typeof PAYMENT_PROTOCOLS)[number];
