// Display helpers of the policies page: money with two decimals, dates as the dashboard writes
// them, and the server's message from a failed tRPC call.

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 1234.5 -> '$1,234.50'. */
export function formatDollars(value: number): string {
  return `$${twoDecimals.format(value)}`;
}

/** 'MMM d, yyyy at HH:mm' in the viewer's time zone. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} at ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The server's message, else the fallback. Network failures carry the browser's words
 * ('Failed to fetch'); tRPC errors carry `data` only when the server answered.
 */
export function errorMessage(error: unknown, fallback: string): string {
  const fromServer = error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data !== null;
  return fromServer && error.message.trim() !== '' ? error.message : fallback;
}
