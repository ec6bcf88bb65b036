/**
 * What a shadow policy would have blocked (policies.wouldHaveBlocked) on a real database: the
 * payments the gate let through whose recorded decision says the shadow policy, enforced, would
 * have denied them, across every version of the policy, newest first and paged like
 * intents.list; not the payments the enforced rules refused anyway; never another owner's.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentListView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { authorizePayment, type AuthorizeDeps } from '../src/services/payments/authorize-payment';
import { createRails } from '../src/services/rails/create-rails';
import { insertIntentRow } from './support/intent-rows';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let deps: AuthorizeDeps;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  await api('POST', '/api/v1/wallet/top-up', { amount: 1_000 });
  deps = { prisma, rails: createRails({ prisma }), startDeliveries: async () => {}, log: () => {} };
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

async function api(method: 'POST' | 'PATCH', url: string, payload: object, who = owner): Promise<{ id: string }> {
  const response = await t.app.inject({ method, url, headers: who.headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as { id: string };
}

function wouldHaveBlocked(input: object, who = owner): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: `/trpc/policies.wouldHaveBlocked?input=${encodeURIComponent(JSON.stringify(input))}`, headers: who.headers });
}

async function idsOf(response: LightMyRequestResponse): Promise<{ ids: string[]; nextCursor: string | null }> {
  expect(response.statusCode, response.body).toBe(200);
  const page = (response.json() as { result: { data: IntentListView } }).result.data;
  return { ids: page.intents.map((intent) => intent.id), nextCursor: page.nextCursor };
}

/** A payment the gate allows, authorized in one step (its decision recorded on the intent). */
async function allowedPayment(agentId: string, dollars: number): Promise<string> {
  const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: BigInt(dollars * 1_000_000), rail: 'ledger' });
  expect(await authorizePayment(deps, intentId)).toMatchObject({ outcome: 'authorized' });
  return intentId;
}

/** A payment the enforced rules refuse, at the front's gate. */
async function refusedPayment(agentId: string, dollars: number, category: string): Promise<string> {
  const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: BigInt(dollars * 1_000_000), rail: 'ledger' });
  await prisma.paymentIntent.update({ where: { id: intentId }, data: { category } });
  expect(await authorizePayment(deps, intentId)).toMatchObject({ outcome: 'refused', status: 'blocked', at: 'policy_gate' });
  return intentId;
}

describe('policies.wouldHaveBlocked', () => {
  it("lists the payments a shadow policy would have denied, over all its versions, newest first, a page at a time", async () => {
    const created = await api('POST', '/api/v1/agents', { name: 'Trial subject', max_transaction_amount: 100, max_daily_limit: 1000 });
    const agentId = (created as unknown as { agent: { id: string } }).agent.id;
    await api('POST', '/api/v1/wallet/fund-agent', { agent_id: agentId, amount: 200 });
    const trial = await api('POST', '/api/v1/policies', { name: 'Trial cap', rules: { maxPerTransaction: 5 }, shadow: true });
    const enforced = await api('POST', '/api/v1/policies', { name: 'No gambling', rules: { blockedCategories: ['gambling'] } });

    const overFirstCap = await allowedPayment(agentId, 10);
    await allowedPayment(agentId, 3);
    // New rules: a new version with a new id, still in shadow mode.
    const trialV2 = await api('PATCH', `/api/v1/policies/${trial.id}`, { rules: { maxPerTransaction: 8 } });
    expect(trialV2.id).not.toBe(trial.id);
    await allowedPayment(agentId, 7);
    const overSecondCap = await allowedPayment(agentId, 9);
    // Refused by the enforced policy: the shadow verdict reads deny, but the trial cap is not why.
    const refused = await refusedPayment(agentId, 2, 'gambling');
    const refusedDecision = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: refused }, select: { policyDecision: true } });
    expect(refusedDecision.policyDecision).toMatchObject({ shadow: [{ policyId: trialV2.id, decision: 'deny' }] });

    const all = await idsOf(await wouldHaveBlocked({ policyId: trialV2.id }));
    expect(all).toEqual({ ids: [overSecondCap, overFirstCap], nextCursor: null });
    // Asked by the superseded version's id, the answer is the same policy's.
    expect(await idsOf(await wouldHaveBlocked({ policyId: trial.id }))).toEqual(all);

    const first = await idsOf(await wouldHaveBlocked({ policyId: trialV2.id, limit: 1 }));
    expect(first.ids).toEqual([overSecondCap]);
    expect(first.nextCursor).not.toBeNull();
    expect(await idsOf(await wouldHaveBlocked({ policyId: trialV2.id, limit: 1, cursor: first.nextCursor }))).toEqual({ ids: [overFirstCap], nextCursor: null });

    const page = (await wouldHaveBlocked({ policyId: trialV2.id })).json() as { result: { data: IntentListView } };
    expect(page.result.data.intents[0]).toMatchObject({ id: overSecondCap, amount: 9, status: 'processing' });
    expect(page.result.data.intents[0]!.policyDecision?.shadow).toContainEqual(expect.objectContaining({ policyId: trialV2.id, decision: 'deny' }));

    // An enforced policy has no "would have": it did.
    expect(await idsOf(await wouldHaveBlocked({ policyId: enforced.id }))).toEqual({ ids: [], nextCursor: null });
  });

  it("answers not found for another owner's policy, and refuses a malformed id or cursor", async () => {
    const mine = await api('POST', '/api/v1/policies', { name: 'Mine', rules: { maxPerTransaction: 1 }, shadow: true });
    const stranger = await signUpTestOwner(t.app, prisma, 'Stranger');
    const response = await wouldHaveBlocked({ policyId: mine.id }, stranger);
    expect(response.statusCode).toBe(404);
    expect((response.json() as { error: { message: string } }).error.message).toBe('Policy not found');
    expect((await wouldHaveBlocked({ policyId: 'nope' })).statusCode).toBe(400);
    expect((await wouldHaveBlocked({ policyId: mine.id, cursor: 'not a cursor' })).statusCode).toBe(400);
  });
});
