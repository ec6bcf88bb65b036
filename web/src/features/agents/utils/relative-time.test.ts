import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const NOW = Date.parse('2026-12-06T10:00:00.000Z');
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();

describe('relativeTime', () => {
  it('says the past and the future in the largest unit that fits', () => {
    expect(relativeTime(at(-3 * 60 - 20), NOW)).toBe('3 minutes ago');
    expect(relativeTime(at(10 * 60), NOW)).toBe('in 10 minutes');
    expect(relativeTime(at(-2 * 3600), NOW)).toBe('2 hours ago');
    expect(relativeTime(at(-26 * 3600), NOW)).toBe('yesterday');
    expect(relativeTime(at(-40 * 24 * 3600), NOW)).toBe('last month');
  });

  it('rounds toward now, so a key retiring in 9 minutes 50 seconds does not read 10', () => {
    expect(relativeTime(at(9 * 60 + 50), NOW)).toBe('in 9 minutes');
    expect(relativeTime(at(-59), NOW)).toBe('59 seconds ago');
    expect(relativeTime(at(0), NOW)).toBe('now');
  });

  it('answers nothing for what is not a date', () => {
    expect(relativeTime('never', NOW)).toBe('');
  });
});
