import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { isTimeZone, minuteOfWeek, startOfZonedMonth, usageWindows, zonedTime } from './zoned-time';

describe('zonedTime', () => {
  it('reads the local date and time, which can fall on another day than in UTC', () => {
    expect(zonedTime(new Date('2025-01-05T23:30:00Z'), 'Asia/Tokyo')).toEqual({
      year: 2025,
      month: 1,
      day: 6,
      dayOfWeek: 'mon',
      hour: 8,
      minute: 30,
      second: 0,
    });
    expect(zonedTime(new Date('2025-01-04T02:00:00Z'), 'America/Los_Angeles')).toMatchObject({ day: 3, dayOfWeek: 'fri', hour: 18 });
    expect(zonedTime(new Date('2025-01-06T00:00:00Z'), 'UTC')).toMatchObject({ dayOfWeek: 'mon', hour: 0, minute: 0 });
  });

  it('follows daylight saving time', () => {
    expect(zonedTime(new Date('2025-01-15T07:30:00Z'), 'Europe/Paris').hour).toBe(8);
    expect(zonedTime(new Date('2025-06-15T07:30:00Z'), 'Europe/Paris').hour).toBe(9);
  });

  it('refuses a time zone that is not an IANA name with a validation error', () => {
    expect(() => zonedTime(new Date(), 'Mars/Olympus_Mons')).toThrow(AppError);
    expect(() => zonedTime(new Date(), 'Mars/Olympus_Mons')).toThrow('Unknown time zone "Mars/Olympus_Mons"');
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('Europe/Paris')).toBe(true);
  });

  it('refuses an invalid date', () => {
    expect(() => zonedTime(new Date('not a date'), 'UTC')).toThrow('Evaluation time must be a valid date');
  });
});

describe('minuteOfWeek', () => {
  it('counts minutes from Monday 00:00 to Sunday 23:59', () => {
    expect(minuteOfWeek({ dayOfWeek: 'mon', hour: 0, minute: 0 })).toBe(0);
    expect(minuteOfWeek({ dayOfWeek: 'tue', hour: 1, minute: 2 })).toBe(1440 + 62);
    expect(minuteOfWeek({ dayOfWeek: 'sun', hour: 23, minute: 59 })).toBe(7 * 1440 - 1);
  });
});

describe('startOfZonedMonth', () => {
  it('is local midnight on the first of the month, which can be the previous day in UTC', () => {
    expect(startOfZonedMonth(new Date('2025-02-10T00:00:00Z'), 'Asia/Tokyo').toISOString()).toBe('2025-01-31T15:00:00.000Z');
    expect(startOfZonedMonth(new Date('2025-03-10T00:00:00Z'), 'America/New_York').toISOString()).toBe('2025-03-01T05:00:00.000Z');
    expect(startOfZonedMonth(new Date('2025-03-10T00:00:00Z'), 'UTC').toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });

  it('moves to the new month exactly at local midnight', () => {
    expect(startOfZonedMonth(new Date('2025-01-31T15:00:00Z'), 'Asia/Tokyo').toISOString()).toBe('2025-01-31T15:00:00.000Z');
    expect(startOfZonedMonth(new Date('2025-01-31T14:59:59.999Z'), 'Asia/Tokyo').toISOString()).toBe('2024-12-31T15:00:00.000Z');
  });

  it('starts at the first local instant of the month when daylight saving time skips midnight', () => {
    // Paraguay moved its clocks from 00:00 to 01:00 on Sunday 1 October 2017.
    expect(startOfZonedMonth(new Date('2017-10-15T12:00:00Z'), 'America/Asuncion').toISOString()).toBe('2017-10-01T04:00:00.000Z');
  });
});

describe('usageWindows', () => {
  it('gives the rolling 24 hours before the payment and the calendar month in the owner time zone', () => {
    const at = new Date('2025-03-01T03:00:00Z');
    const windows = usageWindows(at, 'America/New_York');
    expect(windows.dailyWindowStart.toISOString()).toBe('2025-02-28T03:00:00.000Z');
    // 22:00 on 28 February in New York: still February there.
    expect(windows.monthStart.toISOString()).toBe('2025-02-01T05:00:00.000Z');
  });
});
