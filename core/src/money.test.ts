import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { formatDollars, MAX_AMOUNT_UNITS, parseAmount, toDecimalString } from './money';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('parseAmount', () => {
  it('reads numbers and strings of dollars into atomic units', () => {
    expect(parseAmount(1)).toBe(1_000_000n);
    expect(parseAmount('12.34')).toBe(12_340_000n);
    expect(parseAmount(0.1)).toBe(100_000n);
    expect(parseAmount(0.000001)).toBe(1n);
    expect(parseAmount('  7 ')).toBe(7_000_000n);
  });

  it('reads exponent forms that stay within six decimals', () => {
    expect(parseAmount(1e-6)).toBe(1n);
    expect(parseAmount(1.5e3)).toBe(1_500_000_000n);
  });

  it('refuses more than six decimals, negatives, zero, NaN and Infinity', () => {
    for (const bad of [0.0000001, '1.0000001', -1, '-0.5', 0, '0', Number.NaN, Infinity, -Infinity, '', 'abc', '1e3', '0x10']) {
      expect(codeOf(() => parseAmount(bad)), String(bad)).toBe('INVALID_AMOUNT');
    }
  });

  it('accepts zero only when asked to', () => {
    expect(parseAmount('0', { allowZero: true })).toBe(0n);
  });

  it('refuses amounts above the maximum, one atomic unit over', () => {
    expect(parseAmount(toDecimalString(MAX_AMOUNT_UNITS))).toBe(MAX_AMOUNT_UNITS);
    expect(codeOf(() => parseAmount(toDecimalString(MAX_AMOUNT_UNITS + 1n)))).toBe('INVALID_AMOUNT');
    expect(codeOf(() => parseAmount(1e300))).toBe('INVALID_AMOUNT');
  });
});

describe('formatting', () => {
  it('keeps full precision in decimal strings', () => {
    expect(toDecimalString(1n)).toBe('0.000001');
    expect(toDecimalString(1_500_000n)).toBe('1.5');
    expect(toDecimalString(0n)).toBe('0');
    expect(toDecimalString(-2_000_000n)).toBe('-2');
  });

  it('shows two decimals rounded half away from zero', () => {
    expect(formatDollars(1_234_567n)).toBe('1.23');
    expect(formatDollars(1_235_000n)).toBe('1.24');
    expect(formatDollars(0n)).toBe('0.00');
    expect(formatDollars(-1_005_000n)).toBe('-1.01');
    expect(formatDollars(-1n)).toBe('0.00');
  });
});
