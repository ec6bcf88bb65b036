/**
 * KYA escalation on a real database, through REST (/api/v1 with kyaRoutes), the tRPC agents
 * router and the services: a verified request raises the tier, records its evidence and
 * re-issues the credential (the old one reads revoked); a rejected one is recorded and changes
 * nothing else; lower or equal tiers, suspended agents and other owners' agents are refused.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentInput, requestKyaEscalationInput, type CreateAgentResult, type KyaEscalationResult, type KyaVerificationView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { createAgent } from '../src/services/agents/create-agent';
import { deleteAgent } from '../src/services/agents/delete-agent';
import { listKyaVerifications } from '../src/services/agents/list-kya-verifications';
import { reactivateAgent } from '../src/services/agents/reactivate-agent';
import { requestKyaEscalation } from '../src/services/agents/request-kya-escalation';
import { suspendAgent } from '../src/services/agents/suspend-agent';
import { verifyAuditChains } from '../src/services/audit/verify-audit-chains';
import { verifyAgentCredential } from '../src/services/identity/verify-agent-credential';
import type { HttpMethod } from '../src/http/api-v1/define-route';
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

const BASIC = { legal_name: 'Acme Robotics GmbH', contact_email: 'Ops@Acme.example' };
const MODERATE = { ...BASIC, country: 'de', registration_number: 'HRB 123456' };
const HIGH = { ...MODERATE, document_sha256: 'AB'.repeat(32), beneficial_owner_name: 'Ada Lovelace' };

function call(owner: SignedUpOwner | undefined, method: HttpMethod, url: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `/api/v1${url}`, payload, headers: owner?.headers ?? {} });
}

async function newAgent(owner: SignedUpOwner, name = 'KYA agent'): Promise<CreateAgentResult['agent']> {
  return (await createAgent(t.deps, owner.userId, createAgentInput.parse({ name }))).agent;
}

function escalate(owner: SignedUpOwner | undefined, agentId: string, body: object): Promise<LightMyRequestResponse> {
  return call(owner, 'POST', `/agents/${agentId}/kya-escalations`, body);
}

/** The service directly, with the body parsed by the contract as every surface does. */
function escalateDirectly(owner: SignedUpOwner, agentId: string, body: { tier: string; evidence: object }): Promise<KyaEscalationResult> {
  return requestKyaEscalation(t.deps, owner.userId, requestKyaEscalationInput.parse({ ...body, agent_id: agentId }));
}

function verifyViaEndpoint(credential: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/api/v1/credentials/verify', payload: { credential } });
}

function auditEventsOf(agentId: string) {
  return prisma.auditEvent.findMany({ where: { subject: `agent:${agentId}`, action: { startsWith: 'agent.kya' } }, orderBy: { seq: 'asc' } });
}

describe('a verified KYA escalation', () => {
  it('raises the tier, records the whole evidence and answers 201 with the verification and the agent', async () => {
    const agent = await newAgent(alice);
    expect(agent.kya_tier).toBe('basic');

    const response = await escalate(alice, agent.id, { tier: 'moderate', evidence: MODERATE });
    expect(response.statusCode).toBe(201);
    const { verification, agent: raised } = response.json() as KyaEscalationResult;
    expect(verification).toMatchObject({
      agent_id: agent.id,
      from_tier: 'basic',
      to_tier: 'moderate',
      status: 'verified',
      method: 'sandbox',
      reason: null,
      requested_by: alice.userId,
      evidence: { legal_name: 'Acme Robotics GmbH', contact_email: 'ops@acme.example', country: 'DE', registration_number: 'HRB 123456' },
    });
    expect(raised.kya_tier).toBe('moderate');

    const row = await prisma.kyaVerification.findUniqueOrThrow({ where: { id: verification.id } });
    expect(row).toMatchObject({ agentId: agent.id, fromTier: 'basic', toTier: 'moderate', status: 'verified', method: 'sandbox', requestedBy: alice.userId });
    expect(row.evidence).toEqual(verification.evidence);
    const stored = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { kyaTier: true } });
    expect(stored.kyaTier).toBe('moderate');
  });

  it('re-issues the credential with the new tier claim, and the credential stating the old tier reads revoked', async () => {
    const agent = await newAgent(alice);
    const old = agent.verifiable_credential!.credential;
    expect((await verifyViaEndpoint(old)).json()).toMatchObject({ valid: true, claims: { kya_tier: 'basic' } });

    const result = await escalateDirectly(alice, agent.id, { tier: 'high', evidence: HIGH });
    const fresh = result.agent.verifiable_credential!;
    expect(fresh.credential).not.toBe(old);
    expect(fresh.claims).toMatchObject({ sub: agent.did, kya_tier: 'high' });

    expect(await verifyAgentCredential({ ...t.deps, prisma }, fresh.credential)).toMatchObject({ valid: true, revoked: false, claims: { kya_tier: 'high' } });
    const oldVerdict = (await verifyViaEndpoint(old)).json();
    expect(oldVerdict).toMatchObject({ valid: false, revoked: true, errors: ['Credential has been revoked'], claims: { kya_tier: 'basic' } });
    const stored = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { verifiableCredential: true } });
    expect(stored.verifiableCredential).toEqual(fresh);
  });

  it('is taken through the tRPC agents router as agents.requestKyaEscalation and listed by agents.kyaVerifications', async () => {
    const agent = await newAgent(alice);
    const mutation = await t.app.inject({
      method: 'POST',
      url: '/trpc/agents.requestKyaEscalation',
      headers: alice.headers,
      payload: { agent_id: agent.id, tier: 'high', evidence: HIGH },
    });
    expect(mutation.statusCode).toBe(200);
    expect((mutation.json().result.data as KyaEscalationResult).agent.kya_tier).toBe('high');

    const query = await t.app.inject({
      method: 'GET',
      url: `/trpc/agents.kyaVerifications?input=${encodeURIComponent(JSON.stringify({ agent_id: agent.id }))}`,
      headers: alice.headers,
    });
    expect(query.statusCode).toBe(200);
    const list = query.json().result.data as KyaVerificationView[];
    expect(list.map((entry) => [entry.from_tier, entry.to_tier, entry.status])).toEqual([['basic', 'high', 'verified']]);
    expect(list[0]?.evidence).toMatchObject({ document_sha256: 'ab'.repeat(32), beneficial_owner_name: 'Ada Lovelace' });
  });

  it('appends agent.kya_tier_raised to the audit log in the same transaction, naming the verification and not the evidence', async () => {
    const agent = await newAgent(alice);
    const { verification } = await escalateDirectly(alice, agent.id, { tier: 'moderate', evidence: MODERATE });
    const events = await auditEventsOf(agent.id);
    expect(events.map((event) => event.action)).toEqual(['agent.kya_tier_raised']);
    expect(events[0]).toMatchObject({ actor: `owner:${alice.userId}`, ownerId: alice.userId });
    expect(events[0]?.data).toEqual({ verification_id: verification.id, method: 'sandbox', from_tier: 'basic', to_tier: 'moderate' });
    expect(JSON.stringify(events[0]?.data)).not.toContain('acme');
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
  });

  it('lets only one of two concurrent requests for the same tier through; the other is refused as not raising the tier', async () => {
    const agent = await newAgent(alice);
    const body = { tier: 'moderate', evidence: MODERATE };
    const responses = await Promise.all([escalate(alice, agent.id, body), escalate(alice, agent.id, body)]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect(await prisma.kyaVerification.count({ where: { agentId: agent.id } })).toBe(1);
  });
});

describe('a rejected KYA escalation', () => {
  it('is recorded with its reason and evidence, and changes neither the tier nor the credential', async () => {
    const agent = await newAgent(alice);
    const credential = agent.verifiable_credential!.credential;
    const response = await escalate(alice, agent.id, { tier: 'moderate', evidence: { ...MODERATE, registration_number: 'SANDBOX-REJECT' } });
    expect(response.statusCode).toBe(201);
    const { verification, agent: after } = response.json() as KyaEscalationResult;
    expect(verification).toMatchObject({
      status: 'rejected',
      from_tier: 'basic',
      to_tier: 'moderate',
      reason: 'Sandbox register: no organisation is registered under SANDBOX-REJECT in DE',
      evidence: { registration_number: 'SANDBOX-REJECT' },
    });
    expect(after.kya_tier).toBe('basic');
    expect(after.verifiable_credential?.credential).toBe(credential);
    expect((await verifyViaEndpoint(credential)).json()).toMatchObject({ valid: true, revoked: false, claims: { kya_tier: 'basic' } });

    const events = await auditEventsOf(agent.id);
    expect(events.map((event) => event.action)).toEqual(['agent.kya_escalation_rejected']);
    expect(events[0]?.data).toEqual({
      verification_id: verification.id,
      method: 'sandbox',
      from_tier: 'basic',
      to_tier: 'moderate',
      reason: 'Sandbox register: no organisation is registered under SANDBOX-REJECT in DE',
    });
  });

  it('leaves the way open: the same tier can be asked for again with other evidence', async () => {
    const agent = await newAgent(alice);
    expect((await escalate(alice, agent.id, { tier: 'basic', evidence: BASIC })).statusCode).toBe(409);
    expect((await escalate(alice, agent.id, { tier: 'high', evidence: { ...HIGH, legal_name: 'sandbox-reject' } })).json().verification.status).toBe('rejected');
    expect((await escalate(alice, agent.id, { tier: 'high', evidence: HIGH })).json().verification.status).toBe('verified');

    const listed = await call(alice, 'GET', `/agents/${agent.id}/kya-verifications`);
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as KyaVerificationView[]).map((entry) => entry.status)).toEqual(['verified', 'rejected']);
  });
});

describe('refused KYA escalations', () => {
  it('refuse a tier at or below the current one with 409, recording nothing', async () => {
    const agent = await newAgent(alice);
    const same = await escalate(alice, agent.id, { tier: 'basic', evidence: BASIC });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toEqual({
      error: { code: 'CONFLICT', message: 'The agent already holds the basic KYA tier, so basic would not raise it: ask for moderate or above' },
    });

    await escalateDirectly(alice, agent.id, { tier: 'high', evidence: HIGH });
    const lower = await errorOf(escalateDirectly(alice, agent.id, { tier: 'moderate', evidence: MODERATE }));
    expect(lower).toEqual({ code: 'CONFLICT', status: 409, message: 'The agent holds the high KYA tier, so moderate would not raise it: high is the highest tier' });
    expect(await prisma.kyaVerification.count({ where: { agentId: agent.id } })).toBe(1);
  });

  it('refuse pseudonymous and evidence short of the tier with 400 and the contract message', async () => {
    const agent = await newAgent(alice);
    const lowest = await escalate(alice, agent.id, { tier: 'pseudonymous', evidence: BASIC });
    expect(lowest.statusCode).toBe(400);
    expect(lowest.json().error).toEqual({ code: 'VALIDATION_FAILED', message: 'tier must be the tier to raise the agent to: basic, moderate, high' });

    const short = await escalate(alice, agent.id, { tier: 'high', evidence: MODERATE });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe(
      'evidence.document_sha256 is required for the high tier: the SHA-256 of the identity or registration document, 64 hexadecimal characters',
    );
    const secret = await escalate(alice, agent.id, { tier: 'basic', evidence: { ...BASIC, password: 'hunter2' } });
    expect(secret.json().error.message).toBe('Unknown evidence field password: the basic tier takes legal_name, contact_email');
    expect(await prisma.kyaVerification.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("answer 404 for another owner's agent, a deleted agent or an unknown id, on both routes", async () => {
    const agent = await newAgent(alice);
    const deleted = await newAgent(alice, 'Gone');
    await deleteAgent(t.deps, alice.userId, deleted.id);
    for (const [owner, id] of [
      [bob, agent.id],
      [alice, deleted.id],
      [alice, '00000000-0000-7000-8000-000000000000'],
    ] as const) {
      const post = await escalate(owner, id, { tier: 'moderate', evidence: MODERATE });
      expect(post.statusCode, id).toBe(404);
      expect(post.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Agent not found' } });
      expect((await call(owner, 'GET', `/agents/${id}/kya-verifications`)).statusCode).toBe(404);
    }
    expect(await errorOf(listKyaVerifications(t.deps, bob.userId, agent.id))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await prisma.kyaVerification.count({ where: { agentId: { in: [agent.id, deleted.id] } } })).toBe(0);
    const unchanged = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { kyaTier: true } });
    expect(unchanged.kyaTier).toBe('basic');
  });

  it('refuse a suspended agent with 403 AGENT_SUSPENDED until it is reactivated', async () => {
    const agent = await newAgent(alice);
    await suspendAgent(t.deps, alice.userId, agent.id);
    const refused = await escalate(alice, agent.id, { tier: 'moderate', evidence: MODERATE });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: 'AGENT_SUSPENDED', message: 'The agent is suspended: reactivate it before raising its KYA tier' } });
    expect(await prisma.kyaVerification.count({ where: { agentId: agent.id } })).toBe(0);

    await reactivateAgent(t.deps, alice.userId, agent.id);
    expect((await escalate(alice, agent.id, { tier: 'moderate', evidence: MODERATE })).statusCode).toBe(201);
  });

  it('refuse callers that are not signed in', async () => {
    const agent = await newAgent(alice);
    expect((await escalate(undefined, agent.id, { tier: 'moderate', evidence: MODERATE })).statusCode).toBe(401);
  });
});

describe('KYA verification records', () => {
  it('can be neither edited nor deleted', async () => {
    const agent = await newAgent(alice);
    const { verification } = await escalateDirectly(alice, agent.id, { tier: 'moderate', evidence: MODERATE });
    await expect(prisma.kyaVerification.update({ where: { id: verification.id }, data: { status: 'rejected' } })).rejects.toThrow();
    await expect(prisma.kyaVerification.delete({ where: { id: verification.id } })).rejects.toThrow();
  });
});
