/**
 * The agent page's reads on a real database, through tRPC: the spend chart
 * (agents.spendHistory: one entry per UTC day, zero days included, held and settled payments
 * counted, released ones not) and the credential's Verify action (agents.verifyCredential:
 * the stored credential checked like any verifier would). Both are owner-scoped.
 */
import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpendHistoryView, VerifyCredentialResult } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';
import { createAgent as createBareAgent } from './support/wallet-fixtures';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let stranger: SignedUpOwner;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Owner');
  stranger = await signUpTestOwner(t.app, prisma, 'Stranger');
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

async function createAgent(who: SignedUpOwner, name: string, maxDailyLimit = 100): Promise<{ id: string; did: string }> {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: who.headers, payload: { name, max_daily_limit: maxDailyLimit } });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { agent: { id: string; did: string } }).agent;
}

function query(who: SignedUpOwner, path: string, input: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, headers: who.headers });
}

function dataOf<T>(response: LightMyRequestResponse): T {
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { result: { data: T } }).result.data;
}

function errorOf(response: LightMyRequestResponse): { status: number; message: string; appCode: string | null } {
  const error = (response.json() as { error: { message: string; data: { appCode: string | null } } }).error;
  return { status: response.statusCode, message: error.message, appCode: error.data.appCode };
}

/** A payment's row as the reserve leaves it (and, with `released`, as a release leaves it). */
async function spent(ownerId: string, agentId: string, dollars: string, reservedAt: Date, released = false): Promise<void> {
  const id = randomUUID();
  await prisma.paymentIntent.create({
    data: {
      id,
      ownerId,
      agentId,
      createdBy: 'agent',
      amount: BigInt(Math.round(Number(dollars) * 1_000_000)),
      currency: 'USDC',
      status: released ? 'failed' : 'settled',
      workflowId: `payment-${id}`,
      idempotencyKey: id,
      requestHash: 'test',
      reservedAt,
      releasedAt: released ? reservedAt : null,
      settledAt: released ? null : reservedAt,
    },
  });
}

const DAY_MS = 86_400_000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

describe('agents.spendHistory', () => {
  it('answers one entry per UTC day, oldest first and today last, with the held and settled spend and the daily limit', async () => {
    const agent = await createAgent(owner, 'Charted', 100);
    const sibling = await createAgent(owner, 'Sibling');
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 2 * DAY_MS);
    await spent(owner.userId, agent.id, '3', now);
    await spent(owner.userId, agent.id, '4.5', now);
    await spent(owner.userId, agent.id, '10.000001', twoDaysAgo);
    // Released funds were never spent; another agent's spend is not this one's.
    await spent(owner.userId, agent.id, '7', twoDaysAgo, true);
    await spent(owner.userId, sibling.id, '50', now);
    await spent(owner.userId, agent.id, '20', new Date(now.getTime() - 40 * DAY_MS));

    const history = dataOf<SpendHistoryView>(await query(owner, 'agents.spendHistory', { agentId: agent.id }));
    expect(history.currency).toBe('USDC');
    expect(history.dailyLimit).toBe(100);
    expect(history.dailyLimitExact).toBe('100');
    expect(history.days).toHaveLength(30);
    expect(history.days.at(-1)).toEqual({ date: dayOf(now), spent: 7.5, spentExact: '7.5', sessionSpent: 0, sessionSpentExact: '0' });
    expect(history.days.at(-3)).toEqual({ date: dayOf(twoDaysAgo), spent: 10.000001, spentExact: '10.000001', sessionSpent: 0, sessionSpentExact: '0' });
    expect(history.days[0]!.date).toBe(dayOf(new Date(now.getTime() - 29 * DAY_MS)));
    const dates = history.days.map((day) => day.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(30);
    expect(history.days.filter((day) => day.spentExact !== '0').map((day) => day.date)).toEqual([dayOf(twoDaysAgo), dayOf(now)]);

    const longer = dataOf<SpendHistoryView>(await query(owner, 'agents.spendHistory', { agentId: agent.id, days: 45 }));
    expect(longer.days).toHaveLength(45);
    expect(longer.days.find((day) => day.date === dayOf(new Date(now.getTime() - 40 * DAY_MS)))).toMatchObject({ spent: 20 });
    const single = dataOf<SpendHistoryView>(await query(owner, 'agents.spendHistory', { agentId: agent.id, days: 1 }));
    expect(single.days).toEqual([{ date: dayOf(now), spent: 7.5, spentExact: '7.5', sessionSpent: 0, sessionSpentExact: '0' }]);
  });

  it('accepts 1 to 90 days, and answers not found for another owner or a deleted agent', async () => {
    const agent = await createAgent(owner, 'Bounded');
    for (const days of [0, 91, 2.5]) {
      expect(errorOf(await query(owner, 'agents.spendHistory', { agentId: agent.id, days }))).toMatchObject({ status: 400, appCode: 'VALIDATION_FAILED' });
    }
    expect(dataOf<SpendHistoryView>(await query(owner, 'agents.spendHistory', { agentId: agent.id, days: 90 })).days).toHaveLength(90);
    expect(errorOf(await query(stranger, 'agents.spendHistory', { agentId: agent.id }))).toEqual({ status: 404, message: 'Agent not found', appCode: 'NOT_FOUND' });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/agents/${agent.id}`, headers: owner.headers })).statusCode).toBe(200);
    expect(errorOf(await query(owner, 'agents.spendHistory', { agentId: agent.id }))).toMatchObject({ status: 404, appCode: 'NOT_FOUND' });
  });
});

describe('agents.verifyCredential', () => {
  it("verifies the agent's stored credential, and reads it revoked while the agent is suspended", async () => {
    const agent = await createAgent(owner, 'Credentialed');
    const valid = dataOf<VerifyCredentialResult>(await query(owner, 'agents.verifyCredential', { agentId: agent.id }));
    expect(valid).toMatchObject({ valid: true, revoked: false, errors: [] });
    expect(valid.claims).toMatchObject({ sub: agent.did, owner: owner.userId, agent_status: 'active' });

    expect((await t.app.inject({ method: 'POST', url: `/api/v1/agents/${agent.id}/suspend`, headers: owner.headers })).statusCode).toBe(200);
    const revoked = dataOf<VerifyCredentialResult>(await query(owner, 'agents.verifyCredential', { agentId: agent.id }));
    expect(revoked).toMatchObject({ valid: false, revoked: true, errors: ['Credential has been revoked'] });

    expect((await t.app.inject({ method: 'POST', url: `/api/v1/agents/${agent.id}/reactivate`, headers: owner.headers })).statusCode).toBe(200);
    expect(dataOf<VerifyCredentialResult>(await query(owner, 'agents.verifyCredential', { agentId: agent.id }))).toMatchObject({ valid: true, revoked: false });
  });

  it("answers not found for another owner's agent, and says so when an agent holds no credential", async () => {
    const agent = await createAgent(owner, 'Private');
    expect(errorOf(await query(stranger, 'agents.verifyCredential', { agentId: agent.id }))).toEqual({ status: 404, message: 'Agent not found', appCode: 'NOT_FOUND' });
    expect(errorOf(await query(owner, 'agents.verifyCredential', { agentId: 'not-a-uuid' }))).toMatchObject({ status: 400, appCode: 'VALIDATION_FAILED' });

    const bare = await createBareAgent(prisma, owner.userId, { name: 'No credential' });
    expect(dataOf<VerifyCredentialResult>(await query(owner, 'agents.verifyCredential', { agentId: bare.agentId }))).toEqual({
      valid: false,
      revoked: false,
      claims: null,
      errors: ['The agent holds no credential'],
    });
  });
});
