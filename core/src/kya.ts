/**
 * Know-Your-Agent tiers: how much is known about who stands behind an agent, and so how
 * much the policy gate lets that agent move on its own. The tiers are progressive and map
 * onto the eIDAS levels of assurance (Regulation (EU) No 910/2014, article 8), with
 * pseudonymous below the lowest eIDAS level.
 *
 * | tier         | eIDAS level | per transaction | per day (rolling 24 h) |
 * |--------------|-------------|-----------------|------------------------|
 * | pseudonymous | none        | $10             | $100                   |
 * | basic        | low         | $100            | $1,000                 |
 * | moderate     | substantial | $1,000          | $10,000                |
 * | high         | high        | $10,000         | $100,000               |
 *
 * Each step multiplies the caps by ten; a day holds ten transactions at the cap. New agents
 * start at basic, whose caps are exactly the spec's default spending rules ($100 / $1,000).
 * The caps are a ceiling on top of the agent's own spending rules, never a replacement for them.
 */
import { z } from 'zod';
import { KYA_TIER_NAMES } from './contracts/agents';
import { UNITS_PER_DOLLAR } from './money';

export type KyaTier = (typeof KYA_TIER_NAMES)[number];

/** eIDAS levels of assurance, lowest first; `none` is below eIDAS's own `low`. */
export const EIDAS_LEVELS = ['none', 'low', 'substantial', 'high'] as const;
export type EidasLevel = (typeof EIDAS_LEVELS)[number];

export const KYA_TIER_EIDAS_LEVELS: Readonly<Record<KyaTier, EidasLevel>> = {
  pseudonymous: 'none',
  basic: 'low',
  moderate: 'substantial',
  high: 'high',
};

export interface KyaTierCaps {
  /** Largest single payment, atomic units. */
  perTransaction: bigint;
  /** Largest total over the rolling 24 hours before a payment, the payment included, atomic units. */
  perDay: bigint;
}

export const KYA_TIER_CAPS: Readonly<Record<KyaTier, Readonly<KyaTierCaps>>> = {
  pseudonymous: { perTransaction: 10n * UNITS_PER_DOLLAR, perDay: 100n * UNITS_PER_DOLLAR },
  basic: { perTransaction: 100n * UNITS_PER_DOLLAR, perDay: 1_000n * UNITS_PER_DOLLAR },
  moderate: { perTransaction: 1_000n * UNITS_PER_DOLLAR, perDay: 10_000n * UNITS_PER_DOLLAR },
  high: { perTransaction: 10_000n * UNITS_PER_DOLLAR, perDay: 100_000n * UNITS_PER_DOLLAR },
};

export const KYA_TIER_MESSAGE = `KYA tier must be one of ${KYA_TIER_NAMES.join(', ')}`;

export const kyaTierSchema = z.enum(KYA_TIER_NAMES, { error: KYA_TIER_MESSAGE });

export function isKyaTier(value: unknown): value is KyaTier {
  return typeof value === 'string' && (KYA_TIER_NAMES as readonly string[]).includes(value);
}

/** Types keep unknown tiers out; one read from untyped JSON must still fail loudly, not rank lowest. */
function rank(tier: KyaTier): number {
  const index = KYA_TIER_NAMES.indexOf(tier);
  if (index < 0) throw new Error(`Unknown KYA tier: ${String(tier)}`);
  return index;
}

function assertTier(tier: KyaTier): void {
  rank(tier);
}

/** Negative when `a` is below `b`, zero when equal, positive when above (a sort comparator). */
export function compareTiers(a: KyaTier, b: KyaTier): number {
  return Math.sign(rank(a) - rank(b));
}

export function tierAtLeast(tier: KyaTier, minimum: KyaTier): boolean {
  return rank(tier) >= rank(minimum);
}

/** The tier above, or null at the top. */
export function nextTier(tier: KyaTier): KyaTier | null {
  return KYA_TIER_NAMES[rank(tier) + 1] ?? null;
}

export function eidasLevel(tier: KyaTier): EidasLevel {
  assertTier(tier);
  return KYA_TIER_EIDAS_LEVELS[tier];
}

export function tierCaps(tier: KyaTier): Readonly<KyaTierCaps> {
  assertTier(tier);
  return KYA_TIER_CAPS[tier];
}

/**
 * The lowest tier whose caps admit a payment of `amount` after `spentInWindow` in the
 * rolling 24 hours, or null when even the highest tier's caps are too small.
 */
export function lowestTierFor(amount: bigint, spentInWindow: bigint): KyaTier | null {
  for (const tier of KYA_TIER_NAMES) {
    const caps = KYA_TIER_CAPS[tier];
    if (amount <= caps.perTransaction && spentInWindow + amount <= caps.perDay) return tier;
  }
  return null;
}
