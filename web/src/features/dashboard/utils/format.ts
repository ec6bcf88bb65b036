// Display formats of the dashboard (spec section 9): money with two decimals, dates as
// 'MMM d, yyyy at HH:mm' in the viewer's time zone, long identifiers shortened.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MICRO_UNITS_PER_DOLLAR = 1_000_000n;

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1234.5 -> '1,234.50'. */
export function formatAmount(value: number): string {
  return twoDecimals.format(value);
}

/** 1234.5 -> '$1,234.50'. */
export function formatDollars(value: number): string {
  return `$${formatAmount(value)}`;
}

/** '2025-10-18T09:05:00Z' -> 'Oct 18, 2025 at 09:05' (local time). */
export function formatDashboardDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} at ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Keeps the method and the start and end of a DID: 'did:agnic:1a2b3c...9f8e7d'. */
export function truncateDid(did: string, head = 16, tail = 6): string {
  return did.length <= head + tail + 3 ? did : `${did.slice(0, head)}...${did.slice(-tail)}`;
}

/** Destination addresses show their first 12 characters (spec section 9). */
export function truncateAddress(address: string, length = 12): string {
  return address.length <= length ? address : `${address.slice(0, length)}...`;
}

/**
 * Adds decimal dollar strings ('12.5', '0.000001') exactly, in micro-units, so totals of
 * many balances do not pick up floating-point drift. Unparsable values count as zero.
 */
export function sumDollars(values: readonly string[]): number {
  let total = 0n;
  for (const value of values) total += toMicroUnits(value);
  const whole = total / MICRO_UNITS_PER_DOLLAR;
  const fraction = total % MICRO_UNITS_PER_DOLLAR;
  return Number(whole) + Number(fraction) / Number(MICRO_UNITS_PER_DOLLAR);
}

function toMicroUnits(value: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!match) return 0n;
  const [, sign, whole = '0', fraction = ''] = match;
  const units = BigInt(whole) * MICRO_UNITS_PER_DOLLAR + BigInt(fraction.padEnd(6, '0'));
  return sign ? -units : units;
}
