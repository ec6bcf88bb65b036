/**
 * Money in atomic units: 6 decimals for USDC and USDT (1 USDC = 1_000_000n).
 * APIs take dollars as numbers or strings; everything past parsing is a bigint.
 */
import { AppError } from './errors';

export const CURRENCIES = ['USDC', 'USDT'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const DECIMALS = 6;
export const UNITS_PER_DOLLAR = 1_000_000n;

/** Largest amount accepted anywhere: one trillion dollars, far above any real payment. */
export const MAX_AMOUNT_UNITS = 1_000_000_000_000n * UNITS_PER_DOLLAR;

const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/;

function invalid(message: string): AppError {
  return new AppError('INVALID_AMOUNT', message);
}

/**
 * Parses a dollar amount into atomic units. Numbers are read through their shortest
 * decimal representation (what JSON carries), so 0.1 is exactly 100_000 units.
 */
export function parseAmount(input: number | string, options: { allowZero?: boolean } = {}): bigint {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw invalid('Amount must be a finite number');
    text = numberToPlainDecimal(input);
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    throw invalid('Amount must be a number or a decimal string');
  }

  if (text.startsWith('-')) throw invalid('Amount must not be negative');
  const match = DECIMAL_PATTERN.exec(text.startsWith('+') ? text.slice(1) : text);
  if (!match) throw invalid('Amount must be a decimal number of dollars');

  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > DECIMALS) throw invalid(`Amount must have at most ${DECIMALS} decimals`);

  const units = BigInt(whole) * UNITS_PER_DOLLAR + BigInt(fraction.padEnd(DECIMALS, '0') || '0');
  if (units > MAX_AMOUNT_UNITS) throw invalid('Amount is too large');
  if (units === 0n && !options.allowZero) throw invalid('Amount must be greater than zero');
  return units;
}

/** Exponent forms (1e-7, 1e21) become plain decimals so the pattern above can judge them. */
function numberToPlainDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa = '', exponentText = '0'] = text.toLowerCase().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '');
  const [intPart = '', fracPart = ''] = digits.split('.');
  const all = intPart + fracPart;
  const point = intPart.length + exponent;
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${all}`;
  else if (point >= all.length) plain = all + '0'.repeat(point - all.length);
  else plain = `${all.slice(0, point)}.${all.slice(point)}`;
  return negative ? `-${plain}` : plain;
}

/** Full-precision decimal string, e.g. 1_500_000n -> "1.5", 1n -> "0.000001". */
export function toDecimalString(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNITS_PER_DOLLAR;
  const fraction = (abs % UNITS_PER_DOLLAR).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Dollars as a JSON number for the spec's response fields. Exact for any amount below
 * 2^53 atomic units (about 9 billion dollars); the *_exact decimal strings carry the rest.
 */
export function toDollars(units: bigint): number {
  return Number(toDecimalString(units));
}

/** Display form with two decimals, rounded half away from zero: 1_234_567n -> "1.23". */
export function formatDollars(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const cents = (abs + 5_000n) / 10_000n;
  const text = `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
  return negative && cents !== 0n ? `-${text}` : text;
}
