/** POST /functions/v1/create-agent: the dashboard's Create Agent call (spec section 7). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let owner: SignedUpOwner;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpTestOwner(t.app, t.deps.db.prisma);
});

afterAll(async () => {
  await t?.cleanup();
});

function createAgent(payload: object, headers: Record<string, string> = owner.headers) {
  return t.app.inject({ method: 'POST', url: '/functions/v1/create-agent', payload, headers });
}

describe('POST /functions/v1/create-agent', () => {
  it('creates an agent with the default limits, a DID and an API key shown once', async () => {
    const response = await createAgent({ name: 'Scout', description: 'Finds APIs' });
    expect(response.statusCode).toBe(201);
    const body = response.json() as {
      agent: { name: string; did: string; spending_rules: { max_transaction_amount: number; max_daily_limit: number } };
      api_key: { key: string };
    };
    expect(body.agent.name).toBe('Scout');
    expect(body.agent.did).toMatch(/^did:agnic:/);
    expect(body.agent.spending_rules).toMatchObject({ max_transaction_amount: 100, max_daily_limit: 1000 });
    expect(body.api_key.key).toMatch(/^pak_/);
    const stored = await t.deps.db.prisma.agentApiKey.findFirstOrThrow({ select: { keyHash: true } });
    expect(stored.keyHash).not.toContain(body.api_key.key);
  });

  it("answers 'Please enter an agent name' for a blank name and creates nothing", async () => {
    const before = await t.deps.db.prisma.agent.count();
    const response = await createAgent({ name: '  ', max_transaction_amount: 5, max_daily_limit: 50 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'Please enter an agent name' } });
    expect(await t.deps.db.prisma.agent.count()).toBe(before);
  });

  it('refuses callers without an owner session', async () => {
    const response = await createAgent({ name: 'Nobody' }, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });
});
