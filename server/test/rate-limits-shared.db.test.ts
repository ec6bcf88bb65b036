/**
 * Rate limits shared by the servers of one deployment (http/rate-limit-store.ts): two apps on
 * one database, as two replicas behind a load balancer, counting in the database or in Redis.
 * A client whose requests are split across both is limited as if there were one server: the
 * per-address sign-in, sign-up and assistant limits, the per-agent limit of the agent API with
 * its per-message charge of MCP batches, the owner surfaces' per-owner limits (requests, searches,
 * open streams). Per-address limits count an IPv6 client by its /64. Each route counts apart, and
 * a passed window lets the client in again. Under PostgreSQL the second server has connections of
 * its own.
 *
 * Redis: REDIS_URL (default redis://127.0.0.1:6379), keys under a prefix of this run, deleted after.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '@purser/db';
import type { AppDeps, RateLimitStore } from '../src/deps';
import { closeRateLimitRedis, openRateLimitRedis } from '../src/http/rate-limit-store-redis';
import { createRateLimitCounters } from '../src/services/rate-limits/rate-limit-counters';
import { databaseStreamLeases } from '../src/services/rate-limits/stream-leases';
import { askAssistant } from './support/assistant-client';
import { signUpTestOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const AGENT_API = '/functions/v1/mcp-server';
/** The client whose requests the load balancer splits across both servers. */
const CLIENT = '198.51.100.7';

type Shared = 'database' | 'redis';
type AppOptions = NonNullable<Parameters<typeof createTestApp>[0]>;

interface Servers {
  a: TestApp;
  b: TestApp;
  /** The server of the nth request: a, b, a, b... as a round-robin balancer sends them. */
  nth(n: number): FastifyInstance;
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function deleteRedisKeys(keyPrefix: string): Promise<void> {
  const admin = new Redis(REDIS_URL);
  try {
    const keys = await admin.keys(`${keyPrefix}*`);
    if (keys.length > 0) await admin.del(...keys);
  } finally {
    admin.disconnect();
  }
}

function ready(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => client.once('ready', () => resolve()));
}

/** Two servers of one deployment (one database, one master key), counting rate limits where `shared` says. */
async function twoServers(shared: Shared | 'memory', options: AppOptions = {}): Promise<Servers> {
  const redisPrefix = `purser-test:${randomUUID()}:`;
  const redisClients: Redis[] = [];
  if (shared === 'redis') stops.push(() => deleteRedisKeys(redisPrefix));
  // Each server builds its own store, as each replica's runtime does.
  const rateLimitStore = ({ db, logger }: Pick<AppDeps, 'db' | 'logger'>): RateLimitStore => {
    if (shared === 'memory') return { kind: 'memory' };
    if (shared === 'database') return { kind: 'database', counters: createRateLimitCounters({ db, logger }) };
    const client = openRateLimitRedis(REDIS_URL, logger);
    redisClients.push(client);
    stops.push(() => closeRateLimitRedis(client));
    return { kind: 'redis', client, keyPrefix: redisPrefix };
  };

  const a = await createTestApp({ ...options, rateLimitStore });
  stops.push(() => a.cleanup());
  // PostgreSQL: the second server has connections of its own. PGlite lives in one process: the same one.
  const db = a.databaseUrl ? await openDatabase({ databaseUrl: a.databaseUrl, dataDir: '', migrate: false }) : a.deps.db;
  if (a.databaseUrl) stops.push(() => db.close());
  const b = await createTestApp({ ...options, rateLimitStore, deployment: { db, masterKey: a.deps.masterKey } });
  stops.push(() => b.cleanup());
  // Until then a Redis command fails, and the limit lets the request through uncounted.
  await Promise.all(redisClients.map(ready));
  return { a, b, nth: (n) => (n % 2 === 0 ? a : b).app };
}

function signIn(app: FastifyInstance, email: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    payload: { email, password: 'not the password' },
    remoteAddress: CLIENT,
  });
}

/** A sign-up the body validation refuses (400): the limit counts it first, and it costs nothing. */
function signUpRefused(app: FastifyInstance): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/auth/v1/signup', payload: {}, remoteAddress: CLIENT });
}

const uniqueEmail = () => `nobody-${randomUUID()}@example.test`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface CreatedAgent {
  did: string;
  key: string;
}

async function createAgent(t: TestApp): Promise<CreatedAgent> {
  const owner = await signUpTestOwner(t.app, t.deps.db.prisma);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/agents',
    headers: owner.headers,
    payload: { name: 'Split agent', max_transaction_amount: 25, max_daily_limit: 100 },
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json() as { agent: { did: string }; api_key: { key: string } };
  return { did: body.agent.did, key: body.api_key.key };
}

function agentCall(app: FastifyInstance, agent: CreatedAgent, method: 'GET' | 'POST', path: string, payload?: unknown): Promise<LightMyRequestResponse> {
  const headers = { 'x-agent-did': agent.did, authorization: `Bearer ${agent.key}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  return app.inject({ method, url: `${AGENT_API}${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

const toolsList = (count: number, first: number) => Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: first + i, method: 'tools/list' }));

function codeOf(response: LightMyRequestResponse): string | undefined {
  return (response.json() as { error?: { code?: string } }).error?.code;
}

describe.each<Shared>(['database', 'redis'])('counted in the %s', (shared) => {
  it("limits a client's password sign-ins split across both servers as if there were one", async () => {
    const { nth } = await twoServers(shared, { authRateLimits: { password: 4 } });
    const responses: LightMyRequestResponse[] = [];
    // A new email each time: the per-email back-off stays out of it.
    for (let n = 0; n < 8; n++) responses.push(await signIn(nth(n), uniqueEmail()));

    expect(responses.map((response) => response.statusCode)).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    for (const refused of responses.slice(4)) {
      expect(refused.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests\./) } });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it("limits an agent's API calls split across both servers as if there were one", async () => {
    const servers = await twoServers(shared, { agentRateLimitPerMinute: 3 });
    const agent = await createAgent(servers.a);
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) statuses.push((await agentCall(servers.nth(n), agent, 'GET', '/transactions')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('charges each message of an MCP batch against the agent on every server', async () => {
    const { a, b } = await twoServers(shared, { agentRateLimitPerMinute: 5 });
    const agent = await createAgent(a);

    // Three of the five calls on one server...
    const three = await agentCall(a.app, agent, 'POST', '/mcp', toolsList(3, 1));
    expect(three.statusCode, three.body).toBe(200);
    expect(three.json()).toHaveLength(3);
    // ...leave two on the other: a batch of three is refused whole there, a batch of two fits.
    const refused = await agentCall(b.app, agent, 'POST', '/mcp', toolsList(3, 10));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining("and 2 of this agent's 5 calls per minute are left") });
    expect((await agentCall(b.app, agent, 'POST', '/mcp', toolsList(2, 20))).statusCode).toBe(200);
    // Nothing is left, on either server.
    expect((await agentCall(a.app, agent, 'POST', '/mcp', { jsonrpc: '2.0', id: 30, method: 'tools/list' })).statusCode).toBe(429);
    expect((await agentCall(b.app, agent, 'GET', '/transactions')).statusCode).toBe(429);
  });

  it("limits a client's assistant requests split across both servers as if there were one", async () => {
    const { nth } = await twoServers(shared, { assistant: { rateLimitPerMinute: 2 } });
    const statuses: number[] = [];
    // Without the public key: refused (401) once counted, and nothing is asked of a model.
    for (let n = 0; n < 4; n++) statuses.push((await askAssistant(nth(n), [], { authorization: null, remoteAddress: CLIENT })).statusCode);
    expect(statuses).toEqual([401, 401, 429, 429]);
  });

  it('counts one client apart on each route and each limit', async () => {
    const { nth } = await twoServers(shared, { authRateLimits: { signUp: 2, password: 2, refresh: 2 }, agentRateLimitPerMinute: 2 });
    const statuses = async (count: number, request: (app: FastifyInstance) => Promise<LightMyRequestResponse>) => {
      const answered: number[] = [];
      for (let n = 0; n < count; n++) answered.push((await request(nth(n))).statusCode);
      return answered;
    };

    expect(await statuses(3, signUpRefused)).toEqual([400, 400, 429]);
    // The same address, with its sign-up allowance spent: its sign-ins and refreshes have their own.
    expect(await statuses(3, (app) => signIn(app, uniqueEmail()))).toEqual([401, 401, 429]);
    const refresh = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: {}, remoteAddress: CLIENT });
    expect(await statuses(3, refresh)).toEqual([400, 400, 429]);
    // So do its unauthenticated agent API calls, counted by the agent API's limit.
    const anonymous = (app: FastifyInstance) => app.inject({ method: 'GET', url: `${AGENT_API}/transactions`, remoteAddress: CLIENT });
    expect(await statuses(3, anonymous)).toEqual([401, 401, 429]);
  });

  it('lets the client in again once the window has passed, on either server', async () => {
    const windowMs = 1_500;
    const { a, b } = await twoServers(shared, { authRateLimits: { signUp: 2, windowMs } });
    expect((await signUpRefused(a.app)).statusCode).toBe(400);
    expect((await signUpRefused(b.app)).statusCode).toBe(400);
    const refused = await signUpRefused(a.app);
    expect(refused.statusCode).toBe(429);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(windowMs / 1000 + 1);

    await sleep(windowMs + 200);
    // A new window, counted from its first request on.
    expect((await signUpRefused(b.app)).statusCode).toBe(400);
    expect((await signUpRefused(a.app)).statusCode).toBe(400);
    expect((await signUpRefused(b.app)).statusCode).toBe(429);
  });
});

/** A request of the owner's surfaces from `remoteAddress`, with `authorization` when given. */
function ownerCall(app: FastifyInstance, url: string, options: { authorization?: string; remoteAddress?: string } = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url,
    headers: options.authorization ? { authorization: options.authorization } : {},
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** Three addresses of one /64, which count as one client, then one of the next /64. */
const ONE_LINE = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:DB8:1:2:0:0:0:AB', '2001:db8:1:3::1'];
/** An IPv4 client as a dual-stack socket reports it (twice: dotted, then hex), then over IPv4, then another client. */
const MAPPED = ['::ffff:198.51.100.20', '::ffff:c633:6414', '198.51.100.20', '198.51.100.21'];

/** The statuses of one request per address, sent to the servers in turn. */
async function statusesFrom(
  nth: Servers['nth'],
  addresses: string[],
  request: (app: FastifyInstance, address: string) => Promise<LightMyRequestResponse>,
): Promise<number[]> {
  const answered: number[] = [];
  for (const [n, address] of addresses.entries()) answered.push((await request(nth(n), address)).statusCode);
  return answered;
}

/** The answer of a refused tRPC call, one per procedure of a batch. */
const trpcRateLimited = (path: string) => ({ error: { data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path, appCode: 'RATE_LIMITED' } } });

/** A live-update stream's request over real HTTP: its status, and a way to hang up. */
async function openStream(baseUrl: string, token: string): Promise<{ status: number; retryAfter: string | null; body: unknown; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(new URL('/trpc/realtime.walletChanges', baseUrl), {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  const streaming = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  const body = streaming ? null : ((await response.json()) as unknown);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body, close: () => abort.abort() };
}

describe.each<Shared>(['database', 'redis'])('owner surfaces, counted in the %s', (shared) => {
  it('count an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 address: sign-in and the agent API', async () => {
    const { nth } = await twoServers(shared, { authRateLimits: { password: 2 }, agentRateLimitPerMinute: 2 });
    const password = (app: FastifyInstance, address: string) =>
      app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: { email: uniqueEmail(), password: 'not the password' }, remoteAddress: address });
    const agentApi = (app: FastifyInstance, address: string) => app.inject({ method: 'GET', url: `${AGENT_API}/transactions`, remoteAddress: address });

    for (const request of [password, agentApi]) {
      expect(await statusesFrom(nth, ONE_LINE, request)).toEqual([401, 401, 429, 401]);
      expect(await statusesFrom(nth, MAPPED, request)).toEqual([401, 401, 429, 401]);
    }
  });

  it('count requests without a genuine owner credential against the address, by /64', async () => {
    const { nth } = await twoServers(shared, { ownerRateLimits: { requests: 2 } });
    const forged = (app: FastifyInstance, address: string) => ownerCall(app, '/api/v1/agents', { authorization: 'Bearer not-a-token', remoteAddress: address });
    const anonymous = (app: FastifyInstance, address: string) => ownerCall(app, '/trpc/auth.me', { remoteAddress: address });
    expect(await statusesFrom(nth, ONE_LINE, forged)).toEqual([401, 401, 429, 401]);
    expect(await statusesFrom(nth, MAPPED, anonymous)).toEqual([401, 401, 429, 401]);
  });

  it("limit an owner's REST and tRPC requests together, whichever credential, each call of a batch counted, on both servers", async () => {
    const { a, b, nth } = await twoServers(shared, { ownerRateLimits: { requests: 6 } });
    const owner = await signUpTestOwner(a.app, a.deps.db.prisma);
    const created = await a.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: owner.headers, payload: { name: 'reader', scopes: ['read'], expires_in_days: 30 } });
    expect(created.statusCode, created.body).toBe(201);
    const key = `Bearer ${(created.json() as { key: string }).key}`;
    const token = owner.headers.authorization;

    expect((await ownerCall(b.app, '/api/v1/agents', { authorization: key })).statusCode).toBe(200);
    expect((await ownerCall(a.app, '/trpc/auth.me,wallet.get?batch=1&input={}', { authorization: token })).statusCode).toBe(200);
    expect((await ownerCall(b.app, '/api/v1/wallet', { authorization: key })).statusCode).toBe(200);
    expect((await ownerCall(a.app, '/trpc/auth.me', { authorization: token })).statusCode).toBe(200);

    const rest = await ownerCall(b.app, '/api/v1/agents', { authorization: key });
    expect(rest.statusCode).toBe(429);
    expect(rest.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests\./) } });
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
    const batch = await ownerCall(a.app, '/trpc/auth.me,wallet.get?batch=1&input={}', { authorization: token });
    expect(batch.statusCode).toBe(429);
    expect(batch.json()).toMatchObject([trpcRateLimited('auth.me'), trpcRateLimited('wallet.get')]);
    expect(Number(batch.headers['retry-after'])).toBeGreaterThan(0);

    // Another owner, signed up from the same address, has an allowance of its own.
    const other = await signUpTestOwner(nth(1), a.deps.db.prisma);
    expect((await ownerCall(a.app, '/api/v1/agents', { authorization: other.headers.authorization })).statusCode).toBe(200);
  });

  it("limit an owner's searches of the payment list besides the requests, on REST and tRPC", async () => {
    const { a, b } = await twoServers(shared, { ownerRateLimits: { searches: 2 } });
    const owner = await signUpTestOwner(a.app, a.deps.db.prisma);
    const token = owner.headers.authorization;
    const trpcSearch = (search: string) => `/trpc/intents.list?input=${encodeURIComponent(JSON.stringify({ search }))}`;

    expect((await ownerCall(a.app, '/api/v1/intents?search=coffee', { authorization: token })).statusCode).toBe(200);
    expect((await ownerCall(b.app, trpcSearch('tea'), { authorization: token })).statusCode).toBe(200);
    // Listing without a search text is no search.
    expect((await ownerCall(a.app, '/api/v1/intents', { authorization: token })).statusCode).toBe(200);
    expect((await ownerCall(b.app, trpcSearch(''), { authorization: token })).statusCode).toBe(200);

    const refused = await ownerCall(a.app, trpcSearch('water'), { authorization: token });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject(trpcRateLimited('intents.list'));
    expect((await ownerCall(b.app, '/api/v1/intents?search=juice', { authorization: token })).statusCode).toBe(429);
    expect((await ownerCall(b.app, '/api/v1/intents', { authorization: token })).statusCode).toBe(200);
  });

  it('limit the live-update streams one owner holds open at once, on both servers, and give a place back when a stream closes', async () => {
    const { a, b } = await twoServers(shared, { ownerRateLimits: { streams: 2 } });
    const [urlA, urlB] = [await a.app.listen({ port: 0, host: '127.0.0.1' }), await b.app.listen({ port: 0, host: '127.0.0.1' })];
    const owner = await signUpTestOwner(a.app, a.deps.db.prisma);
    const other = await signUpTestOwner(a.app, a.deps.db.prisma);

    const first = await openStream(urlA, owner.accessToken);
    const second = await openStream(urlB, owner.accessToken);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await openStream(urlA, owner.accessToken);
    expect(third.status).toBe(429);
    expect(Number(third.retryAfter)).toBeGreaterThan(0);
    expect(third.body).toMatchObject(trpcRateLimited('realtime.walletChanges'));
    expect((await openStream(urlB, owner.accessToken)).status).toBe(429);
    // Another owner's streams are counted apart.
    const others = await openStream(urlB, other.accessToken);
    expect(others.status).toBe(200);

    first.close();
    let again: Awaited<ReturnType<typeof openStream>> | undefined;
    await vi.waitFor(
      async () => {
        again = await openStream(urlB, owner.accessToken);
        expect(again.status).toBe(200);
      },
      { timeout: 5_000, interval: 100 },
    );
    for (const stream of [second, others, again!]) stream.close();
  });
});

describe('with Redis unreachable', () => {
  it('lets requests through uncounted and says so in the log, then counts again once Redis answers', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
    // A port where nothing listens yet; later, a relay to the real Redis opens there.
    const port = await freePort();
    const client = openRateLimitRedis(`redis://127.0.0.1:${port}`, logger);
    stops.push(() => closeRateLimitRedis(client));
    const keyPrefix = `purser-test:${randomUUID()}:`;
    stops.push(() => deleteRedisKeys(keyPrefix));
    const t = await createTestApp({ authRateLimits: { password: 1 }, rateLimitStore: { kind: 'redis', client, keyPrefix } });
    stops.push(() => t.cleanup());

    const statuses: number[] = [];
    for (let n = 0; n < 3; n++) statuses.push((await signIn(t.app, uniqueEmail())).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    await vi.waitFor(() => expect(lines.map((line) => line.msg)).toContain('Redis is unreachable: rate limits are not enforced until it answers again'));

    const relay = await relayToRedis(port);
    stops.push(() => relay.close());
    await ready(client);
    expect(lines.map((line) => line.msg)).toContain('Redis answers again: rate limits are enforced');
    expect((await signIn(t.app, uniqueEmail())).statusCode).toBe(401);
    expect((await signIn(t.app, uniqueEmail())).statusCode).toBe(429);
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP relay on `port` to REDIS_URL's Redis: Redis coming back at the address the client knows. */
async function relayToRedis(port: number): Promise<{ close(): Promise<void> }> {
  const target = new URL(REDIS_URL);
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('error', () => end.destroy()).on('close', () => sockets.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe('in memory', () => {
  it('counts on each server alone, so split requests get twice the limit (why PostgreSQL deployments count in the database)', async () => {
    const { nth } = await twoServers('memory', { authRateLimits: { password: 4 } });
    const statuses: number[] = [];
    for (let n = 0; n < 8; n++) statuses.push((await signIn(nth(n), uniqueEmail())).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401]);
  });

  it("limits one server's open streams per owner", async () => {
    const { a } = await twoServers('memory', { ownerRateLimits: { streams: 1 } });
    const url = await a.app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await signUpTestOwner(a.app, a.deps.db.prisma);
    const first = await openStream(url, owner.accessToken);
    expect(first.status).toBe(200);
    expect((await openStream(url, owner.accessToken)).status).toBe(429);
    first.close();
    await vi.waitFor(
      async () => {
        const again = await openStream(url, owner.accessToken);
        again.close();
        expect(again.status).toBe(200);
      },
      { timeout: 5_000, interval: 100 },
    );
  });
});

describe('the database counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('keep the route and the client key, nothing else', async () => {
    const { a } = await twoServers('database', { authRateLimits: { password: 4 } });
    await signIn(a.app, uniqueEmail());
    const rows = await a.deps.db.prisma.rateLimitCounter.findMany({ select: { key: true, count: true } });
    // The sign-in's own limit, and the owner surfaces' limit, which counts it by address before
    // sign-in: 1 200 a minute, so this server claimed a batch of 12 (rate-limit-batches.db.test.ts).
    expect(rows.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: `auth:POST /auth/v1/token|${CLIENT}|password`, count: 1 },
      { key: `owner:ip:${CLIENT}`, count: 12 },
    ]);
  });

  it('count every one of many racing hits once, from both servers', async () => {
    const logger = pino({ level: 'silent' });
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: '', migrate: false }) : t.deps.db;
    try {
      const servers = [createRateLimitCounters({ db: t.deps.db, logger }), createRateLimitCounters({ db: other, logger })];
      const hits = await Promise.all(Array.from({ length: 20 }, (_, n) => servers[n % 2]!.hit('race', 60_000)));
      expect(hits.map((hit) => hit.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
      for (const hit of hits) expect(hit.ttl).toBeGreaterThan(55_000);
      expect(await servers[1]!.read('race')).toMatchObject({ current: 20 });
    } finally {
      if (other !== t.deps.db) await other.close();
    }
  });

  it('hold stream leases that expire unless renewed, so a server that died frees its places', async () => {
    const leases = databaseStreamLeases(t.deps.db);
    const counters = createRateLimitCounters({ db: t.deps.db, logger: pino({ level: 'silent' }) }, { sweepEveryMs: 0 });
    const kept = await leases.acquire('owner-streams:dying', 2, 60_000);
    const orphan = await leases.acquire('owner-streams:dying', 2, 100);
    expect([kept, orphan].every((lease) => lease !== null)).toBe(true);
    expect(await leases.acquire('owner-streams:dying', 2, 60_000)).toBeNull();
    await sleep(150);
    expect(await leases.acquire('owner-streams:dying', 2, 60_000)).not.toBeNull();
    await leases.release('owner-streams:dying', kept!);
    expect(await leases.acquire('owner-streams:dying', 2, 60_000)).not.toBeNull();
    // Expired leases are rows like passed counters: the sweep takes them.
    await counters.sweep();
    expect(await t.deps.db.prisma.rateLimitCounter.count({ where: { key: `owner-streams:dying|${orphan!}` } })).toBe(0);
  });

  it('start a new window once one has passed, and sweep the counters whose window has passed', async () => {
    const counters = createRateLimitCounters({ db: t.deps.db, logger: pino({ level: 'silent' }) }, { sweepEveryMs: 0 });
    const prisma = t.deps.db.prisma;
    await counters.hit('short', 100);
    await counters.hit('short', 100);
    await sleep(150);
    expect(await counters.read('short')).toEqual({ current: 0, ttl: 0 });

    // A hit on another key sweeps the passed window away...
    await counters.hit('long', 60_000);
    expect(await prisma.rateLimitCounter.findUnique({ where: { key: 'short' } })).toBeNull();
    expect(await prisma.rateLimitCounter.findUnique({ where: { key: 'long' }, select: { count: true } })).toEqual({ count: 1 });
    // ...and a hit on a passed window starts a new one, swept or not.
    expect(await counters.hit('short', 100)).toMatchObject({ current: 1 });
    await sleep(150);
    expect(await counters.hit('short', 60_000)).toMatchObject({ current: 1 });
    expect(await counters.sweep()).toBe(0);
  });
});
