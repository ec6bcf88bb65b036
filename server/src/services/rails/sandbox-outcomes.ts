/**
 * The sandbox simulators' outcomes (card, bank, Solana): a refusal chosen by a test amount's
 * cents, or named by `metadata.sandbox_outcome`, decided from the payment alone.
 */
import type { RailName } from '@purser/core';

/** A sandbox simulator's refusal (a card decline, a bank return), chosen by test amounts' cents. */
export interface SandboxRefusal {
  /** Payments whose amount ends in these cents are refused with this code. */
  cents: number;
  code: string;
  message: string;
}

/**
 * The refusal a simulator answers for a payment: the one `metadata.sandbox_outcome` names, else
 * the one its amount's cents pick, else null (it goes through). Decided from the payment alone,
 * so a restarted worker reaches the same answer.
 */
export function sandboxRefusalFor<T extends SandboxRefusal>(
  payment: { amount: bigint; metadata: unknown },
  refusals: readonly T[],
  outcomes: readonly string[],
  rail: RailName,
): T | null {
  const { outcome } = sandboxOutcomeOf(payment.metadata, outcomes, rail);
  if (outcome) return refusals.find((refusal) => refusal.code === outcome) ?? null;
  return refusals.find((refusal) => refusal.cents === centsOf(payment.amount)) ?? null;
}

/** The amount's cents (0-99): the sandbox simulators' test amounts end in particular cents. */
export function centsOf(amount: bigint): number {
  return Number((amount / 10_000n) % 100n);
}

/**
 * `metadata.sandbox_outcome`, the simulators' explicit switch: undefined when absent, an
 * error message when present but not one of `allowed`.
 */
export function sandboxOutcomeOf<T extends string>(
  metadata: unknown,
  allowed: readonly T[],
  rail: RailName,
): { outcome?: T; error?: string } {
  const value = (metadata as Record<string, unknown> | null | undefined)?.sandbox_outcome;
  if (value === undefined || value === null) return {};
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return { outcome: value as T };
  return { error: `metadata.sandbox_outcome ${JSON.stringify(value)} is not a ${rail} sandbox outcome; use one of ${allowed.join(', ')}` };
}
