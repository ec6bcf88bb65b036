/**
 * The agent API's door: who gets in (X-Agent-DID plus the agent's own key), what the refused
 * get (401 or 403 with a stable code, and no change anywhere), the per-agent rate limit, and
 * the reads an agent makes about itself. Payments and x402 run in agent-api.temporal.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentInfoView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createOutboundPolicy } from '../src/services/outbound/outbound-policy';
import { insertIntentRow } from './support/intent-rows';
import { createTestApp, type TestApp } from './support/test-app';

const BASE = '/functions/v1/mcp-server';
let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;

interface CreatedAgent {
  id: string;
  did: string;
  key: string;
}

beforeAll(async () => {
  t = await createTestApp({ agentRateLimitPerMinute: 1000 });
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
});

afterAll(async () => {
  await t?.cleanup();
});

async function createAgent(app = t.app, headers = owner.headers): Promise<CreatedAgent> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/agents',
    headers,
    payload: { name: `Agent ${Math.random().toString(36).slice(2, 8)}`, max_transaction_amount: 25, max_daily_limit: 100 },
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json() as { agent: { id: string; did: string }; api_key: { key: string } };
  return { id: body.agent.id, did: body.agent.did, key: body.api_key.key };
}

function call(method: 'GET' | 'POST', path: string, headers: Record<string, string>, payload?: unknown, app = t.app) {
  return app.inject({ method, url: `${BASE}${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

const as = (agent: CreatedAgent) => ({ 'x-agent-did': agent.did, authorization: `Bearer ${agent.key}` });

/** Everything an agent call could change. */
async function snapshot() {
  return {
    intents: await prisma.paymentIntent.count(),
    ledger: await prisma.ledgerTransaction.count(),
    agentTransactions: await prisma.agentTransaction.count(),
    wallets: await prisma.agentWallet.findMany({ select: { id: true, balanceUsdc: true, balanceUsdt: true }, orderBy: { id: 'asc' } }),
  };
}

describe('authentication', () => {
  it('refuses a wrong key, a missing DID, a missing key, another agent\'s DID and a suspended or deleted agent, changing nothing', async () => {
    const alice = await createAgent();
    const bob = await createAgent();
    const suspended = await createAgent();
    const deleted = await createAgent();
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/agents/${suspended.id}/suspend`, headers: owner.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/agents/${deleted.id}`, headers: owner.headers })).statusCode).toBe(200);
    const before = await snapshot();

    const payment = { amount: 1, to_address: '0x000000000000000000000000000000000000dEaD', description: 'should never run' };
    const refusals: Array<[string, Record<string, string>, number, string]> = [
      ['wrong key', { 'x-agent-did': alice.did, authorization: `Bearer ${alice.key.slice(0, -4)}AAAA` }, 401, 'UNAUTHORIZED'],
      ['missing DID', { authorization: `Bearer ${alice.key}` }, 401, 'UNAUTHORIZED'],
      ['missing key', { 'x-agent-did': alice.did }, 401, 'UNAUTHORIZED'],
      ["another agent's DID with this key", { 'x-agent-did': bob.did, authorization: `Bearer ${alice.key}` }, 401, 'UNAUTHORIZED'],
      ['suspended agent', as(suspended), 403, 'AGENT_SUSPENDED'],
      ['deleted agent', as(deleted), 403, 'AGENT_SUSPENDED'],
    ];
    for (const [label, headers, status, code] of refusals) {
      for (const [method, path, body] of [
        ['GET', '/balance'],
        ['GET', '/info'],
        ['GET', '/transactions'],
        ['POST', '/payment', payment],
        ['POST', '/x402/sign-payment', { scheme: 'exact', network: 'eip155:84532', amount: '10000', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payTo: bob.did, maxTimeoutSeconds: 60 }],
        ['POST', '/x402/fetch', { url: 'http://127.0.0.1:9/never' }],
        ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      ] as const) {
        const response = await call(method, path, headers, body);
        expect(response.statusCode, `${label}: ${method} ${path}`).toBe(status);
        expect(response.json(), `${label}: ${method} ${path}`).toMatchObject({ error: { code } });
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets the agent in with its DID and its own key', async () => {
    const agent = await createAgent();
    const response = await call('GET', '/transactions', as(agent));
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('reads', () => {
  it('answers /info with the DID, credential, wallet addresses, spending rules and x402 capabilities', async () => {
    const agent = await createAgent();
    const response = await call('GET', '/info', as(agent));
    expect(response.statusCode, response.body).toBe(200);
    const info = response.json() as AgentInfoView;
    expect(info).toMatchObject({
      id: agent.id,
      did: agent.did,
      status: 'active',
      spending_rules: { max_transaction_amount: 25, max_daily_limit: 100 },
      spending: { spent_last_24h: 0, remaining_daily: 100, remaining_daily_exact: '100', spent_this_month: 0 },
      x402: { network: 'eip155:84532', network_v1_name: 'base-sepolia', schemes: ['exact', 'upto', 'batch-settlement'], x402_versions: [2, 1] },
    });
    expect(info.wallet_addresses.base).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(info.verifiable_credential).not.toBeNull();
    expect(info.x402.endpoints.fetch).toBe(`${t.deps.publicUrl}${BASE}/x402/fetch`);
  });

  it('answers /transactions a page at a time, newest first, following next_cursor to the oldest', async () => {
    const agent = await createAgent();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: owner.headers, payload: { amount: 100 } })).statusCode).toBe(200);
    for (let i = 1; i <= 5; i++) {
      const funded = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/fund-agent', headers: owner.headers, payload: { agent_id: agent.id, amount: i } });
      expect(funded.statusCode, funded.body).toBe(200);
    }
    const amounts: number[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const response = await call('GET', `/transactions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, as(agent));
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as { transactions: Array<{ amount: number }>; next_cursor: string | null };
      amounts.push(...page.transactions.map((transaction) => transaction.amount));
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    expect(amounts).toEqual([5, 4, 3, 2, 1]);
    expect(cursor).toBeNull();

    for (const query of ['limit=0', 'limit=51', 'limit=two', 'cursor=not-a-cursor']) {
      const refused = await call('GET', `/transactions?${query}`, as(agent));
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json(), query).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('reads one of its payments back by intent id or idempotency key, never another agent\'s or the owner\'s', async () => {
    const agent = await createAgent();
    const other = await createAgent();
    const ownerIntent = await insertIntentRow(prisma, { ownerId: owner.userId, agentId: agent.id, createdBy: 'owner' });
    const otherIntent = await insertIntentRow(prisma, { ownerId: owner.userId, agentId: other.id, createdBy: 'agent' });
    const ownId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId: agent.id, createdBy: 'agent', status: 'blocked' });
    await prisma.paymentIntent.update({ where: { id: ownId }, data: { idempotencyKey: 'read-back-1', failureCode: 'DAILY_LIMIT_EXCEEDED', failureMessage: 'Over the daily limit' } });
    const before = await snapshot();

    const byId = await call('GET', `/payment/${ownId}`, as(agent));
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json()).toMatchObject({ intent_id: ownId, status: 'blocked', failure_code: 'DAILY_LIMIT_EXCEEDED', failure_message: 'Over the daily limit' });
    const byKey = await call('GET', '/payment?idempotency_key=read-back-1', as(agent));
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json()).toEqual(byId.json());

    for (const path of [`/payment/${ownerIntent}`, `/payment/${otherIntent}`, '/payment?idempotency_key=no-such-key']) {
      const missing = await call('GET', path, as(agent));
      expect(missing.statusCode, path).toBe(404);
      expect(missing.json(), path).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect((await call('GET', '/payment/not-a-uuid', as(agent))).statusCode).toBe(400);
    expect((await call('GET', '/payment', as(agent))).statusCode).toBe(400);
    // Reading moves nothing.
    expect(await snapshot()).toEqual(before);
  });

  it('answers /transactions with the latest 50, newest first, with categories and metadata', async () => {
    const agent = await createAgent();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: owner.headers, payload: { amount: 1000 } })).statusCode).toBe(200);
    for (let i = 1; i <= 52; i++) {
      const funded = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/fund-agent', headers: owner.headers, payload: { agent_id: agent.id, amount: i / 100 } });
      expect(funded.statusCode, funded.body).toBe(200);
    }
    const response = await call('GET', '/transactions', as(agent));
    expect(response.statusCode).toBe(200);
    const { transactions } = response.json() as { transactions: Array<{ amount: number; category: string; metadata: Record<string, unknown> }> };
    expect(transactions).toHaveLength(50);
    expect(transactions[0]).toMatchObject({ amount: 0.52, category: 'funding' });
    expect(transactions.at(-1)?.amount).toBe(0.03);
    expect(transactions[0]?.metadata).toHaveProperty('owner_transaction_id');
  });

  it('still answers /balance with exact ledger balances when the chain cannot be read', async () => {
    const agent = await createAgent();
    const response = await call('GET', '/balance', as(agent));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      did: agent.did,
      balances: { USDC: { ledger: 0, ledger_exact: '0', on_chain: null }, USDT: { ledger: 0, on_chain: null } },
      network: { network: 'eip155:84532' },
    });
    expect((response.json() as { on_chain_error: string | null }).on_chain_error).toMatch(/could not be reached/);
  });
});

describe('input', () => {
  it('refuses a malformed payment with 400 and the first message, creating nothing', async () => {
    const agent = await createAgent();
    const before = await snapshot();
    for (const [payload, message] of [
      [{ amount: -1, to_address: 'x' }, /amount must be a positive number/],
      [{ amount: '1.0000001', to_address: 'x' }, /amount must be a positive number/],
      [{ amount: 1 }, /to_address/],
      [{ amount: 1, to_address: 'x', currency: 'EUR' }, /Currency must be USDC or USDT/],
      [{ amount: 1, to_address: 'x', rail: 'x402-base' }, /rail/i],
    ] as const) {
      const response = await call('POST', '/payment', as(agent), payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect((response.json() as { error: { code: string; message: string } }).error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(message) });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses upstream URLs that are not http(s), metadata addresses in the sandbox, and loopback and private ones outside it', async () => {
    const agent = await createAgent();
    const ftp = await call('POST', '/x402/requirements', as(agent), { url: 'ftp://example.com/file' });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', message: 'url must be an absolute http:// or https:// URL' } });

    // The sandbox reaches loopback sellers, never the metadata service.
    const metadata = await call('POST', '/x402/requirements', as(agent), { url: 'http://169.254.169.254/latest/meta-data/iam/' });
    expect(metadata.statusCode).toBe(400);
    expect(metadata.json()).toEqual({ error: { code: 'URL_NOT_ALLOWED', message: 'URL refused: 169.254.169.254 is a link-local address' } });

    const locked = await createTestApp({ outbound: createOutboundPolicy() });
    try {
      const lockedOwner = await signUpTestOwner(locked.app, locked.deps.db.prisma);
      const lockedAgent = await createAgent(locked.app, lockedOwner.headers);
      for (const url of ['http://127.0.0.1:9/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://10.1.2.3/']) {
        const response = await call('POST', '/x402/requirements', as(lockedAgent), { url }, locked.app);
        expect(response.statusCode, url).toBe(400);
        expect((response.json() as { error: { code: string; message: string } }).error, url).toMatchObject({ code: 'URL_NOT_ALLOWED', message: expect.stringMatching(/^URL refused: /) });
      }
    } finally {
      await locked.cleanup();
    }
  });
});

describe('rate limits', () => {
  it('limits each agent to its calls per minute, apart from other agents', async () => {
    const limited = await createTestApp({ agentRateLimitPerMinute: 3 });
    try {
      const limitedOwner = await signUpTestOwner(limited.app, limited.deps.db.prisma);
      const first = await createAgent(limited.app, limitedOwner.headers);
      const second = await createAgent(limited.app, limitedOwner.headers);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call('GET', '/transactions', as(first), undefined, limited.app)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await call('GET', '/transactions', as(first), undefined, limited.app);
      expect(refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      expect((await call('GET', '/transactions', as(second), undefined, limited.app)).statusCode).toBe(200);
    } finally {
      await limited.cleanup();
    }
  });

  it('counts every JSON-RPC message of an MCP batch, and refuses a batch larger than what is left whole, running none of it', async () => {
    const limited = await createTestApp({ agentRateLimitPerMinute: 5 });
    try {
      const limitedOwner = await signUpTestOwner(limited.app, limited.deps.db.prisma);
      const agent = await createAgent(limited.app, limitedOwner.headers);
      const mcp = (messages: unknown) =>
        call('POST', '/mcp', { ...as(agent), accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, messages, limited.app);
      const list = (count: number, first = 1) => Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: first + i, method: 'tools/list' }));
      const payment = {
        jsonrpc: '2.0',
        id: 99,
        method: 'tools/call',
        params: { name: 'make_payment', arguments: { amount: 1, to_address: 'acct_batch_test' } },
      };
      const changes = async () => ({
        intents: await limited.deps.db.prisma.paymentIntent.count(),
        ledger: await limited.deps.db.prisma.ledgerTransaction.count(),
        agentTransactions: await limited.deps.db.prisma.agentTransaction.count(),
      });
      const before = await changes();

      // More messages than the agent may send in a minute: refused, and nothing counted.
      const tooBig = await mcp([...list(5), payment]);
      expect(tooBig.statusCode).toBe(429);
      expect(tooBig.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: expect.stringMatching(/^This batch holds 6 MCP messages, each counted as a call, and 5 of this agent's 5 calls per minute are left\. Nothing was run\..*at most 5 messages per batch\.$/),
        },
      });

      // A batch of three uses three of the five calls, message by message.
      const three = await mcp(list(3));
      expect(three.statusCode).toBe(200);
      expect(three.json()).toHaveLength(3);

      // Two are left: a batch of three (one of them a payment) is refused whole and changes nothing...
      const refused = await mcp([...list(2, 10), payment]);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining("and 2 of this agent's 5 calls per minute are left") });
      expect(await changes()).toEqual(before);

      // ...a batch of two still fits, and then not even a single call does.
      expect((await mcp(list(2, 20))).statusCode).toBe(200);
      expect((await mcp({ jsonrpc: '2.0', id: 30, method: 'tools/list' })).statusCode).toBe(429);
      expect((await call('GET', '/transactions', as(agent), undefined, limited.app)).statusCode).toBe(429);
    } finally {
      await limited.cleanup();
    }
  });
});
