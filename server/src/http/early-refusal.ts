/**
 * A refusal answered from a hook, before any surface ran (a cross-origin write, a rate limit):
 * for tRPC in tRPC's own error shape, one per procedure of a batch, as the web app's client reads
 * errors (the shape trpc/init.ts formats: the AppError's code as `data.appCode`); on every other
 * path thrown to the app's error handler, which answers `{ error: { code, message } }`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { AppError } from '@purser/core';
import { pathOf, trpcCallsOf } from './owner-surfaces';

/** The statuses refused here, as tRPC names them. */
const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = { 403: 'FORBIDDEN', 429: 'TOO_MANY_REQUESTS' };

export async function refuseEarly(request: FastifyRequest, reply: FastifyReply, error: AppError): Promise<FastifyReply> {
  const calls = trpcCallsOf(pathOf(request));
  if (calls.length === 0) throw error;
  const code = TRPC_CODE_BY_STATUS[error.httpStatus] ?? 'BAD_REQUEST';
  const answer = (path: string) => ({
    error: {
      message: error.message,
      code: TRPC_ERROR_CODES_BY_KEY[code],
      data: { code, httpStatus: error.httpStatus, path, appCode: error.code, requestId: request.id },
    },
  });
  const batch = (request.query as { batch?: unknown } | undefined)?.batch === '1';
  return reply.status(error.httpStatus).send(batch ? calls.map(answer) : answer(calls[0]!));
}
