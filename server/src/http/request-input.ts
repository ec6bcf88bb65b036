/** Reading request input the same way on every REST surface (/api/v1, /functions/v1). */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, firstValidationMessage, IDEMPOTENCY_KEY_MESSAGE, IDEMPOTENCY_KEY_PATTERN } from '@purser/core';

/** Validates with a contract; a failure answers 400 with the first message (spec section 8). */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    throw new AppError('VALIDATION_FAILED', firstValidationMessage(result.error), { details: result.error.issues });
  }
  return result.data;
}

/** The `Idempotency-Key` header or the `idempotency_key` body field; both given must agree. */
export function idempotencyKeyOf(request: FastifyRequest, fromBody: string | undefined): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return fromBody;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) throw new AppError('VALIDATION_FAILED', IDEMPOTENCY_KEY_MESSAGE);
  if (fromBody !== undefined && fromBody !== header) {
    throw new AppError('VALIDATION_FAILED', 'The Idempotency-Key header and the idempotency_key field differ');
  }
  return header;
}
