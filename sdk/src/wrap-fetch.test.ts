/**
 * wrapFetch against a stand-in for the agent API's POST /pay/fetch that keeps its contract
 * (core's x402FetchInput and x402UpstreamResponseView: text bodies as UTF-8, others as base64,
 * 202 with the pending payment, 422 above max_amount): what comes back is a real Response with
 * the seller's exact bytes, every call carries a price cap, refusals are typed, and a retried
 * call keeps its idempotency key. sdk/test/sdk.temporal.test.ts runs the same against the product.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_X402_MAX_AMOUNT, PurserAgentClient } from './agent-client';
import { PurserApiError, PurserConnectionError, X402PaymentPendingError, X402PriceCapError } from './errors';
import { wrapFetch, x402PaymentInfo } from './wrap-fetch';

const ORIGIN = 'http://purser.test';
const FETCH_PATH = '/functions/v1/mcp-server/pay/fetch';
/** The same endpoint under its first name, which x402.fetch keeps calling. */
const X402_FETCH_PATH = '/functions/v1/mcp-server/x402/fetch';
const agentOptions = { baseUrl: ORIGIN, did: 'did:agnic:00000000-0000-4000-8000-000000000000', apiKey: 'pak_x', sleep: async () => {} };

/** Every byte value, in an order no text encoding would keep. */
const BINARY = Uint8Array.from({ length: 512 }, (_, index) => (index * 167) % 256);

interface Seller {
  /** Dollars; absent: free. */
  price?: number;
  status?: number;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** The payment waits for the owner (202). */
  pending?: boolean;
  /** Paid through MPP: the answer names the protocol and carries the seller's Payment-Receipt. */
  mpp?: boolean;
}

interface Call {
  headers: Headers;
  body: Record<string, unknown>;
}

function agentApi(sellers: Record<string, Seller>, failFirst: Array<number | 'network'> = [], path = FETCH_PATH) {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    // As fetch does: an aborted signal rejects with its reason.
    init.signal?.throwIfAborted();
    const url = new URL(String(input));
    expect(`${init.method} ${url.pathname}`).toBe(`POST ${path}`);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    calls.push({ headers: new Headers(init.headers), body });
    const failure = failFirst.shift();
    if (failure === 'network') throw new TypeError('fetch failed');
    if (failure !== undefined) return Response.json({ error: { code: 'UNAVAILABLE', message: 'gateway' } }, { status: failure });
    const seller = sellers[String(body.url)];
    if (!seller) return Response.json({ error: { code: 'UPSTREAM_ERROR', message: 'no such seller' } }, { status: 502 });
    if (seller.price !== undefined && seller.price > Number(body.max_amount)) {
      return Response.json(
        { error: { code: 'POLICY_VIOLATION', message: `The seller asks ${seller.price} USDC, more than max_amount ${Number(body.max_amount)}; nothing was paid` } },
        { status: 422, headers: { 'x-request-id': 'req-cap' } },
      );
    }
    if (seller.pending) {
      return Response.json(
        { intent_id: 'i-pending', status: 'pending_approval', xPaymentHeader: null, x_payment_header: null, header_name: 'PAYMENT-SIGNATURE', x402_version: 2, amount: seller.price, amount_exact: String(seller.price), pay_to: '0x1', network: 'eip155:84532', valid_before: null, message: 'waits' },
        { status: 202 },
      );
    }
    const bytes = typeof seller.body === 'string' ? new TextEncoder().encode(seller.body) : (seller.body ?? new Uint8Array());
    const type = seller.headers?.['content-type'] ?? '';
    const textual = type === '' || /^text\/|json/.test(type);
    return Response.json(
      {
        status: seller.status ?? 200,
        headers: seller.headers ?? {},
        body: textual ? new TextDecoder().decode(bytes) : btoa(String.fromCharCode(...bytes)),
        body_encoding: textual ? 'utf8' : 'base64',
        payment_response: seller.price !== undefined && !seller.mpp ? { success: true, transaction: '0xabc' } : null,
        payment: seller.price !== undefined ? { intent_id: 'i-1', status: 'settled', transaction_hash: '0xabc', ...(seller.mpp ? { protocol: 'mpp' } : {}) } : null,
        ...(seller.mpp ? { mpp_receipt: { method: 'evm', status: 'success', reference: '0xabc', timestamp: '2026-12-01T00:00:00Z', confirmed: true } } : {}),
      },
      { headers: { 'x-request-id': 'req-1', 'x-ratelimit-remaining': '99' } },
    );
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'no error',
    (error: unknown) => error,
  );
}

describe('wrapFetch', () => {
  it('has the shape of fetch: the wrapper is assignable to typeof fetch and answers a Response', async () => {
    const api = agentApi({ 'https://seller.example/weather': { price: 0.01, headers: { 'content-type': 'application/json', 'x-seller': 'yes' }, body: '{"city":"Lisbon"}' } });
    const fetchWithPayment: typeof globalThis.fetch = wrapFetch(api.fetch, { agent: agentOptions });
    const response = await fetchWithPayment('https://seller.example/weather');
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.url).toBe('https://seller.example/weather');
    expect(response.headers.get('x-seller')).toBe('yes');
    expect(await response.json()).toEqual({ city: 'Lisbon' });
    expect(x402PaymentInfo(response)).toMatchObject({
      payment: { intentId: 'i-1', status: 'settled', transactionHash: '0xabc', protocol: 'x402' },
      paymentResponse: { success: true },
      mppReceipt: null,
      purser: { status: 200, requestId: 'req-1', rateLimit: { remaining: 99 }, idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
  });

  it('names the protocol a call was paid in, and an MPP seller’s receipt', async () => {
    const api = agentApi({ 'https://seller.example/headlines': { price: 0.01, mpp: true, headers: { 'content-type': 'application/json' }, body: '{"headlines":[]}' } });
    const response = await wrapFetch(api.fetch, { agent: agentOptions })('https://seller.example/headlines');
    expect(await response.json()).toEqual({ headlines: [] });
    expect(x402PaymentInfo(response)).toMatchObject({
      payment: { intentId: 'i-1', transactionHash: '0xabc', protocol: 'mpp' },
      paymentResponse: null,
      mppReceipt: { method: 'evm', status: 'success', reference: '0xabc', confirmed: true },
    });
  });

  it('hands back a binary body byte for byte, decoded from the API’s base64', async () => {
    const api = agentApi({ 'https://seller.example/image': { price: 0.02, headers: { 'content-type': 'image/png' }, body: BINARY } });
    const response = await wrapFetch(api.fetch, { agent: agentOptions })('https://seller.example/image');
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(BINARY);
  });

  it('keeps UTF-8 text exact, and a seller’s error status is a Response, not an exception', async () => {
    const text = 'Grüße, 東京 🌧️';
    const api = agentApi({ 'https://seller.example/text': { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text }, 'https://seller.example/missing': { status: 404, body: 'not here' } });
    const fetchWithPayment = wrapFetch(api.fetch, { agent: agentOptions });
    const response = await fetchWithPayment('https://seller.example/text');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new TextEncoder().encode(text));
    expect(x402PaymentInfo(response)!.payment).toBeNull();
    const missing = await fetchWithPayment(new URL('https://seller.example/missing'));
    expect([missing.status, missing.ok, await missing.text()]).toEqual([404, false, 'not here']);
  });

  it('sends the default cap of $0.10 with every call, the wrapper’s cap instead when given, and a call’s own above both', async () => {
    const seller = { 'https://seller.example/q': { price: 0.01, body: 'q' } };
    const api = agentApi(seller);
    expect(DEFAULT_X402_MAX_AMOUNT).toBe('0.10');
    await wrapFetch(api.fetch, { agent: agentOptions })('https://seller.example/q');
    await wrapFetch(api.fetch, { agent: agentOptions, maxAmount: 0.05 })('https://seller.example/q');
    await wrapFetch(api.fetch, { agent: agentOptions, maxAmount: '0.05' })('https://seller.example/q', { purser: { maxAmount: '2.5' } });
    expect(api.calls.map((call) => call.body.max_amount)).toEqual(['0.10', '0.05', '2.5']);
  });

  it('refuses a price above the cap with an X402PriceCapError, a PurserApiError naming cap and price', async () => {
    const api = agentApi({ 'https://seller.example/report': { price: 0.25, body: 'report' } });
    const error = await caught(wrapFetch(api.fetch, { agent: agentOptions })('https://seller.example/report'));
    expect(error).toBeInstanceOf(X402PriceCapError);
    expect(error).toBeInstanceOf(PurserApiError);
    expect(error).toMatchObject({ name: 'X402PriceCapError', status: 422, code: 'POLICY_VIOLATION', maxAmount: '0.10', price: '0.25', requestId: 'req-cap' });
    // Not retried: a refusal is final.
    expect(api.calls).toHaveLength(1);
  });

  it('throws an X402PaymentPendingError with the key to ask again with while the owner has not approved', async () => {
    const api = agentApi({ 'https://seller.example/big': { price: 0.05, pending: true } });
    const fetchWithPayment = wrapFetch(api.fetch, { agent: agentOptions });
    const error = (await caught(fetchWithPayment('https://seller.example/big', { purser: { idempotencyKey: 'order-7' } }))) as X402PaymentPendingError;
    expect(error).toBeInstanceOf(X402PaymentPendingError);
    expect(error).toMatchObject({ intentId: 'i-pending', idempotencyKey: 'order-7', payment: { status: 'pending_approval' } });
  });

  it('sends the same idempotency key on every retry of a call, and a new one for the next call', async () => {
    const api = agentApi({ 'https://seller.example/q': { price: 0.01, body: 'q' } }, [503, 'network']);
    const fetchWithPayment = wrapFetch(api.fetch, { agent: agentOptions });
    expect(await (await fetchWithPayment('https://seller.example/q')).text()).toBe('q');
    await fetchWithPayment('https://seller.example/q');
    const keys = api.calls.map((call) => call.headers.get('idempotency-key'));
    expect(keys).toHaveLength(4);
    expect(new Set(keys.slice(0, 3)).size).toBe(1);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('takes the key from an Idempotency-Key request header, so a caller’s own retries pay once', async () => {
    const api = agentApi({ 'https://seller.example/q': { price: 0.01, body: 'q' } });
    const fetchWithPayment = wrapFetch(api.fetch, { agent: new PurserAgentClient(agentOptions) });
    await fetchWithPayment('https://seller.example/q', { headers: { 'Idempotency-Key': 'job-9' } });
    await fetchWithPayment(new Request('https://seller.example/q', { headers: { 'idempotency-key': 'job-9' } }));
    expect(api.calls.map((call) => call.headers.get('idempotency-key'))).toEqual(['job-9', 'job-9']);
  });

  it('forwards the method, headers and a text body, with the payment’s description and category', async () => {
    const api = agentApi({ 'https://seller.example/search': { price: 0.01, body: '[]' } });
    const fetchWithPayment = wrapFetch(api.fetch, { agent: agentOptions, category: 'research' });
    await fetchWithPayment('https://seller.example/search', {
      method: 'post',
      headers: { 'content-type': 'application/json', 'x-trace': 't-1' },
      body: JSON.stringify({ q: 'café' }),
      purser: { description: 'Search' },
    });
    expect(api.calls[0]!.body).toMatchObject({
      url: 'https://seller.example/search',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace': 't-1' },
      body: '{"q":"café"}',
      description: 'Search',
      category: 'research',
    });
    expect(api.calls[0]!.body).not.toHaveProperty('purser');
  });

  it('refuses what the agent API cannot carry before calling it: a binary request body, another method, a bad cap', async () => {
    const api = agentApi({});
    const fetchWithPayment = wrapFetch(api.fetch, { agent: agentOptions });
    await expect(fetchWithPayment('https://seller.example/upload', { method: 'PUT', body: new Uint8Array([0xff, 0xfe, 0x00]) })).rejects.toThrow(/not UTF-8/);
    await expect(fetchWithPayment('https://seller.example/x', { method: 'OPTIONS' })).rejects.toThrow(TypeError);
    await expect(fetchWithPayment('https://seller.example/x', { purser: { maxAmount: -1 } })).rejects.toThrow(/maxAmount/);
    expect(() => wrapFetch(api.fetch, { agent: agentOptions, maxAmount: '0.0000001' })).toThrow(/maxAmount/);
    expect(() => wrapFetch(api.fetch, { agent: agentOptions, maxAmount: 0 })).toThrow(/maxAmount/);
    expect(api.calls).toHaveLength(0);
  });

  it('gives a HEAD or a 204 a Response without a body', async () => {
    const api = agentApi({ 'https://seller.example/empty': { status: 204 } });
    const fetchWithPayment = wrapFetch(api.fetch, { agent: agentOptions });
    expect((await fetchWithPayment('https://seller.example/empty')).body).toBeNull();
    expect((await fetchWithPayment('https://seller.example/empty', { method: 'HEAD' })).body).toBeNull();
  });

  it('aborts with the caller’s signal, and reports Purser unreachable as a PurserConnectionError', async () => {
    const api = agentApi({ 'https://seller.example/q': { body: 'q' } }, ['network', 'network', 'network']);
    const fetchWithPayment = wrapFetch(api.fetch, { agent: agentOptions });
    const error = await caught(fetchWithPayment('https://seller.example/q'));
    expect(error).toBeInstanceOf(PurserConnectionError);
    const controller = new AbortController();
    controller.abort(new Error('user gave up'));
    await expect(fetchWithPayment('https://seller.example/q', { signal: controller.signal })).rejects.toThrow('user gave up');
  });
});

describe.each([
  { name: 'paidFetch', path: FETCH_PATH, send: (agent: PurserAgentClient) => agent.paidFetch.bind(agent) },
  { name: 'x402.fetch, its first name', path: X402_FETCH_PATH, send: (agent: PurserAgentClient) => agent.x402.fetch },
])('$name', ({ path, send }) => {
  it('sends the default cap when the call names none, and types a refusal above it', async () => {
    const api = agentApi({ 'https://seller.example/q': { price: 0.01, body: 'q' }, 'https://seller.example/report': { price: 0.25, body: 'r' } }, [], path);
    const fetchPaid = send(new PurserAgentClient({ ...agentOptions, fetch: api.fetch }));
    const result = await fetchPaid({ url: 'https://seller.example/q' });
    expect(result).toMatchObject({ kind: 'response', response: { status: 200, body: 'q' } });
    await fetchPaid({ url: 'https://seller.example/q', max_amount: 0.5 });
    expect(api.calls.map((call) => call.body.max_amount)).toEqual(['0.10', 0.5]);
    expect(await caught(fetchPaid({ url: 'https://seller.example/report' }))).toMatchObject({ name: 'X402PriceCapError', maxAmount: '0.10', price: '0.25' });
  });
});
