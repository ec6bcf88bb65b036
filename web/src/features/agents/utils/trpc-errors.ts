// Reading the server's tRPC errors: the code lives in `data.code` (TRPCClientError).

export function isNotFoundError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('data' in error)) return false;
  const data = (error as { data?: { code?: unknown } | null }).data;
  return data?.code === 'NOT_FOUND';
}

/** The server's message, else the fallback (network failures carry the browser's words). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim() !== '' && 'data' in error) return error.message;
  return fallback;
}
