/**
 * Wall-clock time in an IANA time zone, with nothing but Intl.DateTimeFormat. Given the same
 * instant and zone the answer is the same every time, so the policy engine can use it inside a
 * Temporal workflow. (It follows the time zone database bundled with Node: a replay across a
 * Node upgrade that changed a zone's rules for that instant could read another local time.)
 */
import { AppError } from '../errors';

export const DAYS_OF_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

export const MINUTES_PER_DAY = 24 * 60;
/** The daily limit is a rolling window of this length ending at the payment. */
export const DAILY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface ZonedTime {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  dayOfWeek: DayOfWeek;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        weekday: 'short',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      throw new AppError('VALIDATION_FAILED', `Unknown time zone "${timeZone}": use an IANA name such as Europe/Paris`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function assertInstant(at: Date): void {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new AppError('BAD_REQUEST', 'Evaluation time must be a valid date');
}

/** The local date and time at `at` in `timeZone`. */
export function zonedTime(at: Date, timeZone: string): ZonedTime {
  assertInstant(at);
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(at)) parts[part.type] = part.value;
  const dayOfWeek = (parts.weekday ?? '').toLowerCase();
  if (!(DAYS_OF_WEEK as readonly string[]).includes(dayOfWeek)) throw new Error(`Unexpected weekday from Intl: ${parts.weekday}`);
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    dayOfWeek: dayOfWeek as DayOfWeek,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Minutes since Monday 00:00 local time, 0 to 10079. */
export function minuteOfWeek(time: Pick<ZonedTime, 'dayOfWeek' | 'hour' | 'minute'>): number {
  return DAYS_OF_WEEK.indexOf(time.dayOfWeek) * MINUTES_PER_DAY + time.hour * 60 + time.minute;
}

function localDateKey(time: Pick<ZonedTime, 'year' | 'month' | 'day'>): number {
  return time.year * 10_000 + time.month * 100 + time.day;
}

/**
 * The first instant whose local date in `timeZone` is the first day of the month that `at`
 * falls in. Found by bisection rather than offset arithmetic, so a DST change at midnight
 * (local midnight skipped or repeated) still gives the right boundary.
 */
export function startOfZonedMonth(at: Date, timeZone: string): Date {
  const local = zonedTime(at, timeZone);
  const target = localDateKey({ year: local.year, month: local.month, day: 1 });
  const localMidnightAsUtc = Date.UTC(local.year, local.month - 1, 1);
  // UTC offsets lie within -12 h and +14 h, so the boundary lies within 15 h of that guess.
  let before = Math.floor((localMidnightAsUtc - 15 * 3_600_000) / 1000);
  let after = Math.floor((localMidnightAsUtc + 15 * 3_600_000) / 1000);
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (localDateKey(zonedTime(new Date(middle * 1000), timeZone)) >= target) after = middle;
    else before = middle;
  }
  return new Date(after * 1000);
}

/** Owners have no time zone setting yet: calendar months are UTC months. */
export const OWNER_TIME_ZONE = 'UTC';

/**
 * The windows the caller sums usage over for `evaluatePolicy`: the rolling 24 hours before
 * `at` (spentInWindow, payments at or after `dailyWindowStart`) and the calendar month in the
 * owner's time zone (spentThisMonth, payments at or after `monthStart`).
 */
export function usageWindows(at: Date, timeZone: string): { dailyWindowStart: Date; monthStart: Date } {
  assertInstant(at);
  return { dailyWindowStart: new Date(at.getTime() - DAILY_WINDOW_MS), monthStart: startOfZonedMonth(at, timeZone) };
}
