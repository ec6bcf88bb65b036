import { describe, expect, it } from 'vitest';
import { AppError } from '@purser/core';
import { errorAnswer, type Surface } from './error-answer';

const SURFACES: Surface[] = ['rest', 'trpc', 'mcp'];
/** A backend PostgreSQL terminated, as Prisma 7 with @prisma/adapter-pg reports it (transient-error.test.ts has more). */
const droppedConnection = Object.assign(new Error('Invalid `prisma.agent.findMany()` invocation: hunter2'), {
  code: 'P2039',
  meta: { driverAdapterError: { cause: { originalCode: '57P01', code: '57P01', message: 'terminating connection due to administrator command' } } },
});
const refusedBySeller = new AppError('UPSTREAM_ERROR', 'The upstream seller.example refused the connection', {
  cause: Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:443'), { code: 'ECONNREFUSED' }),
});

describe('errorAnswer', () => {
  it('answers an AppError with its own code, message, status and details on every surface, and logs nothing', () => {
    const issues = [{ path: ['amount'], message: 'Too small' }];
    for (const surface of SURFACES) {
      const error = new AppError('VALIDATION_FAILED', 'Too small', { details: issues });
      expect(errorAnswer(error, surface)).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Too small',
        httpStatus: 400,
        retryAfterSeconds: undefined,
        details: issues,
        log: 'expected',
        error,
      });
    }
  });

  it('gives every 503 a Retry-After, an UNAVAILABLE the code threw included', () => {
    for (const surface of SURFACES) {
      expect(errorAnswer(new AppError('UNAVAILABLE', 'The wallet is busy, please try again'), surface)).toMatchObject({ httpStatus: 503, retryAfterSeconds: 1, log: 'expected' });
    }
  });

  it('answers a dropped database connection 503 UNAVAILABLE with Retry-After in REST and tRPC, as a warning, keeping the error as the cause', () => {
    for (const surface of ['rest', 'trpc'] as const) {
      const answer = errorAnswer(droppedConnection, surface);
      expect(answer).toMatchObject({ code: 'UNAVAILABLE', httpStatus: 503, retryAfterSeconds: 1, log: 'unavailable' });
      expect(answer.message).toContain('same Idempotency-Key');
      expect(answer.message).not.toContain('hunter2');
      expect(answer.error.cause).toBe(droppedConnection);
    }
  });

  it('answers anything else with a generic INTERNAL 500 to be logged as a fault, never its text', () => {
    for (const surface of SURFACES) {
      for (const thrown of [new TypeError('x is undefined: hunter2'), 'hunter2', undefined]) {
        const answer = errorAnswer(thrown, surface);
        expect(answer).toMatchObject({ code: 'INTERNAL', message: 'Internal server error', httpStatus: 500, retryAfterSeconds: undefined, log: 'fault' });
        expect(answer.error.cause).toBe(thrown);
      }
    }
  });

  it('answers REST requests the web framework refused with their 4xx status, and leaves such errors faults elsewhere', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    const mediaType = Object.assign(new Error("Unsupported Media Type: 'text/csv'"), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    expect(errorAnswer(tooLarge, 'rest')).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large', httpStatus: 413, log: 'expected' });
    expect(errorAnswer(mediaType, 'rest')).toMatchObject({ code: 'BAD_REQUEST', message: "Unsupported Media Type: 'text/csv'", httpStatus: 415, log: 'expected' });
    expect(errorAnswer(Object.assign(new Error('boom'), { statusCode: 502 }), 'rest')).toMatchObject({ code: 'INTERNAL', httpStatus: 500, log: 'fault' });
    for (const surface of ['trpc', 'mcp'] as const) expect(errorAnswer(tooLarge, surface)).toMatchObject({ code: 'INTERNAL', log: 'fault' });
  });

  it('keeps where the surfaces still differ: REST looks for a dependency beneath an AppError, tRPC beside it, MCP not at all', () => {
    expect(errorAnswer(refusedBySeller, 'rest')).toMatchObject({ code: 'UNAVAILABLE', httpStatus: 503, log: 'unavailable' });
    expect(errorAnswer(refusedBySeller, 'trpc')).toMatchObject({ code: 'UPSTREAM_ERROR', httpStatus: 502, log: 'expected' });
    expect(errorAnswer(refusedBySeller, 'mcp')).toMatchObject({ code: 'UPSTREAM_ERROR', httpStatus: 502, log: 'expected' });
    expect(errorAnswer(droppedConnection, 'mcp')).toMatchObject({ code: 'INTERNAL', httpStatus: 500, log: 'fault' });
  });
});
