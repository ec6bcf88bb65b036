/**
 * What every HTTP answer carries and what none gives away: security headers (CSP, nosniff,
 * referrer policy, HSTS behind https) and a request id on every response; unexpected failures
 * answered with a generic message and that id on tRPC, REST and MCP alike; the deep health
 * check kept for the operator.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@purser/db';
import { buildApp } from '../src/app';
import { createHealthChecker, type HealthChecker } from '../src/health';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = 'secret db detail: password=hunter2 host=10.9.8.7';
const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';
const CSP =
  "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;font-src 'self';connect-src 'self';" +
  "object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";

let t: TestApp;
let owner: SignedUpOwner;
let agent: { id: string; did: string; key: string };
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  owner = await signUpTestOwner(t.app, t.deps.db.prisma);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/agents',
    headers: owner.headers,
    payload: { name: 'Broken dependencies', max_transaction_amount: 25, max_daily_limit: 100 },
  });
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json() as { agent: { id: string; did: string }; api_key: { key: string } };
  agent = { id: body.agent.id, did: body.agent.did, key: body.api_key.key };
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await t?.cleanup();
});

/** A second server on the test app's database, with some of its dependencies replaced. */
async function appWith(overrides: Partial<TestApp['deps']> & { operatorToken?: string }): Promise<FastifyInstance> {
  const app = await buildApp({ ...t.deps, ...overrides });
  apps.push(app);
  await app.ready();
  return app;
}

/** Log lines at error level and above, parsed. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

/** The database, except that agent transactions cannot be read: the driver fails with internals in its message. */
function brokenDatabase(): Database {
  const prisma = new Proxy(t.deps.db.prisma, {
    get(target, property, receiver) {
      if (property === 'agentTransaction') throw new Error(SECRET);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { ...t.deps.db, prisma };
}

const brokenHealth: HealthChecker = {
  check: () => Promise.reject(new Error(SECRET)),
};

describe('security headers', () => {
  it('come with an HTML page, a tRPC call, an /api/v1 answer, /healthz and a 404, each with its own request id', async () => {
    const requests = [
      { method: 'GET', url: '/docs/api' },
      { method: 'GET', url: '/trpc/health.get' },
      { method: 'GET', url: '/api/v1/wallet', headers: owner.headers },
      { method: 'GET', url: '/api/v1/wallet' },
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/api/v1/no-such-route' },
    ] as const;
    const ids = new Set<string>();
    for (const request of requests) {
      const response = await t.app.inject(request);
      const label = `${request.method} ${request.url} (${response.statusCode})`;
      expect(response.headers['content-security-policy'], label).toBe(CSP);
      expect(response.headers['x-content-type-options'], label).toBe('nosniff');
      expect(response.headers['referrer-policy'], label).toBe('no-referrer');
      expect(response.headers['x-frame-options'], label).toBe('DENY');
      expect(response.headers['strict-transport-security'], label).toBeUndefined();
      expect(response.headers['x-request-id'], label).toMatch(UUID);
      ids.add(String(response.headers['x-request-id']));
    }
    expect(ids.size).toBe(requests.length);
  });

  it('pin browsers to https with HSTS and upgrade insecure requests only when the public URL is https', async () => {
    const https = await appWith({ publicUrl: 'https://purser.example' });
    const response = await https.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['content-security-policy']).toBe(`${CSP};upgrade-insecure-requests`);

    const http = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(http.headers['strict-transport-security']).toBeUndefined();
    expect(http.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});

describe('unexpected failures', () => {
  it('answer a REST call with a generic INTERNAL error and the request id, and log the real error under that id', async () => {
    const { logger, lines } = capturingLogger();
    const app = await appWith({ db: brokenDatabase(), logger });
    const response = await app.inject({ method: 'GET', url: `/api/v1/agents/${agent.id}/transactions`, headers: owner.headers });

    expect(response.statusCode).toBe(500);
    const requestId = response.headers['x-request-id'];
    expect(requestId).toMatch(UUID);
    expect(response.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal server error', request_id: requestId } });
    expect(response.body).not.toContain('hunter2');
    expect(lines.some((line) => line.reqId === requestId && JSON.stringify(line).includes(SECRET))).toBe(true);
  });

  it('answer a tRPC call with a generic message naming the request id, without the error text or a stack', async () => {
    const { logger, lines } = capturingLogger();
    const app = await appWith({ health: brokenHealth, logger });
    const response = await app.inject({ method: 'GET', url: '/trpc/health.get' });

    expect(response.statusCode).toBe(500);
    const requestId = String(response.headers['x-request-id']);
    const { error } = response.json() as { error: { message: string; data: Record<string, unknown> } };
    expect(error.message).toBe(`Internal server error (request ${requestId})`);
    expect(error.data).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', appCode: 'INTERNAL', requestId });
    expect(error.data).not.toHaveProperty('stack');
    expect(response.body).not.toContain('hunter2');
    expect(lines.some((line) => line.reqId === requestId && JSON.stringify(line).includes(SECRET))).toBe(true);
  });

  it('keep the message of an expected tRPC error and add the request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trpc/wallet.get' });
    expect(response.statusCode).toBe(401);
    const { error } = response.json() as { error: { message: string; data: Record<string, unknown> } };
    expect(error.message).toBe('Authentication required');
    expect(error.data).toMatchObject({ appCode: 'UNAUTHORIZED', requestId: response.headers['x-request-id'] });
  });

  it('answer an MCP tool call with an isError result naming the request id, never the error text', async () => {
    const { logger, lines } = capturingLogger();
    const app = await appWith({ db: brokenDatabase(), logger });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'purser-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/functions/v1/mcp-server/mcp`), {
        requestInit: { headers: { 'x-agent-did': agent.did, authorization: `Bearer ${agent.key}` } },
      }),
    );
    try {
      const result = (await client.callTool({ name: 'list_transactions', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      const requestId = /request ([0-9a-f-]{36})/.exec(text)?.[1];
      expect(requestId).toMatch(UUID);
      expect(text).toContain('INTERNAL: Internal server error');
      expect(JSON.stringify(result)).not.toContain('hunter2');
      expect(lines.some((line) => line.reqId === requestId && line.tool === 'list_transactions' && JSON.stringify(line).includes(SECRET))).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('/healthz', () => {
  it('answers the shallow check to anyone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok' });
  });

  it('runs the deep check only for the operator token', async () => {
    const refused: Array<[string, Record<string, string>]> = [
      ['no token', {}],
      ['a wrong token', { authorization: `Bearer ${OPERATOR_TOKEN}x` }],
      ['a short prefix of the token', { authorization: `Bearer ${OPERATOR_TOKEN.slice(0, 8)}` }],
      ["an owner's session", owner.headers],
    ];
    for (const [label, headers] of refused) {
      const response = await t.app.inject({ method: 'GET', url: '/healthz?deep=true', headers });
      expect(response.statusCode, label).toBe(401);
      expect(response.json(), label).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
    const allowed = await t.app.inject({ method: 'GET', url: '/healthz?deep=true', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json()).toMatchObject({ status: 'ok' });
  });

  it('refuses the deep check to everyone when no operator token is configured', async () => {
    const app = await appWith({});
    const response = await app.inject({ method: 'GET', url: '/healthz?deep=true', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('reports a failing component as unreachable, never with its error text', async () => {
    const health = createHealthChecker({
      db: t.deps.db,
      pingTemporal: () => Promise.reject(new Error(SECRET)),
      pingWorker: async () => {},
      runWorkflow: async () => {},
    });
    const app = await appWith({ health });
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'unavailable', checks: { temporal: { status: 'down', error: 'unreachable' } } });
    expect(response.body).not.toContain('hunter2');
  });
});
