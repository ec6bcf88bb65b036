/**
 * Owner API keys through tRPC (apiKeys.create, list, revoke) and as credentials for
 * /auth/v1/user, against a real database; refused on tRPC's owner procedures. Scopes, expiry
 * and the audit of each use: api-key-scopes.db.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '../src/services/invitations/create-invitation';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ authRateLimits: { signUp: 10_000, password: 10_000 } });
});

afterAll(async () => {
  await t?.cleanup();
});

const KEY_PATTERN = /^psk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;
/** What every new key must choose: its scopes and its lifetime. */
const GRANT = { scopes: ['read'], expires_in_days: 30 };

interface Owner {
  userId: string;
  accessToken: string;
}

async function newOwner(): Promise<Owner> {
  const { code } = await createInvitation(t.deps.db.prisma, { maxUses: 1, expiresAt: new Date(Date.now() + 60_000) });
  const response = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    payload: { email: `${randomUUID()}@example.test`, password: 'correct horse', data: { full_name: 'Key Owner', invitation_code: code } },
  });
  expect(response.statusCode).toBe(200);
  const session = response.json();
  return { userId: session.user.id, accessToken: session.access_token };
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

function mutation(path: string, input: unknown, token?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: `/trpc/${path}`, payload: input as object, headers: token ? bearer(token) : {} });
}

function query(path: string, token?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: `/trpc/${path}`, headers: token ? bearer(token) : {} });
}

async function createKey(owner: Owner, name = 'ci'): Promise<{ id: string; key: string; prefix: string }> {
  const response = await mutation('apiKeys.create', { name, ...GRANT }, owner.accessToken);
  expect(response.statusCode).toBe(200);
  return response.json().result.data;
}

function trpcError(response: LightMyRequestResponse): { message: string; data: { code: string; appCode: string | null } } {
  return response.json().error;
}

describe('creating an owner API key', () => {
  it('shows the whole key once and stores only its hash', async () => {
    const owner = await newOwner();
    const response = await mutation('apiKeys.create', { name: '  deploy bot ', scopes: ['payments:approve', 'read'], expires_in_days: 90 }, owner.accessToken);
    expect(response.statusCode).toBe(200);
    const created = response.json().result.data;
    expect(created).toEqual({
      id: expect.any(String),
      name: 'deploy bot',
      prefix: created.key.slice(0, 16),
      key: expect.stringMatching(KEY_PATTERN),
      scopes: ['read', 'payments:approve'],
      created_at: expect.any(String),
      expires_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
    });

    const row = await t.deps.db.prisma.ownerApiKey.findUniqueOrThrow({ where: { id: created.id }, select: { keyHash: true, prefix: true } });
    expect(row.prefix).toBe(created.prefix);
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.keyHash).not.toContain(created.key.slice(17));
  });

  it('lists keys by prefix only; the secret cannot be read again', async () => {
    const owner = await newOwner();
    const created = await createKey(owner);
    const response = await query('apiKeys.list', owner.accessToken);
    expect(response.statusCode).toBe(200);
    const { api_keys: keys } = response.json().result.data;
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scopes']);
    expect(keys[0]).toMatchObject({ id: created.id, prefix: created.prefix });
    expect(response.body).not.toContain(created.key);
  });

  it('refuses a key beyond 25 active ones until one is revoked or has expired', async () => {
    const owner = await newOwner();
    const keys = [];
    for (let i = 0; i < 25; i++) keys.push(await createKey(owner, `key ${i}`));
    const refused = await mutation('apiKeys.create', { name: 'one too many', ...GRANT }, owner.accessToken);
    expect(refused.statusCode).toBe(409);
    expect(trpcError(refused).data.appCode).toBe('CONFLICT');
    await mutation('apiKeys.revoke', { id: keys[0]?.id }, owner.accessToken);
    expect((await mutation('apiKeys.create', { name: 'replacement', ...GRANT }, owner.accessToken)).statusCode).toBe(200);
    await t.deps.db.prisma.ownerApiKey.update({ where: { id: keys[1]!.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await mutation('apiKeys.create', { name: 'after an expiry', ...GRANT }, owner.accessToken)).statusCode).toBe(200);
  });

  it('refuses an owner who is not signed in', async () => {
    const response = await mutation('apiKeys.create', { name: 'x', ...GRANT });
    expect(response.statusCode).toBe(401);
    expect(trpcError(response).data.code).toBe('UNAUTHORIZED');
  });

  it('is refused to a caller authenticated by an API key, so a leaked key cannot mint more', async () => {
    const owner = await newOwner();
    const { key } = await createKey(owner);
    const response = await mutation('apiKeys.create', { name: 'more', ...GRANT }, key);
    expect(response.statusCode).toBe(403);
    expect(trpcError(response).data).toMatchObject({ code: 'FORBIDDEN', appCode: 'FORBIDDEN' });
  });
});

describe('an owner API key as a credential', () => {
  it('authenticates GET /auth/v1/user and records when it was last used', async () => {
    const owner = await newOwner();
    const { id, key } = await createKey(owner);
    const response = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(key) });
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(owner.userId);
    const row = await t.deps.db.prisma.ownerApiKey.findUniqueOrThrow({ where: { id }, select: { lastUsedAt: true } });
    expect(row.lastUsedAt).toBeInstanceOf(Date);
  });

  it("is refused on tRPC's owner procedures: keys are for the REST API", async () => {
    const owner = await newOwner();
    const { key } = await createKey(owner);
    const response = await query('auth.me', key);
    expect(response.statusCode).toBe(403);
    expect(trpcError(response)).toMatchObject({ message: expect.stringContaining('/api/v1'), data: { code: 'FORBIDDEN', appCode: 'FORBIDDEN' } });
  });

  it('is refused once revoked', async () => {
    const owner = await newOwner();
    const { id, key } = await createKey(owner);
    const revoked = await mutation('apiKeys.revoke', { id }, owner.accessToken);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().result.data).toMatchObject({ id, revoked_at: expect.any(String) });

    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(key) })).statusCode).toBe(401);
    expect((await query('auth.me', key)).statusCode).toBe(401);
    const listed = (await query('apiKeys.list', owner.accessToken)).json().result.data.api_keys;
    expect(listed).toEqual([expect.objectContaining({ id, revoked_at: expect.any(String) })]);
  });

  it('is refused when altered, unknown or malformed', async () => {
    const owner = await newOwner();
    const { key } = await createKey(owner);
    const altered = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const unknown = `psk_000000000000_${'A'.repeat(43)}`;
    for (const candidate of [altered, unknown, 'psk_short', `${key}x`]) {
      const response = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(candidate) });
      expect(response.statusCode, candidate).toBe(401);
    }
  });
});

describe('another owner', () => {
  let first: Owner;
  let second: Owner;
  let firstKey: { id: string; key: string };

  beforeAll(async () => {
    first = await newOwner();
    second = await newOwner();
    firstKey = await createKey(first);
  });

  it("does not see the first owner's keys in their list", async () => {
    await createKey(second, 'mine');
    const listed = (await query('apiKeys.list', second.accessToken)).json().result.data.api_keys;
    expect(listed.map((key: { id: string }) => key.id)).not.toContain(firstKey.id);
    expect(listed).toHaveLength(1);
  });

  it("cannot revoke the first owner's key: it is not found and keeps working", async () => {
    const response = await mutation('apiKeys.revoke', { id: firstKey.id }, second.accessToken);
    expect(response.statusCode).toBe(404);
    expect(trpcError(response)).toMatchObject({ message: 'API key not found', data: { code: 'NOT_FOUND', appCode: 'NOT_FOUND' } });
    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(firstKey.key) })).statusCode).toBe(200);
  });

  it('gets the same answer for a key id that does not exist at all', async () => {
    const response = await mutation('apiKeys.revoke', { id: randomUUID() }, second.accessToken);
    expect(response.statusCode).toBe(404);
    expect(trpcError(response).message).toBe('API key not found');
  });
});
