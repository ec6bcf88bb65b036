import { describe, expect, it } from 'vitest';
import { formatDashboardDate, formatDollars, sumDollars, truncateAddress, truncateDid } from './format';

describe('dashboard formats', () => {
  it('shows money with two decimals and thousands separators', () => {
    expect(formatDollars(1234.5)).toBe('$1,234.50');
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(0.005)).toBe('$0.01');
  });

  it("formats dates as 'MMM d, yyyy at HH:mm' in local time", () => {
    expect(formatDashboardDate(new Date(2025, 9, 8, 7, 5))).toBe('Oct 8, 2025 at 07:05');
    expect(formatDashboardDate(new Date(2025, 0, 18, 23, 59))).toBe('Jan 18, 2025 at 23:59');
    expect(formatDashboardDate('not a date')).toBe('');
  });

  it('keeps the start and the end of a long DID', () => {
    expect(truncateDid('did:agnic:0123456789abcdef0123456789abcdef')).toBe('did:agnic:012345...abcdef');
    expect(truncateDid('did:agnic:short')).toBe('did:agnic:short');
  });

  it('shortens destination addresses to 12 characters', () => {
    expect(truncateAddress('0x1234567890abcdef')).toBe('0x1234567890...');
    expect(truncateAddress('short')).toBe('short');
  });

  it('adds decimal balances exactly', () => {
    expect(sumDollars(['0.1', '0.2'])).toBe(0.3);
    expect(sumDollars(['1000', '0.000001', 'junk'])).toBe(1000.000001);
    expect(sumDollars([])).toBe(0);
  });
});
