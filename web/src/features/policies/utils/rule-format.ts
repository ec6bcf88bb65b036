// How the policies page writes rule values: dollars from the stored decimal strings (two
// decimals, more only when the rule has them: a limit of $100.000001 must not read $100.00),
// days of the week, shortened addresses.
import type { DayOfWeek } from '@purser/core';

const grouped = new Intl.NumberFormat('en-US');

/** '0.5' -> '$0.50', '1000' -> '$1,000.00', '100.000001' -> '$100.000001'. */
export function formatRuleDollars(decimal: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) return `$${decimal}`;
  const whole = grouped.format(BigInt(match[1]!));
  const fraction = (match[2] ?? '').replace(/0+$/, '').padEnd(2, '0');
  return `$${whole}.${fraction}`;
}

export const DAY_NAMES: Readonly<Record<DayOfWeek, string>> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
export const DAY_FULL_NAMES: Readonly<Record<DayOfWeek, string>> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};
const WEEK: readonly DayOfWeek[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** ['mon'..'fri'] -> 'Mon–Fri', every day -> 'Every day', ['sat', 'sun'] -> 'Sat, Sun'. */
export function formatDays(days: readonly DayOfWeek[]): string {
  const set = new Set(days);
  if (WEEK.every((day) => set.has(day))) return 'Every day';
  const runs: DayOfWeek[][] = [];
  for (const day of WEEK) {
    if (!set.has(day)) continue;
    const last = runs.at(-1);
    if (last && WEEK.indexOf(last.at(-1)!) === WEEK.indexOf(day) - 1) last.push(day);
    else runs.push([day]);
  }
  return runs
    .flatMap((run) => (run.length >= 3 ? [`${DAY_NAMES[run[0]!]}–${DAY_NAMES[run.at(-1)!]}`] : run.map((day) => DAY_NAMES[day])))
    .join(', ');
}

/** EVM addresses shortened to 0x7099…79C8; hosts and names as they are. */
export function formatMerchant(entry: string): string {
  return /^0x[0-9a-f]{40}$/i.test(entry) ? `${entry.slice(0, 6)}…${entry.slice(-4)}` : entry;
}
