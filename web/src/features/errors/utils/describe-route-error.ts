import { isRouteErrorResponse } from 'react-router';

/** One line for the error page: the HTTP status for route responses, else the message. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return String(error);
}
