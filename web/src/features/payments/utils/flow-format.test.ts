import { describe, expect, it } from 'vitest';
import { dataSummary, formatDateTime, fullPrecision, humanize, shortHex, signedAmount } from './flow-format';

describe('payment page formats', () => {
  it('keeps every decimal of an amount, and at least two', () => {
    expect(fullPrecision('7.25')).toBe('7.25');
    expect(fullPrecision('100')).toBe('100.00');
    expect(fullPrecision('0.000125')).toBe('0.000125');
    expect(fullPrecision('1234567.5')).toBe('1,234,567.50');
    expect(fullPrecision('-3.100000')).toBe('-3.10');
    expect(fullPrecision('n/a')).toBe('n/a');
  });

  it('signs ledger amounts with a plus or a real minus sign', () => {
    expect(signedAmount('7.25')).toBe('+7.25');
    expect(signedAmount('-7.25')).toBe('−7.25');
    expect(signedAmount('0')).toBe('0.00');
  });

  it('formats times with seconds, and nothing for no time', () => {
    expect(formatDateTime(new Date(2026, 10, 26, 9, 5, 3).toISOString())).toBe('Nov 26, 2026 09:05:03');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('shortens long hashes in the middle', () => {
    expect(shortHex(`0x${'ab'.repeat(32)}`)).toBe('0xababab…ababab');
    expect(shortHex('0x1234')).toBe('0x1234');
  });

  it('sums up audit data in one line', () => {
    expect(dataSummary({ from: 'created', to: 'settled', steps: [1, 2, 3], reason: null })).toBe('from: created, to: settled, steps: 3 items, reason: —');
    expect(dataSummary({})).toBe('—');
    expect(dataSummary({ note: 'x'.repeat(300) }, 40)).toHaveLength(40);
  });

  it('names audit actions and event types in words', () => {
    expect(humanize('payment_intent.workflow_completed')).toBe('Workflow completed');
    expect(humanize('intent.created')).toBe('Intent created');
  });
});
