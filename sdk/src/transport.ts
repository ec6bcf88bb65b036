/**
 * One HTTP call of the SDK, end to end: URL, credentials, idempotency key, a time limit per
 * attempt, retries with back-off, and the typed error. Every client method goes through
 * `Transport.send`, so these rules hold for all of them.
 */
import { ApiPromise, PagePromise, responseMeta, type WithResponse } from './api-promise';
import { apiErrorFromResponse, PurserApiError, PurserConnectionError, UNEXPECTED_RESPONSE } from './errors';
import { BASE_PATHS, type Operation } from './operations';
import { DEFAULT_RETRY, isRetryableStatus, nextDelayMs, parseRetryAfterMs, sleep as defaultSleep, type RetryOptions } from './retry';

/** Connection settings shared by the owner client, the agent client and the session calls. */
export interface ConnectionOptions {
  /** Where Purser runs, e.g. `http://127.0.0.1:3000` (the PURSER_URL of the docs). */
  baseUrl: string;
  /** The fetch to call; the global one when absent. */
  fetch?: typeof fetch;
  /** Time limit of one attempt, from sending to the last byte of the answer. Default 60 s. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Sent with every call (a tracing header, say). The SDK's own headers win. */
  headers?: Record<string, string>;
  /** Waits between attempts; tests pass one that records instead of waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of the back-off jitter, in [0, 1). */
  random?: () => number;
  /** The clock that `Retry-After` dates are read against, in epoch milliseconds. */
  now?: () => number;
  /** Makes the idempotency key of a money-moving call that was given none. Default: a random UUID. */
  generateIdempotencyKey?: () => string;
}

/** Options of one call. */
export interface RequestOptions {
  /** Aborts the call, retries and waits included; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  headers?: Record<string, string>;
}

/** Options of a money-moving call. */
export interface MoneyRequestOptions extends RequestOptions {
  /**
   * The call's idempotency key (1 to 255 printable ASCII characters). Without one the SDK makes
   * a random UUID. Either way every retry of the call sends the same key, so the server answers
   * the first outcome instead of paying again. Give your own to repeat the call later, for
   * example to read the outcome of a payment that waited for approval.
   */
  idempotencyKey?: string;
}

type QueryValue = string | number | boolean;

export interface SendInput {
  params?: Record<string, string>;
  /** A list is sent as the name repeated, once per item (`status=a&status=b`); null and undefined are left out. */
  query?: Record<string, QueryValue | readonly QueryValue[] | null | undefined>;
  body?: unknown;
  options?: MoneyRequestOptions;
}

export interface SendResult<T> {
  status: number;
  data: T;
  headers: Headers;
  /** The key a money-moving call was sent with (the same on every attempt). */
  idempotencyKey: string | undefined;
  /** Attempts made, the first included. */
  attempts: number;
}

export type CredentialHeaders = () => Record<string, string> | Promise<Record<string, string>>;

export const DEFAULT_TIMEOUT_MS = 60_000;
const REPEATABLE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export class Transport {
  private readonly origin: string;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly generateKey: () => string;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly credentials: CredentialHeaders = () => ({}),
  ) {
    if (!URL.canParse(options.baseUrl)) throw new TypeError(`baseUrl must be an absolute URL, such as http://127.0.0.1:3000; got ${JSON.stringify(options.baseUrl)}`);
    this.origin = options.baseUrl.replace(/\/+$/, '');
    // Bound, so a caller's `fetch: window.fetch` does not lose its `this`.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.generateKey = options.generateIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
  }

  /** The full URL of an operation with its path parameters and query. */
  url(operation: Operation, params: Record<string, string> = {}, query: SendInput['query'] = {}): string {
    const path = operation.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => {
      const value = params[name];
      if (value === undefined || value === '') throw new TypeError(`${operation.operationId} needs ${name}`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? (value as readonly QueryValue[]) : [value]) {
        if (item !== undefined && item !== null) search.append(name, String(item));
      }
    }
    const queryText = search.toString();
    return `${this.origin}${BASE_PATHS[operation.surface]}${path}${queryText ? `?${queryText}` : ''}`;
  }

  async send<T>(operation: Operation, input: SendInput = {}): Promise<SendResult<T>> {
    const { options = {} } = input;
    const url = this.url(operation, input.params, input.query);
    const idempotencyKey = operation.idempotencyKey ? this.idempotencyKeyOf(operation, input.body, options.idempotencyKey) : undefined;
    const repeatable = REPEATABLE_METHODS.has(operation.method) || operation.readOnly === true || idempotencyKey !== undefined;
    const retry: RetryOptions = { ...DEFAULT_RETRY, ...this.options.retry, ...options.retry };
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const headers = mergeHeaders(this.options.headers, options.headers, await this.credentials(), {
      // A download still answers an error as JSON.
      accept: operation.stream ? `${operation.stream}, application/json` : 'application/json',
      ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
    });
    const body = input.body !== undefined ? JSON.stringify(input.body) : undefined;
    const context = { operationId: operation.operationId, idempotencyKey };

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(url, { method: operation.method, headers, body }, timeoutMs, options.signal);

      if ('failure' in outcome) {
        // The caller gave up: no retry, and their reason rather than ours.
        if (options.signal?.aborted) throw options.signal.reason;
        const delay = repeatable ? nextDelayMs(attempt, retry, undefined, this.random) : undefined;
        if (delay !== undefined) {
          await this.sleep(delay, options.signal);
          continue;
        }
        const what = outcome.timedOut ? `timed out after ${timeoutMs} ms` : `failed: ${describe(outcome.failure)}`;
        throw new PurserConnectionError(`${operation.operationId} (${operation.method} ${url}) ${what}`, { ...context, timedOut: outcome.timedOut, cause: outcome.failure });
      }

      const { response, text } = outcome;
      if (response.ok) {
        const data = operation.stream ? (text as T) : parseSuccess<T>(response, text, context);
        return { status: response.status, data, headers: response.headers, idempotencyKey, attempts: attempt };
      }

      const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'), this.now());
      const error = apiErrorFromResponse(response, text, { ...context, retryAfterMs });
      const delay = isRetryableStatus(response.status, repeatable) ? nextDelayMs(attempt, retry, retryAfterMs, this.random) : undefined;
      if (delay === undefined) throw error;
      await this.sleep(delay, options.signal);
    }
  }

  /** `send` as SDK methods answer: the data, with `.withResponse()` for the answer's metadata. */
  call<T>(operation: Operation, input: SendInput = {}): ApiPromise<T> {
    return new ApiPromise(this.sendWithResponse<T>(operation, input));
  }

  async sendWithResponse<T>(operation: Operation, input: SendInput = {}): Promise<WithResponse<T>> {
    const sent = await this.send<T>(operation, input);
    return { data: sent.data, response: responseMeta(sent) };
  }

  /**
   * A cursor-paged list: the first page is asked for now; iterating asks for the next ones with
   * the same parameters and the previous page's cursor (`nextCursor` unless `cursorOf` says).
   */
  list<Page, Item>(
    operation: Operation,
    input: SendInput,
    itemsOf: (page: Page) => readonly Item[],
    cursorOf?: (page: Page) => string | null | undefined,
  ): PagePromise<Page, Item> {
    const pageAt = (cursor?: string) => this.sendWithResponse<Page>(operation, { ...input, query: { ...input.query, ...(cursor !== undefined ? { cursor } : {}) } });
    return new PagePromise(pageAt(), (cursor) => new ApiPromise(pageAt(cursor)), itemsOf, cursorOf);
  }

  /** The caller's key, the body's `idempotency_key` / `idempotencyKey`, or a new one; given twice, they must agree. */
  private idempotencyKeyOf(operation: Operation, body: unknown, given: string | undefined): string {
    const fields = (body ?? {}) as { idempotency_key?: unknown; idempotencyKey?: unknown };
    const fromBody = [fields.idempotency_key, fields.idempotencyKey].find((value): value is string => typeof value === 'string');
    if (given !== undefined && fromBody !== undefined && given !== fromBody) {
      throw new TypeError(`${operation.operationId}: options.idempotencyKey and the body's idempotency key differ`);
    }
    return given ?? fromBody ?? this.generateKey();
  }

  /** One request with its own time limit; a network failure or timeout is returned, not thrown. */
  private async attempt(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; text: string } | { failure: unknown; timedOut: boolean }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => controller.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.fetch(url, { ...init, signal: controller.signal });
      // Read under the same time limit: a body that stalls is as bad as no answer.
      const text = await response.text();
      return { response, text };
    } catch (failure) {
      return { failure, timedOut };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** Later sources win, whatever the case of a name: `Authorization` and `authorization` are one header. */
function mergeHeaders(...sources: Array<Record<string, string> | undefined>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) merged[name.toLowerCase()] = value;
  }
  return merged;
}

function parseSuccess<T>(response: Response, text: string, context: { operationId: string; idempotencyKey: string | undefined }): T {
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PurserApiError({
      status: response.status,
      code: UNEXPECTED_RESPONSE,
      message: `HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      requestId: response.headers.get('x-request-id') ?? undefined,
      retryAfterMs: undefined,
      body: text,
      ...context,
    });
  }
}

function describe(failure: unknown): string {
  if (!(failure instanceof Error)) return String(failure);
  // undici puts the reason (ECONNREFUSED, ECONNRESET, ...) in `cause`.
  const cause = failure.cause instanceof Error ? `: ${failure.cause.message}` : '';
  return `${failure.message}${cause}`;
}
