/**
 * Owner API keys carry scopes and an expiry, against a real database: a key reads and writes
 * only what its scopes cover (403 API_KEY_SCOPE_MISSING naming the scope otherwise, nothing
 * changed), an expired key is refused (401 API_KEY_EXPIRED), a key never manages keys nor calls
 * the web app's tRPC, bad scopes or lifetimes create nothing, and every use is one entry in the
 * owner's audit chain, which still verifies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnerApiKeyScope } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { verifyOwnerAuditChain } from '../src/services/audit/verify-owner-audit-chain';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { authorizePayment } from '../src/services/payments/authorize-payment';
import { createRails } from '../src/services/rails/create-rails';
import { insertIntentRow } from './support/intent-rows';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let agentId: string;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Scoped Owner');
  await asOwner('POST', '/api/v1/wallet/top-up', { amount: 1_000 });
  const created = (await asOwner('POST', '/api/v1/agents', { name: 'Approver bot', max_transaction_amount: 100, max_daily_limit: 1_000 })) as { agent: { id: string } };
  agentId = created.agent.id;
  await asOwner('PATCH', `/api/v1/agents/${agentId}/spending-rules`, { approval_threshold: 10 });
  await asOwner('POST', '/api/v1/wallet/fund-agent', { agent_id: agentId, amount: 100 });
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

async function asOwner(method: 'POST' | 'PATCH', url: string, payload: object): Promise<unknown> {
  const response = await t.app.inject({ method, url, headers: owner.headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

async function createKey(scopes: OwnerApiKeyScope[], expiresInDays = 30): Promise<{ id: string; key: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: owner.headers,
    payload: { name: scopes.join(' '), scopes, expires_in_days: expiresInDays },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; key: string };
}

function withKey(key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
}

/** An intent of the owner's agent waiting for approval (20 dollars, above its threshold of 10). */
async function intentAwaitingApproval(): Promise<string> {
  const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 20_000_000n, rail: 'ledger' });
  const deps = { prisma, rails: createRails({ prisma }), startDeliveries: async () => {}, log: () => {} };
  expect(await authorizePayment(deps, intentId)).toMatchObject({ outcome: 'needs_approval' });
  return intentId;
}

async function decisionOf(intentId: string) {
  const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, approval: { select: { status: true } } } });
  return { status: intent.status, approval: intent.approval?.status };
}

const keyUses = (keyId: string) => prisma.auditEvent.findMany({ where: { action: 'owner_api_key.used', subject: `owner_api_key:${keyId}` }, orderBy: { seq: 'asc' }, select: { data: true, ownerId: true } });

describe('a read-only key', () => {
  it('reads, and is refused 403 API_KEY_SCOPE_MISSING naming payments:approve on an approval, which changes nothing', async () => {
    const { key } = await createKey(['read']);
    const intentId = await intentAwaitingApproval();

    const read = await withKey(key, 'GET', `/api/v1/intents/${intentId}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ id: intentId, status: 'pending_approval' });
    expect((await withKey(key, 'GET', '/api/v1/wallet')).statusCode).toBe(200);
    expect((await withKey(key, 'GET', '/auth/v1/user')).statusCode).toBe(200);

    const approve = await withKey(key, 'POST', `/api/v1/intents/${intentId}/approve`, { reason: 'looks fine' });
    expect(approve.statusCode).toBe(403);
    const error = (approve.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('API_KEY_SCOPE_MISSING');
    expect(error.message).toContain('payments:approve');
    expect(await decisionOf(intentId)).toEqual({ status: 'pending_approval', approval: 'pending' });

    // Other writes are refused the same way, each naming its own scope.
    const suspend = await withKey(key, 'POST', `/api/v1/agents/${agentId}/suspend`, {});
    expect(suspend.json()).toMatchObject({ error: { code: 'API_KEY_SCOPE_MISSING', message: expect.stringContaining('agents:admin') } });
    const fund = await withKey(key, 'POST', '/api/v1/wallet/fund-agent', { agent_id: agentId, amount: 1 });
    expect(fund.json()).toMatchObject({ error: { code: 'API_KEY_SCOPE_MISSING', message: expect.stringContaining('wallet:fund') } });
    const viaFunctions = await withKey(key, 'POST', '/functions/v1/fund-agent', { agent_id: agentId, amount: 1 });
    expect(viaFunctions.json()).toMatchObject({ error: { code: 'API_KEY_SCOPE_MISSING', message: expect.stringContaining('wallet:fund') } });
    expect(await prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: { status: true } })).toEqual({ status: 'active' });
    expect((await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } })).balanceUsdc).toBe(100_000_000n);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });
});

describe('a key with payments:approve', () => {
  it('approves a payment waiting for approval, and may not read without read', async () => {
    const { key } = await createKey(['payments:approve']);
    const intentId = await intentAwaitingApproval();

    const approve = await withKey(key, 'POST', `/api/v1/intents/${intentId}/approve`, { reason: 'approved by the bot' });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json()).toMatchObject({ id: intentId, status: 'approved' });
    expect(await decisionOf(intentId)).toEqual({ status: 'approved', approval: 'approved' });

    const read = await withKey(key, 'GET', `/api/v1/intents/${intentId}`);
    expect(read.json()).toMatchObject({ error: { code: 'API_KEY_SCOPE_MISSING', message: expect.stringContaining('"read"') } });
  });
});

describe('an expired key', () => {
  it('is refused 401 API_KEY_EXPIRED on every route, reads included', async () => {
    const { id, key } = await createKey(['read', 'payments:approve']);
    expect((await withKey(key, 'GET', '/api/v1/wallet')).statusCode).toBe(200);
    await prisma.ownerApiKey.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });

    const intentId = await intentAwaitingApproval();
    for (const [method, url] of [['GET', '/api/v1/wallet'], ['POST', `/api/v1/intents/${intentId}/approve`]] as const) {
      const response = await withKey(key, method, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toMatchObject({ error: { code: 'API_KEY_EXPIRED', message: expect.stringMatching(/expired/) } });
    }
    expect(await decisionOf(intentId)).toEqual({ status: 'pending_approval', approval: 'pending' });
    // An expired key no longer counts as active: the list shows it, with its expiry.
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: owner.headers })).json() as { api_keys: Array<{ id: string; expires_at: string }> };
    expect(new Date(listed.api_keys.find((k) => k.id === id)!.expires_at).getTime()).toBeLessThan(Date.now());
  });
});

describe('every use of a key', () => {
  it('is one entry in the owner’s audit chain, allowed or refused, and the chain still verifies', async () => {
    const { id, key } = await createKey(['read']);
    const before = await prisma.auditEvent.count({ where: { ownerId: owner.userId } });

    expect((await withKey(key, 'GET', '/api/v1/wallet')).statusCode).toBe(200);
    expect((await withKey(key, 'GET', '/api/v1/agents')).statusCode).toBe(200);
    expect((await withKey(key, 'POST', `/api/v1/agents/${agentId}/suspend`, {})).statusCode).toBe(403);

    const uses = await keyUses(id);
    expect(uses.map((use) => use.data)).toEqual([
      expect.objectContaining({ method: 'GET', route: '/api/v1/wallet', operation: 'getWallet', scope: 'read', outcome: 'allowed' }),
      expect.objectContaining({ method: 'GET', route: '/api/v1/agents', operation: 'listAgents', scope: 'read', outcome: 'allowed' }),
      expect.objectContaining({ method: 'POST', route: '/api/v1/agents/:agentId/suspend', operation: 'suspendAgent', scope: 'agents:admin', outcome: 'scope_missing' }),
    ]);
    expect(uses.every((use) => use.ownerId === owner.userId)).toBe(true);
    // Three uses, three entries: nothing else was written to the chain for them.
    expect(await prisma.auditEvent.count({ where: { ownerId: owner.userId } })).toBe(before + 3);
    // No secret in the entries: the key is named by its id only.
    expect(JSON.stringify(uses)).not.toContain(key.slice(0, 16));
    expect(await verifyOwnerAuditChain(prisma, owner.userId)).toMatchObject({ status: 'verified', brokenAt: null });
    // And the key says when it was last used.
    expect((await prisma.ownerApiKey.findUniqueOrThrow({ where: { id }, select: { lastUsedAt: true } })).lastUsedAt).toBeInstanceOf(Date);
  });

  it('with a session is not a key use: a session writes no such entry', async () => {
    const before = await prisma.auditEvent.count({ where: { ownerId: owner.userId, action: 'owner_api_key.used' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/wallet', headers: owner.headers })).statusCode).toBe(200);
    expect(await prisma.auditEvent.count({ where: { ownerId: owner.userId, action: 'owner_api_key.used' } })).toBe(before);
  });
});

describe('creating a key', () => {
  it.each([
    [{ scopes: ['read', 'payments:everything'], expires_in_days: 30 }, 'Unknown scope "payments:everything": scopes are read, payments:create, payments:approve, wallet:fund, agents:admin, policies:admin, webhooks:admin'],
    [{ scopes: [], expires_in_days: 30 }, 'Choose at least one scope'],
    [{ expires_in_days: 30 }, 'scopes must be a list of scopes: read, payments:create, payments:approve, wallet:fund, agents:admin, policies:admin, webhooks:admin'],
    [{ scopes: ['read'] }, 'expires_in_days must be a whole number of days from 1 to 365'],
    [{ scopes: ['read'], expires_in_days: 366 }, 'expires_in_days must be a whole number of days from 1 to 365'],
    [{ scopes: ['read'], expires_in_days: 0 }, 'expires_in_days must be a whole number of days from 1 to 365'],
    [{ scopes: ['read'], expires_in_days: 1.5 }, 'expires_in_days must be a whole number of days from 1 to 365'],
  ])('refuses %j with 400 VALIDATION_FAILED on REST and tRPC, and creates nothing', async (body, message) => {
    const before = await prisma.ownerApiKey.count({ where: { userId: owner.userId } });
    const rest = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: owner.headers, payload: { name: 'bad', ...body } });
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message } });
    const trpc = await t.app.inject({ method: 'POST', url: '/trpc/apiKeys.create', headers: owner.headers, payload: { name: 'bad', ...body } });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json()).toMatchObject({ error: { message, data: { appCode: 'VALIDATION_FAILED' } } });
    expect(await prisma.ownerApiKey.count({ where: { userId: owner.userId } })).toBe(before);
  });

  it('keeps each scope once, in a fixed order, and the expiry the owner chose', async () => {
    const started = Date.now();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: owner.headers,
      payload: { name: 'ordered', scopes: ['webhooks:admin', 'read', 'read'], expires_in_days: 90 },
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as { scopes: string[]; expires_at: string };
    expect(created.scopes).toEqual(['read', 'webhooks:admin']);
    const expiresAt = new Date(created.expires_at).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(started + 90 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * 86_400_000);
  });
});

describe('keys and the surfaces they may not use', () => {
  it('never create or revoke keys, whatever their scopes: 403, and the attempt is on record', async () => {
    const { id, key } = await createKey(['read', 'payments:create', 'payments:approve', 'wallet:fund', 'agents:admin', 'policies:admin', 'webhooks:admin']);
    const before = await prisma.ownerApiKey.count({ where: { userId: owner.userId } });
    const create = await withKey(key, 'POST', '/api/v1/api-keys', { name: 'more', scopes: ['read'], expires_in_days: 30 });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const revoke = await withKey(key, 'DELETE', `/api/v1/api-keys/${id}`);
    expect(revoke.statusCode).toBe(403);
    expect(await prisma.ownerApiKey.count({ where: { userId: owner.userId } })).toBe(before);
    expect((await keyUses(id)).map((use) => (use.data as { outcome: string }).outcome)).toEqual(['session_only', 'session_only']);
  });

  it("are refused on the web app's tRPC, which takes a signed-in session", async () => {
    const { key } = await createKey(['read']);
    const response = await t.app.inject({ method: 'GET', url: '/trpc/wallet.get', headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { data: { appCode: 'FORBIDDEN' }, message: expect.stringContaining('/api/v1') } });
  });
});
