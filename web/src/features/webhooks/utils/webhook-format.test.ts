import { describe, expect, it } from 'vitest';
import { deliveryStatusLabel, formatDate, formatDateTime, formatLatency, formatShortDateTime, formatStatusCode } from './webhook-format';

describe('formatDateTime', () => {
  it('writes a moment with seconds in the viewer’s time zone', () => {
    const at = new Date(2026, 10, 26, 9, 5, 3);
    expect(formatDateTime(at.toISOString())).toBe('Nov 26, 2026, 09:05:03');
  });

  it('writes a dash for no time or an unreadable one', () => {
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });
});

describe('formatShortDateTime', () => {
  const now = new Date(2026, 10, 26, 12, 0, 0);

  it('leaves out this year, and writes any other', () => {
    expect(formatShortDateTime(new Date(2026, 0, 5, 8, 7, 6).toISOString(), now)).toBe('Jan 5, 08:07:06');
    expect(formatShortDateTime(new Date(2025, 11, 31, 23, 59, 59).toISOString(), now)).toBe('Dec 31, 2025, 23:59:59');
    expect(formatShortDateTime(null, now)).toBe('—');
  });
});

describe('formatDate', () => {
  it('writes the day alone', () => {
    expect(formatDate(new Date(2026, 0, 2, 23, 59).toISOString())).toBe('Jan 2, 2026');
  });
});

describe('formatLatency', () => {
  it('writes milliseconds under a second and seconds with two decimals above', () => {
    expect(formatLatency(85)).toBe('85 ms');
    expect(formatLatency(999.6)).toBe('1000 ms');
    expect(formatLatency(1234)).toBe('1.23 s');
  });

  it('writes a dash when nothing was timed', () => {
    expect(formatLatency(null)).toBe('—');
    expect(formatLatency(undefined)).toBe('—');
  });
});

describe('formatStatusCode', () => {
  it('writes the code, or a dash when no answer came', () => {
    expect(formatStatusCode(204)).toBe('204');
    expect(formatStatusCode(null)).toBe('—');
  });
});

describe('deliveryStatusLabel', () => {
  it('names a delivery’s state, a pending one that failed before as being retried', () => {
    expect(deliveryStatusLabel({ status: 'succeeded', attempts: 1 })).toBe('Delivered');
    expect(deliveryStatusLabel({ status: 'failed', attempts: 8 })).toBe('Failed');
    expect(deliveryStatusLabel({ status: 'pending', attempts: 0 })).toBe('Pending');
    expect(deliveryStatusLabel({ status: 'pending', attempts: 2 })).toBe('Retrying');
  });
});
