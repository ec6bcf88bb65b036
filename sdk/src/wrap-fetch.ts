/**
 * `wrapFetch`: the agent API's paid fetch (POST /pay/fetch) in the shape of `fetch`, as
 * @x402/fetch's wrapFetchWithPayment has it: `wrapFetch(fetch, { agent, maxAmount })` answers a
 * function that takes what fetch takes and resolves to a real `Response`. Purser makes the call to
 * the seller, pays its 402 from the agent's wallet in the protocol the seller speaks (x402 or MPP;
 * spending rules, policies, approval and the hold first) and hands back the seller's answer; this
 * file turns that answer back into a Response whose body holds the seller's exact bytes (the API
 * carries binary bodies as base64). `x402PaymentInfo(response)` tells what paid for it.
 *
 * Every call carries a price cap (`maxAmount`, $0.10 unless the wrapper or the call says
 * otherwise) that the API checks before anything is signed, and an idempotency key that the
 * SDK's retries of the call reuse, so a retried call never pays twice.
 */
import { agentTransport, DEFAULT_X402_MAX_AMOUNT, PurserAgentClient, sendPaidFetch, type AgentClientOptions } from './agent-client';
import { X402PaymentPendingError } from './errors';
import type { ResponseMeta } from './api-promise';
import type { RetryOptions } from './retry';
import type { MppReceipt, PaidFetchBody, PaymentProtocol, X402UpstreamResponse } from './types';

/** Per call, beside fetch's own options: `fetchWithPayment(url, { purser: { maxAmount: 0.5 } })`. */
export interface X402CallOptions {
  /** This call's price cap in dollars, instead of the wrapper's. */
  maxAmount?: number | string;
  /**
   * The payment's idempotency key. Without one, an `Idempotency-Key` request header is used, or
   * a random UUID. Send the same call with the same key again (after the owner approved, or
   * when an answer was lost) and the API answers the first outcome instead of paying again.
   */
  idempotencyKey?: string;
  /** Shown with the payment in the console and the audit log. */
  description?: string;
  category?: string;
  /** Time limit of one attempt at the agent API. Default 60 s. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
}

export type X402RequestInit = RequestInit & { purser?: X402CallOptions };

export interface WrapFetchOptions {
  /** The paying agent: a PurserAgentClient, or its options (`{ baseUrl, did, apiKey }`). */
  agent: PurserAgentClient | AgentClientOptions;
  /**
   * The most one call may pay, in dollars (a number or a decimal string, at most 6 decimals).
   * Default DEFAULT_X402_MAX_AMOUNT, $0.10. A seller asking more gets nothing: the call throws
   * an X402PriceCapError and nothing is signed.
   */
  maxAmount?: number | string;
  /** Default description and category of the payments (a call's own win). */
  description?: string;
  category?: string;
}

/** The payment behind a Response of `wrapFetch`, and the agent API call that made it. */
export interface X402PaymentInfo {
  /** Null when the seller did not ask for payment. `protocol`: the wire it was paid in, x402 or MPP. */
  payment: { intentId: string; status: string; transactionHash: string | null; protocol: PaymentProtocol } | null;
  /** The seller's decoded PAYMENT-RESPONSE header (x402), when it sent one. */
  paymentResponse: Record<string, unknown> | null;
  /** An MPP seller's Payment-Receipt, decoded, and whether the chain confirms the transaction it names; null otherwise. */
  mppReceipt: MppReceipt | null;
  /** The agent API call: its request id, idempotency key, replay flag and rate limit. */
  purser: ResponseMeta;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
/** Statuses whose Response may not have a body (fetch's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const DOLLARS = /^(?:0|[1-9][0-9]*)(?:\.[0-9]{1,6})?$/;

const paymentInfo = new WeakMap<Response, X402PaymentInfo>();

/** What paid for a Response of `wrapFetch`; undefined for any other Response. */
export function x402PaymentInfo(response: Response): X402PaymentInfo | undefined {
  return paymentInfo.get(response);
}

/**
 * ```ts
 * const fetchWithPayment = wrapFetch(fetch, { agent, maxAmount: 0.05 });
 * const response = await fetchWithPayment('https://api.example.com/paid/report');
 * const report = await response.json();
 * ```
 * `fetch` is what reaches Purser's agent API (the seller is called by Purser, which pays it).
 * The returned function throws an X402PriceCapError above the cap, an X402PaymentPendingError
 * while the payment waits for the owner's approval, a PurserApiError for any other refusal
 * (spending rules, policies, balance) and a PurserConnectionError when Purser could not be
 * reached; a seller's own error status (404, 500) is a Response like any other.
 */
export function wrapFetch(fetch: typeof globalThis.fetch, options: WrapFetchOptions): (input: string | URL | Request, init?: X402RequestInit) => Promise<Response> {
  if (typeof fetch !== 'function') throw new TypeError('wrapFetch needs the fetch to call the agent API with, e.g. globalThis.fetch');
  const transport = agentTransport(options.agent instanceof PurserAgentClient ? options.agent : new PurserAgentClient(options.agent), fetch);
  const defaultCap = checkedMaxAmount(options.maxAmount ?? DEFAULT_X402_MAX_AMOUNT);

  return async (input, init) => {
    const call = init?.purser ?? {};
    const request = new Request(input, init);
    const method = request.method.toUpperCase();
    if (!METHODS.has(method)) throw new TypeError(`The agent API fetches with ${[...METHODS].join(', ')}; not ${method}`);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const body: PaidFetchBody = {
      url: request.url,
      method,
      headers,
      max_amount: call.maxAmount !== undefined ? checkedMaxAmount(call.maxAmount) : defaultCap,
      ...(await requestText(request)),
      ...optional('description', call.description ?? options.description),
      ...optional('category', call.category ?? options.category),
    };
    const { data, response } = await sendPaidFetch(transport, body, {
      idempotencyKey: call.idempotencyKey ?? request.headers.get('idempotency-key') ?? undefined,
      signal: init?.signal ?? (input instanceof Request ? input.signal : undefined),
      ...optional('timeoutMs', call.timeoutMs),
      ...optional('retry', call.retry),
    });
    if (data.kind === 'pending_approval') throw new X402PaymentPendingError(data.payment, response.idempotencyKey);
    return toResponse(data.response, request.url, method, response);
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** A positive number of dollars with at most 6 decimals, as the API takes it. */
function checkedMaxAmount(value: number | string): string {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (!DOLLARS.test(text) || Number(text) <= 0) {
    throw new TypeError(`maxAmount must be a positive number of dollars with at most 6 decimals, such as 0.10; got ${JSON.stringify(value)}`);
  }
  return text;
}

/** The agent API forwards request bodies as text, so a body must be UTF-8. */
async function requestText(request: Request): Promise<{ body?: string }> {
  if (request.body === null) return {};
  const bytes = await request.arrayBuffer();
  try {
    return { body: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    throw new TypeError('The agent API forwards request bodies as text: this body is not UTF-8 (send binary data base64-encoded)');
  }
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function toResponse(view: X402UpstreamResponse, url: string, method: string, purser: ResponseMeta): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(view.headers)) {
    try {
      headers.append(name, value);
    } catch {
      // A header fetch's Headers refuses (a forbidden byte): the seller's, so dropped rather than failing the paid call.
    }
  }
  const bytes = view.body_encoding === 'base64' ? decodeBase64(view.body) : new TextEncoder().encode(view.body);
  const nullBody = NULL_BODY_STATUSES.has(view.status) || method === 'HEAD';
  const response = new Response(nullBody ? null : bytes, { status: view.status, headers });
  // A constructed Response has an empty url; fetch's names what was fetched.
  Object.defineProperty(response, 'url', { value: url, enumerable: true });
  const { payment } = view;
  paymentInfo.set(response, {
    // A server from before MPP names no protocol: it paid in x402.
    payment: payment ? { intentId: payment.intent_id, status: payment.status, transactionHash: payment.transaction_hash, protocol: payment.protocol ?? 'x402' } : null,
    paymentResponse: view.payment_response,
    mppReceipt: view.mpp_receipt ?? null,
    purser,
  });
  return response;
}
