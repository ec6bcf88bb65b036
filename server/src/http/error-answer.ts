/**
 * What a thrown error tells the client, decided here for every surface: REST (app.ts), tRPC
 * (trpc/init.ts) and the MCP tools (agent-api/mcp-tools.ts) each write this answer in their own
 * protocol. An AppError answers itself (core's code table gives its status); a dependency that
 * is briefly away answers 503 UNAVAILABLE (transient-error.ts); anything else is a fault of
 * ours, of which the client learns only that it happened (and the request id to quote) and the
 * log learns everything.
 */
import { AppError, isAppError, type ErrorCode } from '@purser/core';
import { isTransientDependencyError, RETRY_AFTER_SECONDS, unavailableError } from './transient-error';

export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

export interface ErrorAnswer {
  code: ErrorCode;
  message: string;
  httpStatus: number;
  /** Seconds for a Retry-After header: every 503 has one. */
  retryAfterSeconds: number | undefined;
  /** The AppError's details (validation issues, a decline's rail code); no surface sends them today. */
  details: unknown;
  /**
   * What the log needs: 'fault' an error of ours (log it whole, as an error; the client got the
   * generic answer), 'unavailable' a dependency briefly away (a warning), 'expected' an answer
   * the code chose (nothing).
   */
  log: 'fault' | 'unavailable' | 'expected';
  /**
   * The AppError behind the answer: the one thrown, or the one made for the error (which it keeps
   * as its cause). For a request the web framework refused, its status is the answer's only when
   * the framework's is that code's (httpStatus has the framework's).
   */
  error: AppError;
}

export type Surface = 'rest' | 'trpc' | 'mcp';

/**
 * Where the surfaces still answer differently; they grew apart and keep their answers for now.
 * `transient`: where a surface looks for a dependency that is briefly away. REST looks beneath
 * AppErrors too, so a seller's refused connection (UPSTREAM_ERROR caused by ECONNREFUSED) answers
 * 503 UNAVAILABLE there and 502 UPSTREAM_ERROR in tRPC and MCP; tRPC looks only at errors that are
 * not AppErrors; MCP nowhere, so a dropped database connection is an INTERNAL fault there.
 * `requestRefusals`: only REST meets the web framework's own refusals of a request.
 */
const SURFACE_RULES: Record<Surface, { transient: 'beneath-app-errors' | 'besides-app-errors' | 'never'; requestRefusals: boolean }> = {
  rest: { transient: 'beneath-app-errors', requestRefusals: true },
  trpc: { transient: 'besides-app-errors', requestRefusals: false },
  mcp: { transient: 'never', requestRefusals: false },
};

export function errorAnswer(thrown: unknown, surface: Surface): ErrorAnswer {
  const rules = SURFACE_RULES[surface];
  const looks = rules.transient === 'beneath-app-errors' || (rules.transient === 'besides-app-errors' && !isAppError(thrown));
  if (looks && isTransientDependencyError(thrown)) return answerOf(unavailableError(thrown), 'unavailable');
  if (isAppError(thrown)) return answerOf(thrown, 'expected');
  const refusal = rules.requestRefusals ? requestRefusalOf(thrown) : undefined;
  if (refusal) return { ...answerOf(refusal.error, 'expected'), httpStatus: refusal.status };
  return answerOf(new AppError('INTERNAL', INTERNAL_ERROR_MESSAGE, { cause: thrown }), 'fault');
}

/**
 * The web framework's own refusal of a request (a body over the limit, unreadable JSON, a content
 * type without a parser): Fastify throws it with a 4xx statusCode and a message fit for the
 * client, and that status is kept (415 stays 415).
 */
function requestRefusalOf(thrown: unknown): { error: AppError; status: number } | undefined {
  const status = (thrown as { statusCode?: number } | null | undefined)?.statusCode ?? 500;
  if (status >= 500) return undefined;
  return { error: new AppError(status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', (thrown as Error).message, { cause: thrown }), status };
}

function answerOf(error: AppError, log: ErrorAnswer['log']): ErrorAnswer {
  return {
    code: error.code,
    message: error.message,
    httpStatus: error.httpStatus,
    retryAfterSeconds: error.httpStatus === 503 ? RETRY_AFTER_SECONDS : undefined,
    details: error.details,
    log,
    error,
  };
}
