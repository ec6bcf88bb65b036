/**
 * What the owner console reads of payment sessions, against a real app and database: the inbox
 * badge's count of budget requests waiting (paymentSessions.pendingCount), the 'session' message
 * of realtime.consoleChanges after each committed change (requested, granted, revoked), only to
 * the session's owner, the payments of one session (intents.list sessionId, and the
 * paymentSessionId each payment shows), and the part of an agent's daily spend paid from
 * sessions (agents.spendHistory sessionSpent).
 */
import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentPaymentSessionView, IntentListView, PaymentSessionView, PendingIntentCountView, SpendHistoryView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { createApiAgent, type ApiAgent } from './support/api-agents';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { subscribeSse } from './support/sse-subscription';
import { createTestApp, type TestApp } from './support/test-app';

const AGENT_API = '/functions/v1/mcp-server';
const DAY_MS = 86_400_000;

let t: TestApp;
let prisma: PrismaClient;
let baseUrl: string;
let owner: SignedUpOwner;
let stranger: SignedUpOwner;

type TestAgent = ApiAgent;

beforeAll(async () => {
  t = await createTestApp({ agentRateLimitPerMinute: 10_000 });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Owner');
  stranger = await signUpTestOwner(t.app, prisma, 'Stranger');
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

const createAgent = (by: SignedUpOwner = owner): Promise<TestAgent> => createApiAgent(t.app, by);

function query(who: SignedUpOwner, path: string, input?: unknown): Promise<LightMyRequestResponse> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return t.app.inject({ method: 'GET', url: `/trpc/${path}${search}`, headers: who.headers });
}

function mutate(who: SignedUpOwner, path: string, input: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: who.headers, payload: input as object });
}

function dataOf<T>(response: LightMyRequestResponse): T {
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { result: { data: T } }).result.data;
}

async function requestBudget(agent: TestAgent, total = 5): Promise<AgentPaymentSessionView> {
  const response = await t.app.inject({
    method: 'POST',
    url: `${AGENT_API}/budget/request`,
    headers: agent.headers,
    payload: { total, expires_at: new Date(Date.now() + 2 * DAY_MS).toISOString(), reason: 'Buy two datasets for the report' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as AgentPaymentSessionView;
}

async function waitingCount(who: SignedUpOwner = owner): Promise<number> {
  return dataOf<PendingIntentCountView>(await query(who, 'paymentSessions.pendingCount')).count;
}

/** A payment's row as the reserve leaves it, optionally naming a session. */
async function payment(agentId: string, dollars: string, reservedAt: Date, sessionId: string | null = null): Promise<string> {
  const id = randomUUID();
  await prisma.paymentIntent.create({
    data: {
      id,
      ownerId: owner.userId,
      agentId,
      createdBy: 'agent',
      amount: BigInt(Math.round(Number(dollars) * 1_000_000)),
      currency: 'USDC',
      status: 'settled',
      workflowId: `payment-${id}`,
      idempotencyKey: id,
      requestHash: 'test',
      reservedAt,
      settledAt: reservedAt,
      paymentSessionId: sessionId,
    },
  });
  return id;
}

async function openSession(agentId: string, totalUsd: number): Promise<PaymentSessionView> {
  return dataOf<PaymentSessionView>(await mutate(owner, 'paymentSessions.open', { agentId, totalUsd, expiresAt: new Date(Date.now() + DAY_MS).toISOString() }));
}

describe('paymentSessions.pendingCount', () => {
  it("counts the owner's budget requests waiting for a decision, and none of another owner's", async () => {
    const before = await waitingCount();
    const strangerBefore = await waitingCount(stranger);
    const agent = await createAgent();
    const first = await requestBudget(agent);
    const second = await requestBudget(agent);
    await openSession(agent.id, 3);
    expect(await waitingCount()).toBe(before + 2);
    expect(await waitingCount(stranger)).toBe(strangerBefore);

    dataOf(await mutate(owner, 'paymentSessions.decide', { sessionId: first.session_id, approve: true, totalUsd: 3 }));
    expect(await waitingCount()).toBe(before + 1);
    dataOf(await mutate(owner, 'paymentSessions.decide', { sessionId: second.session_id, approve: false, note: 'Not this week' }));
    expect(await waitingCount()).toBe(before);
  });

  it('refuses a caller who is not signed in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/trpc/paymentSessions.pendingCount' });
    expect(response.statusCode).toBe(401);
  });
});

describe("realtime.consoleChanges' session messages", () => {
  it('announces each committed change of a session to its owner only', async () => {
    const agent = await createAgent();
    const mine = await subscribeSse(baseUrl, 'realtime.consoleChanges', { token: owner.accessToken });
    const theirs = await subscribeSse(baseUrl, 'realtime.consoleChanges', { token: stranger.accessToken });
    expect(await mine.message()).toEqual({ type: 'sync' });
    expect(await theirs.message()).toEqual({ type: 'sync' });

    const requested = await requestBudget(agent);
    expect(await mine.message()).toEqual({ type: 'session', sessionId: requested.session_id, agentId: agent.id });
    dataOf(await mutate(owner, 'paymentSessions.decide', { sessionId: requested.session_id, approve: true }));
    expect(await mine.message()).toEqual({ type: 'session', sessionId: requested.session_id, agentId: agent.id });
    dataOf(await mutate(owner, 'paymentSessions.revoke', { sessionId: requested.session_id }));
    expect(await mine.message()).toEqual({ type: 'session', sessionId: requested.session_id, agentId: agent.id });

    // The stranger's first message is their own agent: none of the owner's sessions reached it.
    const strangerAgent = await createAgent(stranger);
    expect(await theirs.message()).toEqual({ type: 'agent', agentId: strangerAgent.id });
    mine.close();
    theirs.close();
  });

  it('announces nothing for a refused change', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    dataOf(await mutate(owner, 'paymentSessions.decide', { sessionId: requested.session_id, approve: false, note: 'No' }));
    const mine = await subscribeSse(baseUrl, 'realtime.consoleChanges', { token: owner.accessToken });
    expect(await mine.message()).toEqual({ type: 'sync' });
    // Decided already: a 409, rolled back, so nothing is heard before the next real change.
    expect((await mutate(owner, 'paymentSessions.decide', { sessionId: requested.session_id, approve: true })).statusCode).toBe(409);
    const marker = await createAgent();
    expect(await mine.message()).toEqual({ type: 'agent', agentId: marker.id });
    mine.close();
  });
});

describe('intents.list by session', () => {
  it('lists the payments that named the session, each showing it, and refuses a session id that is no UUID', async () => {
    const agent = await createAgent();
    const session = await openSession(agent.id, 10);
    const other = await openSession(agent.id, 10);
    const now = new Date();
    const paid = [await payment(agent.id, '1', now, session.id), await payment(agent.id, '2', now, session.id)];
    await payment(agent.id, '3', now, other.id);
    await payment(agent.id, '4', now);

    const list = dataOf<IntentListView>(await query(owner, 'intents.list', { sessionId: session.id }));
    expect(list.intents.map((intent) => intent.id).sort()).toEqual([...paid].sort());
    expect(list.intents.every((intent) => intent.paymentSessionId === session.id)).toBe(true);
    const all = dataOf<IntentListView>(await query(owner, 'intents.list', { agentId: agent.id }));
    expect(all.intents.filter((intent) => intent.paymentSessionId === null)).toHaveLength(1);
    // Another owner filtering by this session sees none of it.
    expect(dataOf<IntentListView>(await query(stranger, 'intents.list', { sessionId: session.id })).intents).toEqual([]);

    const bad = await query(owner, 'intents.list', { sessionId: 'not-a-session' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { error: { message: string } }).error.message).toContain('sessionId must be a UUID');
  });
});

describe('agents.spendHistory session share', () => {
  it('answers, per day, the part of the spend paid from payment sessions', async () => {
    const agent = await createAgent();
    const session = await openSession(agent.id, 20);
    const now = new Date();
    const yesterday = new Date(now.getTime() - DAY_MS);
    await payment(agent.id, '1.5', now, session.id);
    await payment(agent.id, '2', now);
    await payment(agent.id, '4', yesterday);

    const history = dataOf<SpendHistoryView>(await query(owner, 'agents.spendHistory', { agentId: agent.id, days: 2 }));
    expect(history.days).toEqual([
      { date: yesterday.toISOString().slice(0, 10), spent: 4, spentExact: '4', sessionSpent: 0, sessionSpentExact: '0' },
      { date: now.toISOString().slice(0, 10), spent: 3.5, spentExact: '3.5', sessionSpent: 1.5, sessionSpentExact: '1.5' },
    ]);
  });
});
