/**
 * What SDK methods answer: still a Promise of the data (awaited, `.catch`, `Promise.all`), plus
 * the answer's metadata on `.withResponse()`, and for the cursor-paged lists an async iterator
 * that follows `nextCursor` page by page, asking for each page only when it is needed.
 */
import { describe, expect, it } from 'vitest';
import { ApiPromise, PagePromise } from './api-promise';
import { PurserApiError } from './errors';
import { PurserAgentClient } from './agent-client';
import { PurserOwnerClient } from './owner-client';

const ORIGIN = 'http://purser.test';

interface Sent {
  url: URL;
  headers: Headers;
}

function fakeApi(answer: (sent: Sent, index: number) => Response) {
  const sent: Sent[] = [];
  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const call = { url: new URL(String(input)), headers: new Headers(init.headers) };
    sent.push(call);
    return answer(call, sent.length - 1);
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('an SDK method', () => {
  it('answers a Promise of the data, as before', async () => {
    const api = fakeApi(() => json({ user_id: 'u-1', balance_usdc: 5 }));
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    const wallet = purser.wallet.get();
    expect(wallet).toBeInstanceOf(Promise);
    expect(wallet).toBeInstanceOf(ApiPromise);
    expect(await wallet).toEqual({ user_id: 'u-1', balance_usdc: 5 });
    const [a, b] = await Promise.all([purser.wallet.get(), purser.wallet.get()]);
    expect(a).toEqual(b);
    expect(await purser.wallet.get().then((got) => got.balance_usdc)).toBe(5);
  });

  it('rejects through then, catch and finally alike', async () => {
    const api = fakeApi(() => json({ error: { code: 'NOT_FOUND', message: 'No such agent' } }, 404));
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    await expect(purser.agents.get('a-1')).rejects.toBeInstanceOf(PurserApiError);
    expect(await purser.agents.get('a-1').catch((error: PurserApiError) => error.code)).toBe('NOT_FOUND');
    let settled = false;
    await expect(purser.agents.get('a-1').finally(() => (settled = true))).rejects.toMatchObject({ status: 404 });
    expect(settled).toBe(true);
    await expect(purser.agents.get('a-1').withResponse()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('gives the request id, the idempotent replay, the rate limit and the attempts with withResponse()', async () => {
    const api = fakeApi((_sent, index) =>
      index === 0
        ? json({ error: { code: 'UNAVAILABLE', message: 'later' } }, 503)
        : json({ intent_id: 'i-1', status: 'settled' }, 200, {
            'x-request-id': 'req-42',
            'idempotent-replayed': 'true',
            'x-ratelimit-limit': '120',
            'x-ratelimit-remaining': '117',
            'x-ratelimit-reset': '31',
          }),
    );
    const agent = new PurserAgentClient({ baseUrl: ORIGIN, did: 'did:agnic:a', apiKey: 'pak_x', fetch: api.fetch, sleep: async () => {} });
    const { data, response } = await agent.pay({ amount: 1, to_address: 'merchant' }, { idempotencyKey: 'order-1' }).withResponse();
    expect(data).toEqual({ intent_id: 'i-1', status: 'settled' });
    expect(response).toMatchObject({
      status: 200,
      requestId: 'req-42',
      idempotentReplayed: true,
      idempotencyKey: 'order-1',
      rateLimit: { limit: 120, remaining: 117, resetSeconds: 31 },
      attempts: 2,
    });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('117');
    expect(api.sent.map((call) => call.headers.get('idempotency-key'))).toEqual(['order-1', 'order-1']);
  });

  it('reports no replay, no key and no rate limit where the answer has none', async () => {
    const api = fakeApi(() => json({ id: 'a-1' }));
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    const { response } = await purser.agents.get('a-1').withResponse();
    expect(response).toMatchObject({ idempotentReplayed: false, idempotencyKey: undefined, rateLimit: null, requestId: undefined, attempts: 1 });
    // The IETF draft's names count too.
    const draft = fakeApi(() => json({}, 200, { 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '5' }));
    const limited = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: draft.fetch });
    expect((await limited.wallet.get().withResponse()).response.rateLimit).toEqual({ limit: 10, remaining: 0, resetSeconds: 5 });
  });

  it('reads the data once however often it is awaited, and sends one request', async () => {
    const api = fakeApi(() => json({ ok: true }));
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    const call = purser.wallet.get();
    await call;
    await call;
    await call.withResponse();
    expect(api.sent).toHaveLength(1);
  });
});

describe('a cursor-paged list', () => {
  /** Intents i-1 … i-5 served two at a time; the cursor is the last id of the page. */
  function pagedIntents() {
    const all = ['i-1', 'i-2', 'i-3', 'i-4', 'i-5'];
    return fakeApi(({ url }) => {
      const cursor = url.searchParams.get('cursor');
      const start = cursor === null ? 0 : all.indexOf(cursor) + 1;
      const page = all.slice(start, start + Number(url.searchParams.get('limit') ?? 2));
      const last = page.at(-1)!;
      return json({ intents: page.map((id) => ({ id })), nextCursor: last === all.at(-1) ? null : last });
    });
  }

  it('awaited, is the first page as the API answers it', async () => {
    const api = pagedIntents();
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    expect(await purser.intents.list({ limit: 2 })).toEqual({ intents: [{ id: 'i-1' }, { id: 'i-2' }], nextCursor: 'i-2' });
    expect(api.sent).toHaveLength(1);
  });

  it('iterated with for await, yields every item of every page, following nextCursor with the same filters', async () => {
    const api = pagedIntents();
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    const ids: string[] = [];
    for await (const intent of purser.intents.list({ limit: 2, status: ['settled', 'failed'], agentId: 'a-1' })) ids.push(intent.id);
    expect(ids).toEqual(['i-1', 'i-2', 'i-3', 'i-4', 'i-5']);
    expect(api.sent.map(({ url }) => url.searchParams.get('cursor'))).toEqual([null, 'i-2', 'i-4']);
    for (const { url } of api.sent) {
      expect(url.searchParams.getAll('status')).toEqual(['settled', 'failed']);
      expect(url.searchParams.get('agentId')).toBe('a-1');
      expect(url.searchParams.get('limit')).toBe('2');
    }
  });

  it('asks for the next page only when the items before it are used up', async () => {
    const api = pagedIntents();
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    for await (const intent of purser.intents.list({ limit: 2 })) {
      if (intent.id === 'i-2') break;
    }
    expect(api.sent).toHaveLength(1);
  });

  it('walks pages with pages(), and the audit log and webhook deliveries the same way', async () => {
    const api = pagedIntents();
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    const sizes: number[] = [];
    for await (const page of purser.intents.list({ limit: 2 }).pages()) sizes.push(page.intents.length);
    expect(sizes).toEqual([2, 2, 1]);

    const audit = fakeApi(({ url }) => json(url.searchParams.get('cursor') ? { entries: [{ seq: '1' }], nextCursor: null } : { entries: [{ seq: '3' }, { seq: '2' }], nextCursor: '2' }));
    const auditClient = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: audit.fetch });
    const seqs: string[] = [];
    for await (const entry of auditClient.audit.list({ subject: 'payment_intent:*' })) seqs.push(entry.seq);
    expect(seqs).toEqual(['3', '2', '1']);

    const deliveries = fakeApi(({ url }) => json(url.searchParams.get('cursor') ? { deliveries: [{ id: 'd-2' }], nextCursor: null } : { deliveries: [{ id: 'd-1' }], nextCursor: 'd-1' }));
    const hooks = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: deliveries.fetch });
    const ids: string[] = [];
    for await (const delivery of hooks.webhooks.deliveries('e-1', { status: 'failed' })) ids.push(delivery.id);
    expect(ids).toEqual(['d-1', 'd-2']);
    expect(deliveries.sent.map(({ url }) => `${url.pathname}?${url.searchParams}`)).toEqual(['/api/v1/webhooks/e-1/deliveries?status=failed', '/api/v1/webhooks/e-1/deliveries?status=failed&cursor=d-1']);
  });

  it('stops with an error instead of looping when the API hands out the same cursor twice', async () => {
    const api = fakeApi(() => json({ intents: [{ id: 'i-1' }], nextCursor: 'same' }));
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const intent of purser.intents.list()) seen.push(intent.id);
      })(),
    ).rejects.toThrow(/cursor "same" twice/);
    expect(seen).toEqual(['i-1', 'i-1']);
  });

  it('rejects the iteration with the API error of a failed page', async () => {
    const api = fakeApi((_sent, index) => (index === 0 ? json({ intents: [{ id: 'i-1' }], nextCursor: 'c' }) : json({ error: { code: 'VALIDATION_FAILED', message: 'bad cursor' } }, 400)));
    const purser = new PurserOwnerClient({ baseUrl: ORIGIN, token: 't', fetch: api.fetch });
    const list = purser.intents.list();
    expect(list).toBeInstanceOf(PagePromise);
    await expect(
      (async () => {
        for await (const _intent of list) void _intent;
      })(),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
