/**
 * The one place that calls initTRPC. Procedures import their builders from here; the
 * error formatter exposes AppError codes so every client sees the same stable codes.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { isAppError, type ErrorCode } from '@purser/core';
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
  503: 'SERVICE_UNAVAILABLE',
};

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const appError = isAppError(error.cause) ? error.cause : undefined;
    return { ...shape, data: { ...shape.data, appCode: appError?.code ?? null } };
  },
});

/** Turns AppErrors thrown by services into TRPCErrors with the matching code. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODE_BY_STATUS[cause.httpStatus] ?? 'INTERNAL_SERVER_ERROR', message: cause.message, cause });
  }
  return result;
});

export type { ErrorCode };
export const router = t.router;
export const publicProcedure = t.procedure.use(mapAppErrors);
