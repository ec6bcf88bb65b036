import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DAILY_LIMIT, DEFAULT_MAX_TRANSACTION_AMOUNT, KYA_TIER_NAMES } from './contracts/agents';
import {
  compareTiers,
  eidasLevel,
  isKyaTier,
  KYA_TIER_CAPS,
  kyaTierSchema,
  lowestTierFor,
  nextTier,
  tierAtLeast,
  tierCaps,
  type KyaTier,
} from './kya';
import { parseAmount, toDecimalString } from './money';

const $ = (dollars: number | string): bigint => parseAmount(dollars);

describe('KYA tiers', () => {
  it('rank pseudonymous below basic below moderate below high', () => {
    expect(KYA_TIER_NAMES).toEqual(['pseudonymous', 'basic', 'moderate', 'high']);
    expect(compareTiers('pseudonymous', 'basic')).toBe(-1);
    expect(compareTiers('high', 'moderate')).toBe(1);
    expect(compareTiers('basic', 'basic')).toBe(0);
    expect(['high', 'pseudonymous', 'moderate', 'basic'].sort((a, b) => compareTiers(a as KyaTier, b as KyaTier))).toEqual([...KYA_TIER_NAMES]);
  });

  it('tell whether a tier is at least another', () => {
    expect(tierAtLeast('moderate', 'basic')).toBe(true);
    expect(tierAtLeast('moderate', 'moderate')).toBe(true);
    expect(tierAtLeast('basic', 'moderate')).toBe(false);
  });

  it('step up one tier at a time and stop at high', () => {
    expect(nextTier('pseudonymous')).toBe('basic');
    expect(nextTier('basic')).toBe('moderate');
    expect(nextTier('moderate')).toBe('high');
    expect(nextTier('high')).toBeNull();
  });

  it('map onto the eIDAS levels of assurance none, low, substantial and high', () => {
    expect(KYA_TIER_NAMES.map(eidasLevel)).toEqual(['none', 'low', 'substantial', 'high']);
  });

  it('refuse names that are not tiers instead of ranking them lowest', () => {
    expect(() => compareTiers('ultra' as KyaTier, 'basic')).toThrow(/Unknown KYA tier/);
    expect(() => tierCaps('toString' as KyaTier)).toThrow(/Unknown KYA tier/);
    expect(() => eidasLevel('ultra' as KyaTier)).toThrow(/Unknown KYA tier/);
    expect(isKyaTier('moderate')).toBe(true);
    expect(isKyaTier('Moderate')).toBe(false);
    expect(isKyaTier(2)).toBe(false);
    const result = kyaTierSchema.safeParse('ultra');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('KYA tier must be one of pseudonymous, basic, moderate, high');
  });
});

describe('KYA tier caps', () => {
  it('are $10/$100, $100/$1,000, $1,000/$10,000 and $10,000/$100,000 per transaction and per day', () => {
    const table = KYA_TIER_NAMES.map((tier) => [tier, toDecimalString(KYA_TIER_CAPS[tier].perTransaction), toDecimalString(tierCaps(tier).perDay)]);
    expect(table).toEqual([
      ['pseudonymous', '10', '100'],
      ['basic', '100', '1000'],
      ['moderate', '1000', '10000'],
      ['high', '10000', '100000'],
    ]);
  });

  it('of the basic tier, where new agents start, are exactly the spec default spending rules', () => {
    expect(KYA_TIER_CAPS.basic.perTransaction).toBe($(DEFAULT_MAX_TRANSACTION_AMOUNT));
    expect(KYA_TIER_CAPS.basic.perDay).toBe($(DEFAULT_MAX_DAILY_LIMIT));
  });

  it('grow tenfold with every tier, and a day holds ten payments at the cap', () => {
    for (const tier of KYA_TIER_NAMES) expect(KYA_TIER_CAPS[tier].perDay).toBe(10n * KYA_TIER_CAPS[tier].perTransaction);
    for (let i = 1; i < KYA_TIER_NAMES.length; i++) {
      const lower = KYA_TIER_CAPS[KYA_TIER_NAMES[i - 1] as KyaTier];
      const higher = KYA_TIER_CAPS[KYA_TIER_NAMES[i] as KyaTier];
      expect(higher.perTransaction).toBe(10n * lower.perTransaction);
      expect(higher.perDay).toBe(10n * lower.perDay);
    }
  });

  it('name the lowest tier that covers a payment, exactly at a cap and one atomic unit over', () => {
    expect(lowestTierFor($(10), 0n)).toBe('pseudonymous');
    expect(lowestTierFor($(10) + 1n, 0n)).toBe('basic');
    expect(lowestTierFor($(5), $(95))).toBe('pseudonymous');
    expect(lowestTierFor($(5), $(95) + 1n)).toBe('basic');
    expect(lowestTierFor($(100), $(900))).toBe('basic');
    expect(lowestTierFor($(100), $(900) + 1n)).toBe('moderate');
    expect(lowestTierFor($(10_000), $(90_000))).toBe('high');
    expect(lowestTierFor($(10_000) + 1n, 0n)).toBeNull();
    expect(lowestTierFor($(1), $(100_000))).toBeNull();
  });
});
