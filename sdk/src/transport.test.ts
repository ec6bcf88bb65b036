/**
 * The rules every call follows (retries, idempotency keys, time limits, errors), driven through
 * the public clients with an injected fetch that plays scripted answers, and an injected sleep
 * that records the waits instead of waiting.
 */
import { describe, expect, it } from 'vitest';
import { PurserAgentClient } from './agent-client';
import { isPurserApiError, PurserApiError, PurserConnectionError, UNEXPECTED_RESPONSE } from './errors';
import { PurserOwnerClient } from './owner-client';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Step = Response | Error | 'hang';

/** A fetch that answers each call with the next step; the last step repeats. */
function scripted(...steps: Step[]) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    sent.push({ url: String(input), method: init.method ?? 'GET', headers, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    const step = steps[Math.min(sent.length - 1, steps.length - 1)]!;
    if (step === 'hang') {
      return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    if (step instanceof Error) throw step;
    return step.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

const apiError = (status: number, code: string, message = code, headers: Record<string, string> = {}) => json(status, { error: { code, message } }, headers);
const networkError = () => new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });

const PAYMENT = { intent_id: 'i-1', status: 'settled' };
const AGENT_ID = '6a1f0e4c-5d0b-4f5e-9a55-0f5e0c6f1a11';

function clients(fetch: typeof globalThis.fetch, extra: { timeoutMs?: number; now?: () => number } = {}) {
  const waits: number[] = [];
  const common = {
    baseUrl: 'http://purser.test/',
    fetch,
    sleep: async (ms: number) => void waits.push(ms),
    random: () => 0,
    ...extra,
  };
  return {
    waits,
    owner: new PurserOwnerClient({ ...common, token: 'owner-token' }),
    agent: new PurserAgentClient({ ...common, did: 'did:agnic:6a1f0e4c-5d0b-4f5e-9a55-0f5e0c6f1a11', apiKey: 'pak_secret' }),
  };
}

describe('retries', () => {
  it('retries a payment answered 503 with the same idempotency key and returns the success', async () => {
    const { fetch, sent } = scripted(apiError(503, 'UNAVAILABLE'), json(200, PAYMENT));
    const { agent, waits } = clients(fetch);
    await expect(agent.pay({ amount: 1, to_address: 'merchant' })).resolves.toEqual(PAYMENT);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.headers['idempotency-key']).toBe(sent[0]!.headers['idempotency-key']);
    expect(waits).toEqual([200]);
  });

  it('backs off exponentially from 200 ms, up to the cap, for as many attempts as configured', async () => {
    const { fetch, sent } = scripted(apiError(504, 'GATEWAY'), apiError(502, 'BAD_GATEWAY'), apiError(503, 'UNAVAILABLE'), apiError(503, 'UNAVAILABLE'), json(200, []));
    const { owner, waits } = clients(fetch);
    await expect(owner.agents.list({ retry: { maxAttempts: 5, maxDelayMs: 1000 } })).resolves.toEqual([]);
    expect(sent).toHaveLength(5);
    expect(waits).toEqual([200, 400, 800, 1000]);
  });

  it('gives up after maxAttempts with the last answer as a PurserApiError', async () => {
    const { fetch, sent } = scripted(apiError(503, 'UNAVAILABLE', 'The payment engine could not start the payment'));
    const { agent, waits } = clients(fetch);
    const error = await agent.pay({ amount: 1, to_address: 'merchant' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PurserApiError);
    expect(error).toMatchObject({ status: 503, code: 'UNAVAILABLE', message: 'The payment engine could not start the payment', operationId: 'agentPayment' });
    expect((error as PurserApiError).idempotencyKey).toBe(sent[0]!.headers['idempotency-key']);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([200, 400]);
  });

  it('honours Retry-After in seconds on a 429, even for a call that is not safe to repeat', async () => {
    const { fetch, sent } = scripted(apiError(429, 'RATE_LIMITED', 'Too many requests', { 'retry-after': '3' }), json(201, { agent: {}, api_key: {} }));
    const { owner, waits } = clients(fetch);
    await owner.agents.create({ name: 'Research agent' });
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([3000]);
  });

  it('honours Retry-After given as an HTTP date, read against the injected clock', async () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    const { fetch } = scripted(apiError(429, 'RATE_LIMITED', 'Too many requests', { 'retry-after': 'Mon, 23 Nov 2026 10:00:02 GMT' }), json(200, { transactions: [] }));
    const { agent, waits } = clients(fetch, { now: () => now });
    await agent.transactions();
    expect(waits).toEqual([2000]);
  });

  it('does not wait out a Retry-After beyond maxRetryAfterMs: the 429 is thrown with retryAfterMs', async () => {
    const { fetch, sent } = scripted(apiError(429, 'RATE_LIMITED', 'Too many requests', { 'retry-after': '120' }));
    const { agent, waits } = clients(fetch);
    await expect(agent.balance()).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 120_000 });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it.each([400, 401, 403, 404, 409, 413, 422, 500])('never retries a %i', async (status) => {
    const { fetch, sent } = scripted(apiError(status, 'SOME_CODE'), json(200, PAYMENT));
    const { agent, waits } = clients(fetch);
    await expect(agent.pay({ amount: 1, to_address: 'merchant' })).rejects.toMatchObject({ status, code: 'SOME_CODE' });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry a 502, 503 or 504 of a create that has no idempotency key: it may have run', async () => {
    for (const status of [502, 503, 504]) {
      const { fetch, sent } = scripted(apiError(status, 'UPSTREAM'), json(201, {}));
      const { owner } = clients(fetch);
      await expect(owner.agents.create({ name: 'Once' })).rejects.toMatchObject({ status });
      expect(sent).toHaveLength(1);
    }
  });

  it('retries a read-only POST (credential verification) on 503', async () => {
    const { fetch, sent } = scripted(apiError(503, 'UNAVAILABLE'), json(200, { valid: true }));
    const { owner } = clients(fetch);
    await expect(owner.credentials.verify({ credential: 'eyJ...' })).resolves.toEqual({ valid: true });
    expect(sent).toHaveLength(2);
  });

  it("does not retry x402 requirements on 503: it calls the seller's URL, which may not be safe to call twice", async () => {
    const { fetch, sent } = scripted(apiError(503, 'UNAVAILABLE'), json(200, { payment_required: false }));
    const { agent } = clients(fetch);
    await expect(agent.x402.requirements({ url: 'https://seller.test/', method: 'POST', body: '{}' })).rejects.toMatchObject({ status: 503 });
    expect(sent).toHaveLength(1);
  });
});

describe('network failures', () => {
  it('retries a GET and a money-moving call after a connection failure, the latter with its key', async () => {
    const read = scripted(networkError(), json(200, { id: 'w' }));
    const { owner } = clients(read.fetch);
    await expect(owner.wallet.get()).resolves.toEqual({ id: 'w' });
    expect(read.sent).toHaveLength(2);

    const pay = scripted(networkError(), networkError(), json(200, PAYMENT));
    const { agent, waits } = clients(pay.fetch);
    await expect(agent.pay({ amount: 1, to_address: 'm' }, { idempotencyKey: 'order-77' })).resolves.toEqual(PAYMENT);
    expect(pay.sent.map((request) => request.headers['idempotency-key'])).toEqual(['order-77', 'order-77', 'order-77']);
    expect(waits).toEqual([200, 400]);
  });

  it('does not retry a connection failure of a call without a key that is not safe to repeat', async () => {
    const { fetch, sent } = scripted(networkError(), json(201, {}));
    const { owner } = clients(fetch);
    const error = await owner.policies.create({ name: 'Cap', rules: { dailyCap: 10 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PurserConnectionError);
    expect(error).toMatchObject({ operationId: 'createPolicy', timedOut: false, idempotencyKey: undefined });
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(sent).toHaveLength(1);
  });

  it('fails an attempt that outlives timeoutMs as a timed-out PurserConnectionError', async () => {
    const { fetch, sent } = scripted('hang');
    const { agent } = clients(fetch, { timeoutMs: 20 });
    const error = await agent.x402.proxy({ url: 'https://seller.test/', payment_header: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PurserConnectionError);
    expect(error).toMatchObject({ timedOut: true, operationId: 'x402Proxy' });
    expect(sent).toHaveLength(1);
  });

  it('retries a timed-out money-moving call with the same key', async () => {
    const { fetch, sent } = scripted('hang', json(200, { status: 200, body: '' }));
    const { agent } = clients(fetch, { timeoutMs: 20 });
    await expect(agent.x402.fetch({ url: 'https://seller.test/' })).resolves.toMatchObject({ kind: 'response' });
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['idempotency-key']).toBe(sent[0]!.headers['idempotency-key']);
  });

  it("stops at once when the caller's signal aborts, with the caller's reason", async () => {
    const { fetch, sent } = scripted('hang');
    const { agent } = clients(fetch);
    const controller = new AbortController();
    const paying = agent.pay({ amount: 1, to_address: 'm' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 5);
    await expect(paying).rejects.toThrow('user cancelled');
    expect(sent).toHaveLength(1);
  });
});

describe('idempotency keys', () => {
  it('sends a fresh random key with every money-moving call and none with other calls', async () => {
    const { fetch, sent } = scripted(json(200, {}));
    const { owner, agent } = clients(fetch);
    await owner.wallet.topUp({ amount: 10 });
    await owner.wallet.topUp({ amount: 10 });
    await owner.wallet.fundAgent({ agent_id: AGENT_ID, amount: 5 });
    await owner.intents.create({ agentId: AGENT_ID, amount: 1 });
    await agent.x402.signPayment({ requirement: { scheme: 'exact' } });
    await owner.agents.create({ name: 'No key' });
    await agent.x402.proxy({ url: 'https://seller.test/' });
    const keys = sent.map((request) => request.headers['idempotency-key']);
    expect(keys.slice(0, 5).every((key) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(key ?? ''))).toBe(true);
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(keys.slice(5)).toEqual([undefined, undefined]);
  });

  it("uses the caller's key, or the key in the body, and refuses two different ones", async () => {
    const { fetch, sent } = scripted(json(200, {}));
    const { owner, agent } = clients(fetch);
    await owner.wallet.topUp({ amount: 10 }, { idempotencyKey: 'top-up-1' });
    await agent.pay({ amount: 1, to_address: 'm', idempotency_key: 'pay-1' });
    await owner.intents.create({ agentId: AGENT_ID, amount: 1, idempotencyKey: 'intent-1' }, { idempotencyKey: 'intent-1' });
    expect(sent.map((request) => request.headers['idempotency-key'])).toEqual(['top-up-1', 'pay-1', 'intent-1']);
    await expect(agent.pay({ amount: 1, to_address: 'm', idempotency_key: 'a' }, { idempotencyKey: 'b' })).rejects.toThrow(TypeError);
    expect(sent).toHaveLength(3);
  });
});

describe('requests', () => {
  it('joins the base URL, encoded path parameters and the query, and sends the owner token', async () => {
    const { fetch, sent } = scripted(json(200, []));
    let calls = 0;
    const owner = new PurserOwnerClient({ baseUrl: 'http://purser.test/prefix/', fetch, token: () => `token-${++calls}` });
    await owner.agents.transactions('a/b', { limit: 5 });
    await owner.policies.list({ agentId: AGENT_ID, includeSuperseded: true });
    await owner.intents.list({ status: 'settled', cursor: undefined });
    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET http://purser.test/prefix/api/v1/agents/a%2Fb/transactions?limit=5',
      `GET http://purser.test/prefix/api/v1/policies?agentId=${AGENT_ID}&includeSuperseded=true`,
      'GET http://purser.test/prefix/api/v1/intents?status=settled',
    ]);
    expect(sent.map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2', 'Bearer token-3']);
  });

  it('sends a list filter as its name repeated, and every other filter once, encoded', async () => {
    const { fetch, sent } = scripted(json(200, { intents: [], nextCursor: null }));
    const { owner } = clients(fetch);
    await owner.intents.list({
      status: ['pending_approval', 'failed'],
      rail: 'x402-base',
      agentId: AGENT_ID,
      from: '2026-11-01T00:00:00Z',
      to: '2026-11-26T00:00:00+01:00',
      minAmount: 0,
      maxAmount: '12.5',
      search: 'GPU & co',
      limit: 20,
      cursor: 'opaque/cursor',
    });
    await owner.audit.list({ subject: 'payment_intent:*', action: 'agent.suspended', limit: 10 });
    await owner.budgetAlerts.list({ agentId: AGENT_ID, limit: 5 });
    const urls = sent.map((request) => new URL(request.url));
    expect(urls.map((url) => url.pathname)).toEqual(['/api/v1/intents', '/api/v1/audit-entries', '/api/v1/budget-alerts']);
    expect([...urls[0]!.searchParams]).toEqual([
      ['status', 'pending_approval'],
      ['status', 'failed'],
      ['rail', 'x402-base'],
      ['agentId', AGENT_ID],
      ['from', '2026-11-01T00:00:00Z'],
      ['to', '2026-11-26T00:00:00+01:00'],
      ['minAmount', '0'],
      ['maxAmount', '12.5'],
      ['search', 'GPU & co'],
      ['limit', '20'],
      ['cursor', 'opaque/cursor'],
    ]);
    expect(urls[1]!.search).toBe('?subject=payment_intent%3A*&action=agent.suspended&limit=10');
    expect(urls[2]!.search).toBe(`?agentId=${AGENT_ID}&limit=5`);
  });

  it('reads the audit export as JSON Lines text, as sent, and an error of it as JSON', async () => {
    const lines = '{"seq":"1","chainSeq":"1"}\n{"seq":"4","chainSeq":"2"}\n';
    const { fetch, sent } = scripted(new Response(lines, { status: 200, headers: { 'content-type': 'application/x-ndjson' } }));
    const { owner } = clients(fetch);
    await expect(owner.audit.export()).resolves.toBe(lines);
    expect(sent[0]).toMatchObject({ method: 'GET', url: 'http://purser.test/api/v1/audit-entries/export' });
    expect(sent[0]!.headers.accept).toBe('application/x-ndjson, application/json');

    const refused = scripted(apiError(401, 'UNAUTHORIZED', 'Missing or invalid credentials'));
    await expect(clients(refused.fetch).owner.audit.export()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED', operationId: 'exportAuditEntries' });
  });

  it('sends the kill switch, its state, the audit verification and a payment in full to their paths, with no body', async () => {
    const { fetch, sent } = scripted(json(200, {}));
    const { owner } = clients(fetch);
    await owner.agents.pauseAll();
    await owner.agents.resumeAll();
    await owner.agents.killSwitch();
    await owner.audit.verify();
    await owner.intents.detail('i/1');
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /api/v1/agents/pause-all',
      'POST /api/v1/agents/resume-all',
      'GET /api/v1/agents/kill-switch',
      'GET /api/v1/audit-entries/verification',
      'GET /api/v1/intents/i%2F1/detail',
    ]);
    expect(sent.map((request) => request.body)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(sent.map((request) => request.headers['idempotency-key'])).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('authenticates agent calls with X-Agent-DID and the agent key as the bearer token', async () => {
    const { fetch, sent } = scripted(json(200, {}));
    const { agent } = clients(fetch);
    await agent.info();
    expect(sent[0]).toMatchObject({
      method: 'GET',
      url: 'http://purser.test/functions/v1/mcp-server/info',
      headers: { 'x-agent-did': 'did:agnic:6a1f0e4c-5d0b-4f5e-9a55-0f5e0c6f1a11', authorization: 'Bearer pak_secret', accept: 'application/json' },
    });
  });

  it('sends one header per name whatever its case, the SDK’s own winning', async () => {
    const { fetch, sent } = scripted(json(200, {}));
    const owner = new PurserOwnerClient({ baseUrl: 'http://purser.test', fetch, token: 'real', headers: { Authorization: 'Bearer other', 'X-Trace': 'client' } });
    await owner.wallet.get({ headers: { 'x-trace': 'call', ACCEPT: 'text/html' } });
    expect(sent[0]!.headers).toMatchObject({ authorization: 'Bearer real', 'x-trace': 'call', accept: 'application/json' });
  });

  it('refuses a base URL that is not absolute before sending anything', () => {
    expect(() => new PurserOwnerClient({ baseUrl: 'purser.test', token: 't' })).toThrow(TypeError);
  });

  it('tells a 202 of x402 fetch (waiting for approval) from the seller’s answer', async () => {
    const pending = { intent_id: 'i-9', status: 'pending_approval', xPaymentHeader: null };
    const { fetch } = scripted(json(202, pending));
    const { agent } = clients(fetch);
    await expect(agent.x402.fetch({ url: 'https://seller.test/', max_amount: 0.02 })).resolves.toEqual({ kind: 'pending_approval', payment: pending });
  });
});

describe('errors', () => {
  it('carries the status, the stable code, the message and the request id of the body or header', async () => {
    const { fetch } = scripted(json(500, { error: { code: 'INTERNAL', message: 'Internal server error', request_id: 'req-body' } }, { 'x-request-id': 'req-header' }));
    const { owner } = clients(fetch);
    const error = await owner.wallet.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PurserApiError);
    expect(error).toMatchObject({ name: 'PurserApiError', status: 500, code: 'INTERNAL', message: 'Internal server error', requestId: 'req-body', operationId: 'getWallet' });

    expect(isPurserApiError(error, 'INTERNAL')).toBe(true);
    expect(isPurserApiError(error, 'NOT_FOUND')).toBe(false);
    expect(isPurserApiError(new Error('x'))).toBe(false);

    const fromHeader = scripted(apiError(422, 'INSUFFICIENT_FUNDS', 'Not enough USDC', { 'x-request-id': 'req-7' }));
    await expect(clients(fromHeader.fetch).agent.pay({ amount: 1, to_address: 'm' })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', requestId: 'req-7' });
  });

  it('reports a body that is not the API error shape as UNEXPECTED_RESPONSE with its text', async () => {
    const { fetch } = scripted(new Response('<html>Bad gateway</html>', { status: 502 }));
    const { owner } = clients(fetch);
    const error = (await owner.agents.create({ name: 'x' }).catch((caught: unknown) => caught)) as PurserApiError;
    expect(error).toMatchObject({ status: 502, code: UNEXPECTED_RESPONSE, body: '<html>Bad gateway</html>' });
    expect(error.message).toContain('Bad gateway');
  });
});
