// Reading the server's tRPC errors on the consent page: `data.code` is tRPC's code
// (NOT_FOUND, CONFLICT), the message the server's own words when it answered.

export function trpcCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('data' in error)) return null;
  const data = (error as { data?: { code?: unknown } | null }).data;
  return typeof data?.code === 'string' ? data.code : null;
}

/** The server's message, else the fallback (a network failure carries only the browser's words). */
export function serverMessage(error: unknown, fallback: string): string {
  const fromServer = error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data !== null;
  return fromServer && error.message.trim() !== '' ? error.message : fallback;
}
