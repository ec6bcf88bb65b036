/**
 * The owner REST API end to end on a real database: every route, its OpenAPI description,
 * and that a second owner can never read or change the first owner's resources.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import type { HttpMethod } from '../src/http/api-v1/define-route';
import { agentRoutes } from '../src/http/agent-api/agent-routes';
import { otherApiSections } from '../src/http/api-v1/plugin';
import { apiRoutes } from '../src/http/api-v1/routes';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let alice: SignedUpOwner;
let bob: SignedUpOwner;
let agentId: string;
let aliceKeyId: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await signUpTestOwner(t.app, t.deps.db.prisma, 'Alice');
  bob = await signUpTestOwner(t.app, t.deps.db.prisma, 'Bob');
});

afterAll(async () => {
  await t?.cleanup();
});

function call(
  owner: SignedUpOwner | undefined,
  method: HttpMethod,
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { ...(owner?.headers ?? {}), ...headers } });
}

async function expectLedgerBalanced(): Promise<void> {
  const report = await verifyLedger(t.deps.db.prisma);
  expect(report.problems).toEqual([]);
}

describe('the OpenAPI document', () => {
  it('describes every route, with its schemas, as OpenAPI 3.1', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>> };
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    const sections = otherApiSections().flatMap((section) => section.routes);
    expect(operations.sort()).toEqual([...apiRoutes, ...sections].map((route) => route.operationId).sort());
    expect(new Set(operations).size).toBe(operations.length);
    expect(sections.map((route) => route.operationId)).toEqual(expect.arrayContaining(agentRoutes.map((route) => route.operationId)));
    // The agent API keeps its own base path and authenticates with the agent's DID and key, or an
    // OAuth access token holding the route's scope.
    const payment = document.paths['/functions/v1/mcp-server/payment'] as unknown as { servers: unknown[]; post: { security: unknown[] }; get: { security: unknown[] } };
    expect(payment.post.security).toEqual([{ agentDid: [], agentKey: [] }, { agentOAuth: ['pay'] }]);
    expect(payment.get.security).toEqual([{ agentDid: [], agentKey: [] }, { agentOAuth: ['read'] }]);
    const schemes = (document as unknown as { components: { securitySchemes: Record<string, { flows?: { authorizationCode: { authorizationUrl: string; scopes: object } } }> } }).components.securitySchemes;
    expect(schemes.agentOAuth?.flows?.authorizationCode).toMatchObject({ authorizationUrl: expect.stringMatching(/\/oauth\/authorize$/), scopes: { read: expect.any(String), pay: expect.any(String), fetch: expect.any(String) } });
    expect(JSON.stringify(payment.post)).toContain('to_address');
    expect(JSON.stringify(document.paths['/functions/v1/mcp-server/x402/sign-payment'])).toContain('Idempotency-Key');
    const createAgent = document.paths['/agents']?.post;
    expect(JSON.stringify(createAgent?.requestBody)).toContain('max_transaction_amount');
    expect(JSON.stringify(document.paths['/wallet/top-up']?.post)).toContain('Idempotency-Key');
    // The edge functions, sign-in and the assistant are described from their own declarations.
    expect(JSON.stringify(document.paths['/functions/v1/top-up-wallet'])).toContain('Idempotency-Key');
    const token = document.paths['/auth/v1/token'] as unknown as { post: { security: unknown[]; requestBody: { required: boolean } } };
    expect(token.post.security).toEqual([]);
    expect(token.post.requestBody.required).toBe(false);
    const assistant = document.paths['/functions/v1/ai-assistant'] as unknown as { post: { security: unknown[]; responses: Record<string, { content?: object }> } };
    expect(assistant.post.security).toEqual([{ clientKey: [] }]);
    expect(Object.keys(assistant.post.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
  });

  it('has an interactive reference page that works offline', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/api' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-url="/api/v1/openapi.json"');
    const script = await t.app.inject({ method: 'GET', url: '/docs/api/reference.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body.length).toBeGreaterThan(100_000);
  });
});

describe('authentication', () => {
  it('refuses every owner route without credentials', async () => {
    for (const route of apiRoutes.filter((r) => r.auth !== 'public')) {
      const url = route.path.replace(':agentId', '00000000-0000-7000-8000-000000000000').replace(':keyId', '00000000-0000-7000-8000-000000000000');
      const response = await call(undefined, route.method, url, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
      expect(response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('accepts an owner API key instead of an access token', async () => {
    const created = await call(alice, 'POST', '/api-keys', { name: 'ci', scopes: ['read'], expires_in_days: 30 });
    expect(created.statusCode).toBe(201);
    const { key, id } = created.json() as { key: string; id: string };
    aliceKeyId = id;
    const wallet = await call(undefined, 'GET', '/wallet', undefined, { authorization: `Bearer ${key}` });
    expect(wallet.statusCode).toBe(200);
    const listed = await call(alice, 'GET', '/api-keys');
    expect(listed.body).not.toContain(key);
  });
});

describe("an owner's wallet and agents", () => {
  it('tops up once per idempotency key and refuses the same key with another body', async () => {
    const first = await call(alice, 'POST', '/wallet/top-up', { amount: 100, currency: 'USDC' }, { 'idempotency-key': 'top-up-1' });
    expect(first.statusCode).toBe(200);
    const again = await call(alice, 'POST', '/wallet/top-up', { amount: 100, currency: 'USDC' }, { 'idempotency-key': 'top-up-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const conflict = await call(alice, 'POST', '/wallet/top-up', { amount: 5, currency: 'USDC' }, { 'idempotency-key': 'top-up-1' });
    expect(conflict.statusCode).toBe(409);
    const wallet = (await call(alice, 'GET', '/wallet')).json() as { balance_usdc: number };
    expect(wallet.balance_usdc).toBe(100);
    await expectLedgerBalanced();
  });

  it('answers validation failures with the first message and moves nothing', async () => {
    const response = await call(alice, 'POST', '/wallet/top-up', { amount: 0, currency: 'USDC' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'Please enter a valid amount' } });
    const blank = await call(alice, 'POST', '/agents', { name: '   ' });
    expect(blank.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'Please enter an agent name' } });
    expect(((await call(alice, 'GET', '/wallet')).json() as { balance_usdc: number }).balance_usdc).toBe(100);
  });

  it('creates, funds, changes, suspends, reactivates and rotates an agent', async () => {
    const created = await call(alice, 'POST', '/agents', { name: 'Research bot', description: 'Buys data' });
    expect(created.statusCode).toBe(201);
    const body = created.json() as { agent: { id: string; did: string; spending_rules: { max_transaction_amount: number } }; api_key: { key: string } };
    agentId = body.agent.id;
    expect(body.agent.did).toBe(`did:agnic:${agentId}`);
    expect(body.agent.spending_rules.max_transaction_amount).toBe(100);
    expect(body.api_key.key).toMatch(/^pak_/);

    const funded = await call(alice, 'POST', '/wallet/fund-agent', { agent_id: agentId, amount: '12.5', currency: 'USDC' });
    expect(funded.statusCode).toBe(200);
    await expectLedgerBalanced();
    const transactions = (await call(alice, 'GET', `/agents/${agentId}/transactions`)).json() as Array<{ amount: number }>;
    expect(transactions.map((row) => row.amount)).toEqual([12.5]);
    const recent = (await call(alice, 'GET', '/wallet/transactions')).json() as Array<{ type: string }>;
    expect(recent.map((row) => row.type)).toEqual(['agent_funding', 'deposit']);

    const changed = await call(alice, 'PATCH', `/agents/${agentId}/spending-rules`, { max_daily_limit: 250 });
    expect((changed.json() as { spending_rules: { max_daily_limit: number } }).spending_rules.max_daily_limit).toBe(250);
    expect(((await call(alice, 'POST', `/agents/${agentId}/suspend`)).json() as { status: string }).status).toBe('suspended');
    expect(((await call(alice, 'POST', `/agents/${agentId}/reactivate`)).json() as { status: string }).status).toBe('active');
    const rotated = await call(alice, 'POST', `/agents/${agentId}/api-key`);
    expect((rotated.json() as { api_key: { key: string } }).api_key.key).not.toBe(body.api_key.key);
    const listed = (await call(alice, 'GET', '/agents')).json() as Array<{ id: string }>;
    expect(listed.map((agent) => agent.id)).toEqual([agentId]);
  });
});

describe("a second owner and the first owner's resources", () => {
  it('sees only their own wallet, agents and transactions', async () => {
    const wallet = (await call(bob, 'GET', '/wallet')).json() as { balance_usdc: number };
    expect(wallet.balance_usdc).toBe(0);
    expect((await call(bob, 'GET', '/agents')).json()).toEqual([]);
    expect((await call(bob, 'GET', '/wallet/transactions')).json()).toEqual([]);
    expect((await call(bob, 'GET', '/api-keys')).json()).toEqual({ api_keys: [] });
  });

  it.each([
    ['GET', () => `/agents/${agentId}`, undefined],
    ['GET', () => `/agents/${agentId}/transactions`, undefined],
    ['PATCH', () => `/agents/${agentId}/spending-rules`, { max_transaction_amount: 1 }],
    ['POST', () => `/agents/${agentId}/suspend`, undefined],
    ['POST', () => `/agents/${agentId}/reactivate`, undefined],
    ['POST', () => `/agents/${agentId}/api-key`, undefined],
    ['DELETE', () => `/agents/${agentId}`, undefined],
    ['DELETE', () => `/api-keys/${aliceKeyId}`, undefined],
  ] as const)('gets 404 for %s on the first owner\'s resource (%#)', async (method, url, payload) => {
    const before = await t.deps.db.prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: { status: true, updatedAt: true } });
    const response = await call(bob, method, url(), payload);
    expect(response.statusCode).toBe(404);
    const after = await t.deps.db.prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: { status: true, updatedAt: true } });
    expect(after).toEqual(before);
  });

  it("cannot fund the first owner's agent, even with money of their own", async () => {
    await call(bob, 'POST', '/wallet/top-up', { amount: 10, currency: 'USDC' });
    const response = await call(bob, 'POST', '/wallet/fund-agent', { agent_id: agentId, amount: 1, currency: 'USDC' });
    expect(response.statusCode).toBe(404);
    expect(((await call(bob, 'GET', '/wallet')).json() as { balance_usdc: number }).balance_usdc).toBe(10);
    await expectLedgerBalanced();
  });

  it("leaves the first owner's API key working", async () => {
    const keys = (await call(alice, 'GET', '/api-keys')).json() as { api_keys: Array<{ id: string; revoked_at: string | null }> };
    expect(keys.api_keys.find((key) => key.id === aliceKeyId)?.revoked_at).toBeNull();
  });
});

describe('deleting an agent', () => {
  it('makes it disappear for its owner', async () => {
    const deleted = await call(alice, 'DELETE', `/agents/${agentId}`);
    expect(deleted.json()).toMatchObject({ id: agentId, status: 'deleted' });
    expect((await call(alice, 'GET', `/agents/${agentId}`)).statusCode).toBe(404);
  });
});
