// Turning failures into the toasts of spec section 8.

/**
 * The server's message when it gave one, else the spec's fallback for that action. A request
 * that never got an answer (offline, connection dropped, a proxy's HTML error page) fails with
 * the browser's words ('Failed to fetch'); tRPC errors carry `data` only when the server spoke.
 */
export function errorMessage(error: unknown, fallback: string): string {
  const fromServer = error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data !== null;
  return fromServer && error.message.trim() ? error.message : fallback;
}

/** '12.50' -> 12.5; anything that is not a number above zero -> null. */
export function positiveAmount(value: string): number | null {
  if (!value.trim()) return null;
  const amount = Number(value);
  return Number.isFinite(amount) && amount > 0 ? amount : null;
}
