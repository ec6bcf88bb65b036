// A moment as the identity card says it: '3 minutes ago', 'in 10 minutes', 'now'. The largest
// unit that fits, rounded toward zero, so a key retiring in 9 minutes 50 seconds reads '9 minutes'
// until the minute has passed.

const formatter = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** `iso` relative to `now` (ms); '' when it is not a date. Under a minute either way reads as seconds. */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const seconds = (at - now) / 1000;
  const [unit, size] = UNITS.find(([, length]) => Math.abs(seconds) >= length) ?? ['second', 1];
  const value = Math.trunc(seconds / size);
  return formatter.format(value === 0 ? 0 : value, unit);
}
