// How the webhooks page writes times, durations and delivery states.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/** '2025-10-18T09:05:03Z' -> 'Oct 18, 2025, 09:05:03' in the viewer's time zone; '—' for none. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}, ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * The same, shorter for a table's columns: the year only when it is not this year's
 * ('Oct 18, 09:05:03'; 'Oct 18, 2024, 09:05:03').
 */
export function formatShortDateTime(value: string | null | undefined, now: Date = new Date()): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const year = date.getFullYear() === now.getFullYear() ? '' : `, ${date.getFullYear()}`;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}${year}, ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** '2025-10-18T09:05:03Z' -> 'Oct 18, 2025' in the viewer's time zone. */
export function formatDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** 85 -> '85 ms', 1234 -> '1.23 s', null -> '—'. */
export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export const DELIVERY_STATUS_LABEL = { pending: 'Pending', succeeded: 'Delivered', failed: 'Failed' } as const;

/** A delivery's state in a word: a pending one that has failed before is being retried. */
export function deliveryStatusLabel(delivery: { status: keyof typeof DELIVERY_STATUS_LABEL; attempts: number }): string {
  return delivery.status === 'pending' && delivery.attempts > 0 ? 'Retrying' : DELIVERY_STATUS_LABEL[delivery.status];
}
export const DELIVERY_STATUS_COLOR = { pending: 'warning', succeeded: 'success', failed: 'error' } as const;

/** An HTTP status as the log shows it: the code, '—' when no answer came. */
export function formatStatusCode(code: number | null | undefined): string {
  return code === null || code === undefined ? '—' : String(code);
}
