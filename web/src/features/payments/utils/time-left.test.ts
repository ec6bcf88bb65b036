import { describe, expect, it } from 'vitest';
import { durationText, timeLeft } from './time-left';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('timeLeft', () => {
  it('says "expires in 23 h 59 min" a minute after a 24 hour approval window opened', () => {
    expect(timeLeft(at(24 * 3_600_000 - 60_000), NOW)).toMatchObject({ label: 'expires in 23 h 59 min', expired: false, urgent: false });
  });

  it('floors every unit, so it never promises more time than is left', () => {
    expect(timeLeft(at(2 * 3_600_000 - 1), NOW).label).toBe('expires in 1 h 59 min');
    expect(timeLeft(at(119_999), NOW).label).toBe('expires in 1 min');
    expect(timeLeft(at(59_999), NOW).label).toBe('expires in 59 s');
  });

  it('marks the last hour as urgent', () => {
    expect(timeLeft(at(3_600_000), NOW).urgent).toBe(false);
    expect(timeLeft(at(3_599_999), NOW).urgent).toBe(true);
  });

  it('reads "expired" at and after the deadline, and for an unreadable date', () => {
    expect(timeLeft(at(0), NOW)).toMatchObject({ label: 'expired', expired: true, changesIn: 0 });
    expect(timeLeft(at(-5_000), NOW).expired).toBe(true);
    expect(timeLeft('not a date', NOW).expired).toBe(true);
  });

  it('says when the label next changes: the next whole minute, or second in the last minute', () => {
    expect(timeLeft(at(5 * 60_000 + 1_500), NOW).changesIn).toBe(1_500);
    expect(timeLeft(at(5 * 60_000), NOW).changesIn).toBe(60_000);
    expect(timeLeft(at(42_250), NOW).changesIn).toBe(250);
  });
});

describe('durationText', () => {
  it('shows days and hours beyond a day, and leaves out a zero second unit', () => {
    expect(durationText(25 * 3_600_000)).toBe('1 d 1 h');
    expect(durationText(48 * 3_600_000)).toBe('2 d');
    expect(durationText(3 * 3_600_000)).toBe('3 h');
  });
});
