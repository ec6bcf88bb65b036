// Display formats of the payment page. Amounts keep every decimal the server sent (a
// micro-payment of 0.000125 is never shown as 0.00 here), with at least two; times carry
// seconds, since a payment's steps are often seconds apart.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** '1234.5' -> '1,234.50'; '0.000125' -> '0.000125'; '-7' -> '-7.00'. Unreadable input is returned as is. */
export function fullPrecision(decimal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) return decimal;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const digits = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${grouped.format(BigInt(whole))}.${digits}`;
}

/** A ledger entry's signed amount: '+7.25' credits the account, '−7.25' debits it (a real minus sign). */
export function signedAmount(decimal: string): string {
  const text = fullPrecision(decimal);
  if (text.startsWith('-')) return `−${text.slice(1)}`;
  return /^0(\.0+)?$/.test(text) ? text : `+${text}`;
}

/** '2026-11-26T10:00:03Z' -> 'Nov 26, 2026 10:00:03' (local time); '' for no date. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** '0x1234567890abcdef...' -> '0x123456…cdef' for a hash or an address too long for its cell. */
export function shortHex(value: string, head = 8, tail = 6): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

function summarize(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return `{${Object.keys(value).slice(0, 3).join(', ')}${Object.keys(value).length > 3 ? ', …' : ''}}`;
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** An audit entry's data in one line: 'from: created, to: settled, steps: 11 items'. */
export function dataSummary(data: Record<string, unknown>, maxLength = 160): string {
  const text = Object.entries(data)
    .map(([key, value]) => `${key}: ${summarize(value)}`)
    .join(', ');
  if (!text) return '—';
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** 'payment_intent.workflow_completed' -> 'Workflow completed'; 'intent.created' -> 'Intent created'. */
export function humanize(name: string): string {
  const last = name.includes('.') && name.startsWith('payment_intent.') ? name.slice('payment_intent.'.length) : name;
  const words = last.replace(/[._]/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}
