/**
 * The one place that calls initTRPC. Procedures import their builders from here; the
 * error formatter exposes AppError codes so every client sees the same stable codes.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { ACCESS_TOKEN_TTL_SECONDS, AppError, isAppError, type ErrorCode } from '@purser/core';
import { errorAnswer, INTERNAL_ERROR_MESSAGE } from '../http/error-answer';
import type { Context } from './context';

const TRPC_CODE_BY_STATUS: Record<number, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

const t = initTRPC.context<Context>().create({
  // Never send stack traces, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error, ctx }) {
    const appError = isAppError(error.cause) ? error.cause : undefined;
    // Input validation answers with its first message, as the spec's forms show it.
    const issue = error.cause instanceof ZodError ? error.cause.issues[0] : undefined;
    const { stack: _stack, ...data } = shape.data;
    // Null when creating the context failed; the x-request-id response header still has it.
    const requestId = ctx?.requestId ?? null;
    // An unexpected failure's message may hold a query, a driver's words or a path: the
    // client gets the request id to quote instead, and the log (onError in app.ts) the rest.
    const unexpected = error.code === 'INTERNAL_SERVER_ERROR' && !appError;
    const appCode: ErrorCode | null = appError?.code ?? (issue ? 'VALIDATION_FAILED' : unexpected ? 'INTERNAL' : null);
    let message = issue?.message ?? shape.message;
    if (unexpected) message = requestId ? `${INTERNAL_ERROR_MESSAGE} (request ${requestId})` : INTERNAL_ERROR_MESSAGE;
    return { ...shape, message, data: { ...data, appCode, requestId } };
  },
  // Subscriptions (trpc/realtime) stream over server-sent events. Pings keep idle streams
  // alive through proxies and let the client notice a dead one. A stream re-checks its
  // credentials every few seconds (realtime/owner-events.ts) and ends after one access-token
  // lifetime at most, so the client reconnects with its current credentials.
  sse: {
    ping: { enabled: true, intervalMs: 15_000 },
    client: { reconnectAfterInactivityMs: 40_000 },
    maxDurationMs: ACCESS_TOKEN_TTL_SECONDS * 1000,
  },
});

/** Turns what services throw into TRPCErrors with the matching code (http/error-answer.ts decides). */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const answer = errorAnswer(result.error.cause, 'trpc');
  // A fault, input validation and tRPC's own errors stay as tRPC made them: the formatter above
  // answers them, and onError (app.ts) logs the faults.
  if (answer.log === 'fault') return result;
  throw new TRPCError({ code: TRPC_CODE_BY_STATUS[answer.httpStatus] ?? 'INTERNAL_SERVER_ERROR', message: answer.message, cause: answer.error });
});

export type { ErrorCode };
export const router = t.router;
export const publicProcedure = t.procedure.use(mapAppErrors);

/**
 * Signed-in owners only; ctx.owner is non-null past it. An owner API key is refused: keys are
 * for the REST API, where each route names the scope a key must hold and every use is audited.
 */
export const ownerProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.owner) throw new AppError('UNAUTHORIZED', 'Authentication required');
  if (ctx.owner.via === 'api_key') {
    throw new AppError('FORBIDDEN', "Owner API keys work on the REST API (/api/v1), not on the web app's API: sign in, or call /api/v1 with the key");
  }
  return next({ ctx: { owner: ctx.owner } });
});
