/**
 * Payment intents over /api/v1 and tRPC where no workflow runs: what is refused before an
 * intent exists (validation, ownership, agent status), reads and pages, and what happens when
 * the payment engine cannot be reached. The workflow itself is in payments.temporal.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentListView, IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let agentId: string;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name: 'Buyer' } });
  agentId = (created.json() as { agent: { id: string } }).agent.id;
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

function post(url: string, body: unknown, as: SignedUpOwner = owner, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, headers: { ...as.headers, ...headers }, payload: body as object });
}

function get(url: string, as: SignedUpOwner = owner) {
  return t.app.inject({ method: 'GET', url, headers: as.headers });
}

describe('creating an intent', () => {
  it.each([
    [{ amount: 0 }, 'Amount must be a positive number of dollars with at most 6 decimals'],
    [{ amount: -5 }, 'Amount must be a positive number of dollars with at most 6 decimals'],
    [{ amount: '1.0000001' }, 'Amount must be a positive number of dollars with at most 6 decimals'],
    [{ amount: 5, currency: 'EUR' }, 'Currency must be USDC or USDT'],
    [{ amount: 5, rail: 'paypal' }, 'Rail must be one of ledger, x402-base, solana, card, bank'],
    [{ amount: 5, geography: 'UK' }, 'geography: "UK" is not an assigned ISO 3166-1 alpha-2 country code (did you mean GB?)'],
    [{ amount: 5, maxRetries: 11 }, 'maxRetries must be a whole number from 0 to 10'],
    [{ amount: 5, kyaTier: 'platinum' }, 'kyaTier must be one of pseudonymous, basic, moderate, high'],
    [{ amount: 5, policy: { dailyCapp: 10 } }, /^Unknown policy rule dailyCapp/],
    [{ amount: 5, merchant: '   ' }, 'merchant must not be blank; leave it out instead'],
  ])('refuses %j with a clear message and creates nothing', async (fields, message) => {
    const response = await post('/api/v1/intents', { agentId, ...fields });
    expect(response.statusCode).toBe(400);
    const error = (response.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect(await prisma.paymentIntent.count({ where: { agentId } })).toBe(0);
  });

  it("refuses another owner's agent as if it did not exist, and a suspended agent with 403", async () => {
    const stranger = await signUpTestOwner(t.app, prisma, 'Stranger');
    const foreign = await post('/api/v1/intents', { agentId, amount: 5 }, stranger);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Agent not found' } });

    const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name: 'Sleeper' } });
    const sleeper = (created.json() as { agent: { id: string } }).agent.id;
    await post(`/api/v1/agents/${sleeper}/suspend`, {});
    const suspended = await post('/api/v1/intents', { agentId: sleeper, amount: 5 });
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json()).toMatchObject({ error: { code: 'AGENT_SUSPENDED' } });
    expect(await prisma.paymentIntent.count()).toBe(0);
  });

  it('is refused without credentials', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/intents', payload: { agentId, amount: 5 } });
    expect(response.statusCode).toBe(401);
  });

  it('answers 503 when the payment engine is unreachable, keeps the intent unstarted, and lets the owner cancel it', async () => {
    // This app has no Temporal: the start fails as it would with the cluster down.
    const response = await post('/api/v1/intents', { agentId, amount: 5, purpose: 'Stranded' }, owner, { 'idempotency-key': 'stranded-1' });
    expect(response.statusCode).toBe(503);
    const error = (response.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.message).toMatch(/has not started; nothing was paid\. Send the same request with the same Idempotency-Key to start it\.$/);

    const [intent] = await prisma.paymentIntent.findMany({ where: { agentId, idempotencyKey: 'stranded-1' }, select: { id: true, status: true, reservedAt: true } });
    expect(intent).toMatchObject({ status: 'created', reservedAt: null });
    // The retry meets the same unreachable engine: still one intent.
    expect((await post('/api/v1/intents', { agentId, amount: 5, purpose: 'Stranded' }, owner, { 'idempotency-key': 'stranded-1' })).statusCode).toBe(503);
    expect(await prisma.paymentIntent.count({ where: { agentId, idempotencyKey: 'stranded-1' } })).toBe(1);

    const cancelled = await post(`/api/v1/intents/${intent!.id}/cancel`, { reason: 'Engine down' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', failureCode: 'CANCELLED', failureMessage: 'Engine down' });
    const audit = await prisma.auditEvent.findMany({ where: { subject: `payment_intent:${intent!.id}` }, orderBy: { seq: 'asc' }, select: { action: true } });
    expect(audit.map((event) => event.action)).toEqual(['payment_intent.created', 'payment_intent.cancelled']);
    // Nothing to approve on a cancelled intent.
    expect((await post(`/api/v1/intents/${intent!.id}/approve`, {})).statusCode).toBe(409);
  });
});

describe('reading intents', () => {
  it('lists the owner\'s intents newest first, a page at a time, and filters by status', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await post('/api/v1/intents', { agentId, amount: 1 + i }, owner, { 'idempotency-key': `page-${i}` });
      expect(response.statusCode).toBe(503);
      const row = await prisma.paymentIntent.findFirstOrThrow({ where: { agentId, idempotencyKey: `page-${i}` }, select: { id: true } });
      ids.push(row.id);
    }
    const first = (await get('/api/v1/intents?limit=2&status=created')).json() as IntentListView;
    expect(first.intents.map((intent) => intent.id)).toEqual([ids[2], ids[1]]);
    // Opaque: the position of the page's last intent (payments-console.db.test.ts pages further).
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await get(`/api/v1/intents?limit=2&status=created&cursor=${first.nextCursor}`)).json() as IntentListView;
    expect(second.intents.map((intent) => intent.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();

    const one = (await get(`/api/v1/intents/${ids[0]}`)).json() as IntentView;
    expect(one).toMatchObject({ id: ids[0], amount: 1, amountExact: '1', currency: 'USDC', rail: 'ledger', sandbox: false, status: 'created', createdBy: 'owner' });

    const stranger = await signUpTestOwner(t.app, prisma, 'Reader');
    expect(((await get('/api/v1/intents', stranger)).json() as IntentListView).intents).toEqual([]);
    expect((await get(`/api/v1/intents/${ids[0]}`, stranger)).statusCode).toBe(404);
    expect((await get('/api/v1/intents/not-a-uuid')).statusCode).toBe(400);
  });

  it('serves the same intents over tRPC', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/trpc/intents.list?input=${encodeURIComponent(JSON.stringify({ agentId }))}`, headers: owner.headers });
    expect(response.statusCode).toBe(200);
    const data = (response.json() as { result: { data: IntentListView } }).result.data;
    expect(data.intents.length).toBeGreaterThan(0);
    expect(data.intents.every((intent) => intent.agentId === agentId)).toBe(true);
  });
});
