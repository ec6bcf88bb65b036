// Reading the server's tRPC errors on the payment page: the code lives in `data.code`
// (TRPCClientError), the message is the server's own words.

export function isNotFoundError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('data' in error)) return false;
  const data = (error as { data?: { code?: unknown } | null }).data;
  return data?.code === 'NOT_FOUND';
}

/**
 * The server's message, else the fallback. Network failures carry the browser's words
 * ('Failed to fetch'); tRPC errors carry `data` only when the server answered.
 */
export function errorMessage(error: unknown, fallback: string): string {
  const fromServer = error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data !== null;
  return fromServer && error.message.trim() !== '' ? error.message : fallback;
}
