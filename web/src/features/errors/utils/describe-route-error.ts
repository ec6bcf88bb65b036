// What the router's error page says about the error it caught (never a stack trace).
import { isRouteErrorResponse } from 'react-router';

/** One line for the error page: the HTTP status for route responses, else the message. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * True when a page's code could not be downloaded (a lazy route chunk): after a deployment
 * or on a flaky connection. Each browser words it differently.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|Importing a module script failed|Loading chunk .* failed|Unable to preload CSS/i.test(message);
}
