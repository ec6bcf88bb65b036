/**
 * The requirement as an official x402 client is handed it to sign: the seller's requirement with
 * Purser's window (never longer than the deployment allows) and the token's own EIP-712 domain
 * (not the seller's claim of it). The echo sent back to the seller stays the requirement as
 * offered: the seller matches it field by field, and the signature does not cover it.
 */
import type { PaymentRequirements } from '@x402/core/types';

export function requirementAsSigned(requirement: Record<string, unknown>, validitySeconds: number, domain: { name: string; version: string }): PaymentRequirements {
  return {
    ...requirement,
    maxTimeoutSeconds: validitySeconds,
    extra: { ...((requirement.extra ?? {}) as Record<string, unknown>), name: domain.name, version: domain.version },
  } as unknown as PaymentRequirements;
}
