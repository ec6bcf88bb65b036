// Reading the server's tRPC errors: the code lives in `data.code` (TRPCClientError).

/**
 * The server's message, else the fallback. Network failures carry the browser's words
 * ('Failed to fetch'); tRPC errors carry `data` only when the server answered.
 */
export function errorMessage(error: unknown, fallback: string): string {
  const fromServer = error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data !== null;
  return fromServer && error.message.trim() !== '' ? error.message : fallback;
}
