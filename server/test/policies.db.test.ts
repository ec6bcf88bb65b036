/**
 * Owner policies on a real database, through REST (/api/v1 with policyRoutes), the tRPC
 * policies router and the services: create, list, versioned updates, switching on and off,
 * deletion, ownership, validation messages, the audit trail, and loadApplicablePolicies and
 * loadGateInput, which the payment gate reads.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentInput, evaluateGate, createPolicyInput, updatePolicyInput, type CreatePolicyBody, type PolicyView } from '@purser/core';
import type { Prisma, PrismaClient } from '@purser/db';
import { createAgent } from '../src/services/agents/create-agent';
import { deleteAgent } from '../src/services/agents/delete-agent';
import { verifyAuditChains } from '../src/services/audit/verify-audit-chains';
import { createPolicy } from '../src/services/policies/create-policy';
import { deletePolicy } from '../src/services/policies/delete-policy';
import { getPolicy } from '../src/services/policies/get-policy';
import { listPolicies } from '../src/services/policies/list-policies';
import { loadGateInput } from '../src/services/payments/gate-inputs';
import { loadApplicablePolicies } from '../src/services/policies/load-applicable-policies';
import { updatePolicy } from '../src/services/policies/update-policy';
import type { HttpMethod } from '../src/http/api-v1/define-route';
import { buildOpenApiDocument } from '../src/http/api-v1/openapi';
import { policyRoutes } from '../src/http/api-v1/policy-routes';
import { policiesRouter } from '../src/trpc/policies/router';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { errorOf } from './support/errors';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let alice: SignedUpOwner;
let bob: SignedUpOwner;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  alice = await signUpTestOwner(t.app, prisma, 'Alice');
  bob = await signUpTestOwner(t.app, prisma, 'Bob');
});

afterAll(async () => {
  await t?.cleanup();
});

function call(owner: SignedUpOwner | undefined, method: HttpMethod, url: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `/api/v1${url}`, payload, headers: owner?.headers ?? {} });
}

async function newAgentId(owner: SignedUpOwner, name = 'Policy agent'): Promise<string> {
  return (await createAgent(t.deps, owner.userId, createAgentInput.parse({ name }))).agent.id;
}

function create(owner: SignedUpOwner, body: CreatePolicyBody): Promise<PolicyView> {
  return createPolicy(t.deps, owner.userId, createPolicyInput.parse(body));
}

function uniqueName(label: string): string {
  return `${label} ${randomUUID().slice(0, 8)}`;
}

function auditOf(policyIds: string[]) {
  return prisma.auditEvent.findMany({ where: { subject: { in: policyIds.map((id) => `policy:${id}`) } }, orderBy: { seq: 'asc' } });
}

type IntentFields = Pick<Prisma.PaymentIntentUncheckedCreateInput, 'rail' | 'merchant' | 'toAddress' | 'metadata'>;

/** A payment intent row as the payment engine writes one, and a policy attached to it. */
async function intentWithPolicy(owner: SignedUpOwner, agentId: string, rules: object, fields: IntentFields = {}): Promise<{ intentId: string; policyId: string }> {
  const intent = await prisma.paymentIntent.create({
    data: {
      ...fields,
      ownerId: owner.userId,
      agentId,
      createdBy: 'owner',
      amount: 1_000_000n,
      currency: 'USDC',
      workflowId: `payment-${randomUUID()}`,
      idempotencyKey: randomUUID(),
      requestHash: 'test',
    },
    select: { id: true },
  });
  const policy = await prisma.policy.create({
    data: { ownerId: owner.userId, agentId, paymentIntentId: intent.id, name: `intent:${intent.id}`, version: 1, rules },
    select: { id: true },
  });
  return { intentId: intent.id, policyId: policy.id };
}

describe('creating a policy', () => {
  it('stores the document with exact dollar strings, answers 201 and audits policy.created', async () => {
    const name = uniqueName('Compute only');
    const response = await call(alice, 'POST', '/policies', {
      name: `  ${name} `,
      rules: { dailyCap: 100, allowedCategories: ['compute', ' data '], kyaEscalation: 'moderate', timeBox: '24h', maxPerTransaction: '0.000001' },
    });
    expect(response.statusCode).toBe(201);
    const view = response.json() as PolicyView;
    expect(view).toMatchObject({
      ownerId: alice.userId,
      agentId: null,
      paymentIntentId: null,
      name,
      version: 1,
      shadow: false,
      enabled: true,
      supersededAt: null,
      rules: { maxPerTransaction: '0.000001', dailyLimit: '100', allowedCategories: ['compute', 'data'], kyaEscalation: 'moderate', timeBox: '24h' },
    });
    const row = await prisma.policy.findUniqueOrThrow({ where: { id: view.id } });
    expect(row.rules).toEqual(view.rules);

    const events = await auditOf([view.id]);
    expect(events.map((event) => [event.action, event.actor])).toEqual([['policy.created', `owner:${alice.userId}`]]);
    expect(events[0]?.data).toEqual({ name, version: 1, agent_id: null, shadow: false, enabled: true, rules: view.rules });
  });

  it("sets a policy on one of the owner's agents, and answers 404 for another owner's or a deleted agent", async () => {
    const agentId = await newAgentId(alice);
    const own = await call(alice, 'POST', '/policies', { name: uniqueName('Per agent'), agentId, rules: { maxPerTransaction: 5 }, shadow: true });
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ agentId, shadow: true, rules: { maxPerTransaction: '5' } });

    const name = uniqueName('Stolen');
    const foreign = await call(bob, 'POST', '/policies', { name, agentId, rules: { maxPerTransaction: 5 } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Agent not found' } });

    const gone = await newAgentId(alice, 'Gone');
    await deleteAgent(t.deps, alice.userId, gone);
    expect((await call(alice, 'POST', '/policies', { name, agentId: gone, rules: { maxPerTransaction: 5 } })).statusCode).toBe(404);
    expect(await prisma.policy.count({ where: { name } })).toBe(0);
  });

  it('refuses invalid input with the contract message and a second policy of the same name with 409', async () => {
    const cases: [object, string][] = [
      [{ name: '  ', rules: { dailyLimit: 1 } }, 'Please enter a policy name'],
      [{ name: 'p', rules: { dailyLimt: 1 } }, 'Unknown policy rule dailyLimt; known rules: '],
      [{ name: 'p', rules: { dailyLimit: '1.0000001' } }, 'dailyLimit must have at most 6 decimals'],
      [{ name: 'p', rules: { allowedCountries: ['uk'] } }, 'allowedCountries: "uk" is not an assigned ISO 3166-1 alpha-2 country code (did you mean GB?)'],
      [{ name: 'intent:mine', rules: { dailyLimit: 1 } }, 'Policy names starting with "intent:" are reserved'],
    ];
    for (const [body, message] of cases) {
      const response = await call(alice, 'POST', '/policies', body);
      expect(response.statusCode, message).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
      expect(response.json().error.message.startsWith(message), response.json().error.message).toBe(true);
    }

    const name = uniqueName('Once');
    const first = await create(alice, { name, rules: { dailyLimit: 1 } });
    const again = await call(alice, 'POST', '/policies', { name, rules: { dailyLimit: 2 } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(`A policy named "${name}" already exists; change it instead (id ${first.id})`);
    // Names are per owner.
    expect((await call(bob, 'POST', '/policies', { name, rules: { dailyLimit: 2 } })).statusCode).toBe(201);
  });
});

describe('listing and reading policies', () => {
  it('lists owner-wide policies first, then per-agent ones, never intent policies or other owners\' policies', async () => {
    const owner = await signUpTestOwner(t.app, prisma, 'Lister');
    const first = await newAgentId(owner, 'First');
    const second = await newAgentId(owner, 'Second');
    const forFirst = await create(owner, { name: 'For first', agentId: first, rules: { maxPerTransaction: 1 } });
    const wide = await create(owner, { name: 'Everyone', rules: { dailyLimit: 10 } });
    const forSecond = await create(owner, { name: 'For second', agentId: second, rules: { maxPerTransaction: 2 } });
    const wideLater = await create(owner, { name: 'Everyone too', rules: { monthlyBudget: 10 }, enabled: false });
    await intentWithPolicy(owner, first, { maxPerTransaction: '3' });
    await create(bob, { name: uniqueName('Bob wide'), rules: { dailyLimit: 1 } });

    const all = await call(owner, 'GET', '/policies');
    expect(all.statusCode).toBe(200);
    expect((all.json() as PolicyView[]).map((policy) => policy.id)).toEqual([wide.id, wideLater.id, forFirst.id, forSecond.id]);

    const forAgent = await call(owner, 'GET', `/policies?agentId=${first}`);
    expect((forAgent.json() as PolicyView[]).map((policy) => policy.id)).toEqual([wide.id, wideLater.id, forFirst.id]);

    const viaTrpc = await policiesRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: owner.userId, via: 'session' } }).list();
    expect(viaTrpc.map((policy) => policy.id)).toEqual([wide.id, wideLater.id, forFirst.id, forSecond.id]);
  });

  it("answers 404 for another owner's policy and agent, and reads an intent policy by id", async () => {
    const policy = await create(alice, { name: uniqueName('Private'), rules: { dailyLimit: 1 } });
    expect((await call(alice, 'GET', `/policies/${policy.id}`)).json()).toEqual(policy);
    const foreign = await call(bob, 'GET', `/policies/${policy.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Policy not found' } });
    expect((await call(alice, 'GET', `/policies/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call(alice, 'GET', '/policies/not-a-uuid')).json().error).toEqual({ code: 'VALIDATION_FAILED', message: 'Policy id must be a UUID' });

    const agentId = await newAgentId(alice);
    expect((await call(bob, 'GET', `/policies?agentId=${agentId}`)).statusCode).toBe(404);
    expect((await call(alice, 'GET', '/policies?includeSuperseded=maybe')).json().error.message).toBe('includeSuperseded must be true or false');

    const attached = await intentWithPolicy(alice, agentId, { maxPerTransaction: '3' });
    expect(await getPolicy(t.deps, alice.userId, attached.policyId)).toMatchObject({ paymentIntentId: attached.intentId, rules: { maxPerTransaction: '3' } });
    expect(await errorOf(getPolicy(t.deps, bob.userId, attached.policyId))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('changing a policy', () => {
  it('writes a new version for new rules, supersedes the old one and audits policy.updated with both versions', async () => {
    const name = uniqueName('Versioned');
    const v1 = await create(alice, { name, rules: { dailyLimit: 100 } });
    const response = await call(alice, 'PATCH', `/policies/${v1.id}`, { rules: { dailyLimit: '250.5', blockedMerchants: ['casino.example'] } });
    expect(response.statusCode).toBe(200);
    const v2 = response.json() as PolicyView;
    expect(v2).toMatchObject({ name, version: 2, enabled: true, shadow: false, supersededAt: null, rules: { dailyLimit: '250.5', blockedMerchants: ['casino.example'] } });
    expect(v2.id).not.toBe(v1.id);

    const old = await getPolicy(t.deps, alice.userId, v1.id);
    expect(old.supersededAt).not.toBeNull();
    expect(old.rules).toEqual({ dailyLimit: '100' });

    const events = await auditOf([v2.id]);
    expect(events.map((event) => event.action)).toEqual(['policy.updated']);
    expect(events[0]?.data).toMatchObject({ name, previous_policy_id: v1.id, old_version: 1, new_version: 2, rules: v2.rules });

    const stale = await call(alice, 'PATCH', `/policies/${v1.id}`, { enabled: false });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(`Version 1 of policy "${name}" was superseded by version 2 (id ${v2.id}); change the current version`);

    const listed = await listPolicies(t.deps, alice.userId, { includeSuperseded: true });
    expect(listed.filter((policy) => policy.name === name).map((policy) => policy.version)).toEqual([1, 2]);
    const current = await listPolicies(t.deps, alice.userId, { includeSuperseded: false });
    expect(current.filter((policy) => policy.name === name).map((policy) => policy.version)).toEqual([2]);
  });

  it('writes a new version for a move into shadow mode, and switches the current version off and on in place', async () => {
    const name = uniqueName('Shadowed');
    const v1 = await create(alice, { name, rules: { maxPerTransaction: 10 } });
    const v2 = await updatePolicy(t.deps, alice.userId, updatePolicyInput.parse({ policyId: v1.id, shadow: true }));
    expect(v2).toMatchObject({ version: 2, shadow: true, rules: { maxPerTransaction: '10' } });

    const off = await call(alice, 'PATCH', `/policies/${v2.id}`, { enabled: false });
    expect(off.json()).toMatchObject({ id: v2.id, version: 2, enabled: false, supersededAt: null });
    const on = await call(alice, 'PATCH', `/policies/${v2.id}`, { enabled: true });
    expect(on.json()).toMatchObject({ id: v2.id, enabled: true });

    const events = await auditOf([v2.id]);
    expect(events.map((event) => event.action)).toEqual(['policy.updated', 'policy.disabled', 'policy.enabled']);
    expect(events[1]?.data).toEqual({ name, version: 2 });
  });

  it('writes nothing for a change that changes nothing, and refuses a change that names nothing', async () => {
    const v1 = await create(alice, { name: uniqueName('Same'), rules: { dailyCap: '5.50' } });
    const same = await updatePolicy(t.deps, alice.userId, updatePolicyInput.parse({ policyId: v1.id, rules: { dailyLimit: 5.5 }, shadow: false, enabled: true }));
    expect(same).toEqual(v1);
    expect((await auditOf([v1.id])).map((event) => event.action)).toEqual(['policy.created']);

    const empty = await call(alice, 'PATCH', `/policies/${v1.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('Give at least one of rules, shadow or enabled to change');
  });

  it("answers 404 for another owner's policy and 409 for a policy attached to an intent", async () => {
    const policy = await create(alice, { name: uniqueName('Mine'), rules: { dailyLimit: 1 } });
    expect((await call(bob, 'PATCH', `/policies/${policy.id}`, { enabled: false })).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', `/policies/${policy.id}`)).statusCode).toBe(404);
    expect((await getPolicy(t.deps, alice.userId, policy.id)).enabled).toBe(true);

    const attached = await intentWithPolicy(alice, await newAgentId(alice), { dailyLimit: '1' });
    expect(await errorOf(updatePolicy(t.deps, alice.userId, { policyId: attached.policyId, enabled: false }))).toEqual({
      code: 'CONFLICT',
      status: 409,
      message: 'This policy is attached to a payment intent and cannot be changed here',
    });
    expect(await errorOf(deletePolicy(t.deps, alice.userId, attached.policyId))).toMatchObject({ code: 'CONFLICT' });
  });

  it('lets only one of two concurrent changes of one version through', async () => {
    const v1 = await create(alice, { name: uniqueName('Raced'), rules: { dailyLimit: 1 } });
    const responses = await Promise.all([
      call(alice, 'PATCH', `/policies/${v1.id}`, { rules: { dailyLimit: 2 } }),
      call(alice, 'PATCH', `/policies/${v1.id}`, { rules: { dailyLimit: 3 } }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await prisma.policy.count({ where: { name: v1.name, ownerId: alice.userId } })).toBe(2);
  });
});

describe('deleting a policy', () => {
  it('switches it off and supersedes it, keeps the row, audits policy.deleted, and lets the name start again', async () => {
    const name = uniqueName('Deleted');
    const v1 = await create(alice, { name, rules: { dailyLimit: 1 } });
    const response = await call(alice, 'DELETE', `/policies/${v1.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: v1.id, enabled: false, supersededAt: expect.any(String) });

    expect((await listPolicies(t.deps, alice.userId, { includeSuperseded: false })).some((policy) => policy.id === v1.id)).toBe(false);
    expect((await listPolicies(t.deps, alice.userId, { includeSuperseded: true })).some((policy) => policy.id === v1.id)).toBe(true);
    expect((await auditOf([v1.id])).map((event) => event.action)).toEqual(['policy.created', 'policy.deleted']);

    const again = await call(alice, 'DELETE', `/policies/${v1.id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(`Policy "${name}" was deleted`);

    const reborn = await create(alice, { name, rules: { dailyLimit: 2 } });
    expect(reborn.version).toBe(2);
  });
});

describe('the tRPC policies router', () => {
  it('runs create, get, update, delete and list for the signed-in owner only', async () => {
    const caller = policiesRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: alice.userId, via: 'session' } });
    const created = await caller.create({ name: uniqueName('Via tRPC'), rules: { approvalThreshold: 20 } });
    expect(created.rules).toEqual({ approvalThreshold: '20' });
    expect(await caller.get({ policyId: created.id })).toEqual(created);
    const updated = await caller.update({ policyId: created.id, rules: { approvalThreshold: '25' } });
    expect(updated.version).toBe(2);
    expect((await caller.delete({ policyId: updated.id })).enabled).toBe(false);
    expect((await caller.list({ includeSuperseded: true })).filter((policy) => policy.name === created.name)).toHaveLength(2);

    await expect(caller.create({ name: '', rules: { dailyLimit: 1 } })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const stranger = policiesRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: bob.userId, via: 'session' } });
    await expect(stranger.get({ policyId: created.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const signedOut = policiesRouter.createCaller({ ...t.deps, requestId: 'test', owner: null });
    await expect(signedOut.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('loadApplicablePolicies', () => {
  it('returns the enabled current policies of the owner, the agent and the intent, in that order, parsed for the engine', async () => {
    const owner = await signUpTestOwner(t.app, prisma, 'Gate owner');
    const agentId = await newAgentId(owner, 'Payer');
    const otherAgentId = await newAgentId(owner, 'Other');

    const wide = await create(owner, { name: 'Wide', rules: { dailyCap: '100' } });
    const mine = await create(owner, { name: 'Mine', agentId, rules: { maxPerTransaction: '0.5', timeBox: '2h' } });
    await create(owner, { name: 'Other agent', agentId: otherAgentId, rules: { maxPerTransaction: 1 } });
    const shadow = await create(owner, { name: 'Shadow', rules: { blockedCountries: ['kp'] }, shadow: true });
    await create(owner, { name: 'Off', rules: { dailyLimit: 1 }, enabled: false });
    const replaced = await create(owner, { name: 'Replaced', rules: { dailyLimit: 1 } });
    const replacement = await updatePolicy(t.deps, owner.userId, updatePolicyInput.parse({ policyId: replaced.id, rules: { dailyLimit: 7 } }));
    const removed = await create(owner, { name: 'Removed', rules: { dailyLimit: 1 } });
    await deletePolicy(t.deps, owner.userId, removed.id);
    const attached = await intentWithPolicy(owner, agentId, { allowedCategories: ['compute'] });
    await intentWithPolicy(owner, agentId, { allowedCategories: ['other intent'] });
    await create(bob, { name: uniqueName('Bob'), rules: { dailyLimit: 1 } });

    const policies = await loadApplicablePolicies(prisma, { ownerId: owner.userId, agentId, intentId: attached.intentId });
    expect(policies.map((policy) => policy.id)).toEqual([wide.id, shadow.id, replacement.id, mine.id, attached.policyId]);
    expect(policies[0]).toEqual({ id: wide.id, name: 'Wide', version: 1, rules: { dailyLimit: 100_000_000n }, shadow: false });
    expect(policies[1]).toMatchObject({ shadow: true, rules: { blockedCountries: ['KP'] } });
    expect(policies[2]).toMatchObject({ version: 2, rules: { dailyLimit: 7_000_000n } });
    expect(policies[3]?.rules).toEqual({ maxPerTransaction: 500_000n, dailyLimit: undefined, timeBox: { text: '2h', milliseconds: 7_200_000 } });
    expect(policies[4]?.rules.allowedCategories).toEqual(['compute']);

    const withoutIntent = await loadApplicablePolicies(prisma, { ownerId: owner.userId, agentId: otherAgentId });
    expect(withoutIntent.map((policy) => policy.name)).toEqual(['Wide', 'Shadow', 'Replaced', 'Other agent']);

    // Inside a transaction too, as the gate calls it.
    const inTx = await prisma.$transaction((tx) => loadApplicablePolicies(tx, { ownerId: owner.userId, agentId, intentId: attached.intentId }));
    expect(inTx.map((policy) => policy.id)).toEqual(policies.map((policy) => policy.id));
  });

  it('stops with an error rather than skip a stored policy that no longer parses', async () => {
    const owner = await signUpTestOwner(t.app, prisma, 'Corrupt');
    const agentId = await newAgentId(owner);
    await prisma.policy.create({ data: { ownerId: owner.userId, name: 'Broken', version: 1, rules: { dailyLimt: '1' } } });
    expect(await errorOf(loadApplicablePolicies(prisma, { ownerId: owner.userId, agentId }))).toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/^Stored policy "Broken" version 1/) });
  });
});

describe('merchant rules at the gate of an x402 payment', () => {
  const payTo = '0x52908400098527886E0F7030069857D2E4169EE7';
  /** As /x402/sign-payment writes an intent: the merchant is the host of the URL the agent gave. */
  function x402Intent(urlFetched?: true): IntentFields {
    const requirement = { scheme: 'exact', network: 'eip155:84532', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payTo, maxTimeoutSeconds: 60, amount: '1000000' };
    const url = 'https://api.example.com/report';
    return {
      rail: 'x402_base',
      merchant: 'api.example.com',
      toAddress: payTo,
      metadata: { url, network: 'eip155:84532', x402: { x402_version: 2, requirement, resource: { url }, ...(urlFetched ? { url_fetched: true } : {}) } },
    };
  }

  async function gate(intentId: string) {
    const at = new Date();
    const input = await prisma.$transaction((tx) => loadGateInput(tx, intentId, at));
    return { input, evaluation: evaluateGate(input, at) };
  }

  it("treats the host of a URL the agent only named as its claim: a host allow-list refuses it, an allow-list naming payTo lets it through", async () => {
    const owner = await signUpTestOwner(t.app, prisma, 'x402 buyer');
    const agentId = await newAgentId(owner, 'Buyer');

    const byHost = await intentWithPolicy(owner, agentId, { allowedMerchants: ['api.example.com'] }, x402Intent());
    const hosted = await gate(byHost.intentId);
    expect(hosted.input.intent).toMatchObject({ merchant: 'api.example.com', toAddress: payTo, merchantVerified: false });
    expect(hosted.evaluation.decision).toBe('deny');
    expect(hosted.evaluation.fired).toEqual([
      expect.objectContaining({ rule: 'allowedMerchants', code: 'MERCHANT_NOT_ALLOWED', message: expect.stringContaining("is the agent's claim, not a URL Purser fetched") }),
    ]);

    const byAddress = await intentWithPolicy(owner, agentId, { allowedMerchants: [payTo.toLowerCase()] }, x402Intent());
    const addressed = await gate(byAddress.intentId);
    expect(addressed.input.intent.merchantVerified).toBe(false);
    expect(addressed.evaluation).toMatchObject({ decision: 'allow', fired: [] });

    const blocked = await intentWithPolicy(owner, agentId, { blockedMerchants: ['API.example.com'] }, x402Intent());
    expect((await gate(blocked.intentId)).evaluation.fired.map((rule) => rule.code)).toEqual(['MERCHANT_BLOCKED']);
  });

  it('trusts the host of a URL Purser fetched itself, and the merchant of an intent on another rail', async () => {
    const owner = await signUpTestOwner(t.app, prisma, 'x402 fetcher');
    const agentId = await newAgentId(owner, 'Fetcher');
    const rules = { allowedMerchants: ['api.example.com'] };

    const fetched = await gate((await intentWithPolicy(owner, agentId, rules, x402Intent(true))).intentId);
    expect(fetched.input.intent.merchantVerified).toBe(true);
    expect(fetched.evaluation.decision).toBe('allow');

    const ledger = await gate((await intentWithPolicy(owner, agentId, rules, { merchant: 'api.example.com' })).intentId);
    expect(ledger.input.intent).toMatchObject({ toAddress: null, merchantVerified: true });
    expect(ledger.evaluation.decision).toBe('allow');
  });
});

describe('the audit trail and the API document', () => {
  it('keeps the audit chain intact', async () => {
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
  });

  it('describes the policy routes under the Policies tag, with the rules in the request body', async () => {
    // The document of these routes alone; the app serves it merged with every other route.
    const document = buildOpenApiDocument(policyRoutes, { serverUrl: t.deps.publicUrl, version: 'test' }) as unknown as {
      paths: Record<string, Record<string, { operationId: string; tags: string[]; requestBody?: unknown }>>;
    };
    expect(Object.keys(document.paths).sort()).toEqual(['/policies', '/policies/{policyId}']);
    expect(document.paths['/policies']?.post?.tags).toEqual(['Policies']);
    expect(JSON.stringify(document.paths['/policies']?.post?.requestBody)).toContain('maxPerTransaction');
    expect(Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId)).sort()).toEqual(
      ['createPolicy', 'deletePolicy', 'getPolicy', 'listPolicies', 'updatePolicy'],
    );
  });
});
