// Money on the agent pages: dollars with two decimals (spec section 9), and the dates the
// budget figures are kept by (UTC days, 'YYYY-MM-DD').

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1234.5 -> '$1,234.50'. */
export function formatDollars(value: number): string {
  return `${value < 0 ? '-' : ''}$${twoDecimals.format(Math.abs(value))}`;
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'YYYY-MM-DD' -> { year, month (1-12), day }, or null when the text is no such date. */
export function parseDay(text: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? { year, month, day } : null;
}

/**
 * A UTC day as the console names it: 'Nov 26', with the year only when it is not `currentYear`
 * ('Dec 31, 2025'). Anything that is not a date comes back as given.
 */
export function formatDay(text: string, currentYear?: number): string {
  const day = parseDay(text);
  if (!day) return text;
  const short = `${SHORT_MONTHS[day.month - 1]} ${day.day}`;
  return currentYear === undefined || currentYear === day.year ? short : `${short}, ${day.year}`;
}

/** 'YYYY-MM' -> 'November 2026'; anything else as given. */
export function formatMonth(text: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  const month = match ? Number(match[2]) : 0;
  return match && month >= 1 && month <= 12 ? `${LONG_MONTHS[month - 1]} ${match[1]}` : text;
}

/** An ISO date-time's UTC day, 'YYYY-MM-DD'; '' when it is not a date. */
export function utcDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

/** 'MMM d, yyyy at HH:mm' in the viewer's time zone (the dashboard's date format). */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${SHORT_MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} at ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
