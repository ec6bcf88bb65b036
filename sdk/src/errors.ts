/**
 * What an SDK call throws. The API answers every failure as `{ error: { code, message } }`
 * (core's AppError.toJSON), with `request_id` added on a 500; every answer also names its
 * request in the `x-request-id` header.
 */
import type { PurserErrorCode, X402SignedPayment } from './types';

/** Base of every error the SDK throws, so `catch (e) { if (e instanceof PurserError) ... }` works. */
export class PurserError extends Error {
  override name = 'PurserError';
}

/** Set when the body was not the API's error shape (a proxy's HTML page, an empty 502). */
export const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE';

export interface PurserApiErrorInit {
  status: number;
  code: PurserErrorCode | typeof UNEXPECTED_RESPONSE | (string & {});
  message: string;
  requestId: string | undefined;
  operationId: string;
  idempotencyKey: string | undefined;
  retryAfterMs: number | undefined;
  body: unknown;
}

/** The API answered with an error status. */
export class PurserApiError extends PurserError {
  override name = 'PurserApiError';
  /** The HTTP status, e.g. 422. */
  readonly status: number;
  /** The API's stable error code, e.g. `INSUFFICIENT_FUNDS`; `UNEXPECTED_RESPONSE` if there was none. */
  readonly code: PurserApiErrorInit['code'];
  /** The server's request id (`request_id` or the `x-request-id` header), to quote in a support request. */
  readonly requestId: string | undefined;
  /** The operation that failed, as the OpenAPI document names it. */
  readonly operationId: string;
  /** The key a money-moving call was sent with: send the same call with it again to learn its outcome. */
  readonly idempotencyKey: string | undefined;
  /** What `Retry-After` asked for, in milliseconds, when the answer had one. */
  readonly retryAfterMs: number | undefined;
  /** The parsed JSON body, or its text when it was not JSON. */
  readonly body: unknown;

  constructor(init: PurserApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.operationId = init.operationId;
    this.idempotencyKey = init.idempotencyKey;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
  }
}

/**
 * No answer: the connection failed or the attempt timed out, after the retries the call allowed.
 * For a money-moving call the outcome is unknown; send it again with `idempotencyKey` and the
 * server answers the first outcome instead of paying again.
 */
export class PurserConnectionError extends PurserError {
  override name = 'PurserConnectionError';
  readonly operationId: string;
  readonly idempotencyKey: string | undefined;
  /** True when the attempt ran out of time (`timeoutMs`) rather than failing to connect. */
  readonly timedOut: boolean;

  constructor(message: string, init: { operationId: string; idempotencyKey: string | undefined; timedOut: boolean; cause: unknown }) {
    super(message, { cause: init.cause });
    this.operationId = init.operationId;
    this.idempotencyKey = init.idempotencyKey;
    this.timedOut = init.timedOut;
  }
}

/**
 * An x402 call refused because the seller asks more than the call's price cap (`maxAmount`,
 * `max_amount`; the SDK sends a default one). The API checks the price before anything is
 * signed or held: nothing was paid. A PurserApiError (422 `POLICY_VIOLATION`) like any refusal,
 * with the cap and the price named.
 */
export class X402PriceCapError extends PurserApiError {
  override name = 'X402PriceCapError';
  /** The cap the call was sent with, in dollars. */
  readonly maxAmount: string;
  /** What the seller asks, in dollars, as the API reported it. */
  readonly price: string | undefined;

  constructor(refusal: PurserApiError, maxAmount: string) {
    super(refusal);
    this.maxAmount = maxAmount;
    this.price = /asks ([0-9.]+) /.exec(refusal.message)?.[1];
  }
}

/** The API's refusal of an x402 price above `max_amount` (server paid-calls/fetch-paid.ts, fetchWithX402), typed; any other error as it is. */
export function x402PriceCapErrorFrom(error: unknown, maxAmount: string): unknown {
  if (error instanceof PurserApiError && error.code === 'POLICY_VIOLATION' && /more than max_amount/.test(error.message)) return new X402PriceCapError(error, maxAmount);
  return error;
}

/**
 * A paid fetch whose payment waits for the owner's approval (it is above the agent's approval
 * threshold): there is no seller response yet. After the owner approves, make the same call with
 * the same idempotency key (`idempotencyKey`) to get it; nothing is paid twice.
 */
export class X402PaymentPendingError extends PurserError {
  override name = 'X402PaymentPendingError';
  readonly intentId: string;
  readonly idempotencyKey: string | undefined;
  /** The pending payment as the API answered it (HTTP 202). */
  readonly payment: X402SignedPayment;

  constructor(payment: X402SignedPayment, idempotencyKey: string | undefined) {
    super(`The payment of ${payment.amount_exact} USDC waits for the owner's approval (payment intent ${payment.intent_id}); call again with idempotency key ${idempotencyKey ?? '(none)'} once approved`);
    this.intentId = payment.intent_id;
    this.idempotencyKey = idempotencyKey;
    this.payment = payment;
  }
}

export function isPurserApiError(value: unknown, code?: PurserApiErrorInit['code']): value is PurserApiError {
  return value instanceof PurserApiError && (code === undefined || value.code === code);
}

/** Builds the error for a non-2xx answer from its status, headers and body text. */
export function apiErrorFromResponse(
  response: { status: number; headers: Headers },
  text: string,
  context: { operationId: string; idempotencyKey: string | undefined; retryAfterMs: number | undefined },
): PurserApiError {
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text.
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; request_id?: unknown } } | undefined)?.error;
  const shaped = typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
  const requestId = (shaped && typeof error.request_id === 'string' ? error.request_id : undefined) ?? response.headers.get('x-request-id') ?? undefined;
  return new PurserApiError({
    status: response.status,
    code: shaped ? (error.code as string) : UNEXPECTED_RESPONSE,
    message: shaped ? (error.message as string) : `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
    requestId,
    body,
    ...context,
  });
}
