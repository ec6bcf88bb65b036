/**
 * The one-time approval link of a budget request (issue 43) against a real app and database: the
 * agent's request answers `approval_url` (POST /budget/request and the request_budget MCP tool,
 * never GET /budget/{id} or /budgets); only the token's SHA-256 is stored; the signed-in owner reads
 * the request through it and grants it for less, or rejects it with a note, in one transaction
 * that uses the link up (audited, one budget.* delivery). A second use, an expired link, another
 * owner signed in, a link of another request and a decision the session refuses are each refused
 * with their code and change nothing: the session waits, the link stays unused, no audit entry,
 * no delivery.
 */
import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhookEndpointInput,
  PAYMENT_SESSION_APPROVAL_LINK_MINUTES,
  PAYMENT_SESSION_EVENTS,
  type AgentPaymentSessionView,
  type AgentRequestedPaymentSessionView,
  type PaymentSessionApprovalLinkView,
  type PaymentSessionView,
} from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { mintFreshApprovalLink } from '../src/services/payment-sessions/approval-link';
import { createWebhookEndpoint } from '../src/services/webhooks/create-webhook-endpoint';
import { createApiAgent, type ApiAgent } from './support/api-agents';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { listeningTestApp, type TestApp } from './support/test-app';

const AGENT_API = '/functions/v1/mcp-server';
const DAY = 86_400_000;

let t: TestApp;
let prisma: PrismaClient;
let appUrl: string;
let owner: SignedUpOwner;
let stranger: SignedUpOwner;
let endpointId: string;

type TestAgent = ApiAgent;

beforeAll(async () => {
  const served = await listeningTestApp({ agentRateLimitPerMinute: 10_000 });
  t = served;
  appUrl = served.appUrl;
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  stranger = await signUpTestOwner(t.app, prisma, 'Other Owner');
  const endpoint = await createWebhookEndpoint(t.deps, owner.userId, createWebhookEndpointInput.parse({ url: 'https://receiver.example.com/hooks', events: [...PAYMENT_SESSION_EVENTS] }));
  endpointId = endpoint.endpoint.id;
});

afterAll(async () => {
  await t?.cleanup();
});

const createAgent = (): Promise<TestAgent> => createApiAgent(t.app, owner);

const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as T;
}

async function requestBudget(agent: TestAgent, body: object = {}): Promise<AgentRequestedPaymentSessionView> {
  const response = await t.app.inject({
    method: 'POST',
    url: `${AGENT_API}/budget/request`,
    headers: agent.headers,
    payload: { total: 5, per_payment_max: 4, expires_at: inDays(2), reason: 'Buy two datasets for the report', ...body },
  });
  return ok(response, 201);
}

function trpcQuery(path: string, input: object, by: SignedUpOwner = owner): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: `/trpc/paymentSessions.${path}?input=${encodeURIComponent(JSON.stringify(input))}`, headers: by.headers });
}

function trpcMutation(path: string, input: object, by: SignedUpOwner = owner): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: `/trpc/paymentSessions.${path}`, payload: input, headers: by.headers });
}

const data = <T>(response: LightMyRequestResponse) => ok<{ result: { data: T } }>(response).result.data;

/** A tRPC refusal: its HTTP status, AppError code and message. */
function refused(response: LightMyRequestResponse): { status: number; appCode: string; message: string } {
  const body = response.json() as { error: { message: string; data: { appCode: string } } };
  expect(body.error, response.body).toBeDefined();
  return { status: response.statusCode, appCode: body.error.data.appCode, message: body.error.message };
}

/** What a refusal must leave as it was: the session, its links, its audit entries and deliveries. */
async function stateOf(sessionId: string) {
  return {
    session: await prisma.paymentSession.findUniqueOrThrow({ where: { id: sessionId }, select: { status: true, totalUnits: true, expiresAt: true, decisionNote: true, decidedAt: true } }),
    links: await prisma.paymentSessionApprovalLink.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' }, select: { id: true, usedAt: true, expiresAt: true } }),
    audit: await prisma.auditEvent.count({ where: { subject: `payment_session:${sessionId}` } }),
    allAudit: await prisma.auditEvent.count(),
    deliveries: await prisma.webhookDelivery.count({ where: { endpointId } }),
  };
}

async function deliveriesOf(sessionId: string) {
  const rows = await prisma.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' }, select: { eventType: true, payload: true } });
  return rows.filter((row) => (row.payload as { data: { session: { id: string } } }).data.session.id === sessionId).map((row) => row.eventType);
}

describe('the agent gets an approval link with its request', () => {
  it('POST /budget/request answers approval_url on the public origin; GET /budget/{id} and /budgets do not', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    expect(requested.status).toBe('requested');
    expect(requested.approval_url).toMatch(new RegExp(`^${appUrl}/approve/[A-Za-z0-9_-]{43}$`));

    const read = ok<AgentPaymentSessionView>(await t.app.inject({ method: 'GET', url: `${AGENT_API}/budget/${requested.session_id}`, headers: agent.headers }));
    expect(read).not.toHaveProperty('approval_url');
    const list = ok<{ budgets: AgentPaymentSessionView[] }>(await t.app.inject({ method: 'GET', url: `${AGENT_API}/budgets`, headers: agent.headers }));
    expect(list.budgets.map((budget) => 'approval_url' in budget)).toEqual([false]);

    // The budget.requested webhook carries the session, never the link.
    const delivery = await prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId, eventType: 'budget.requested' }, orderBy: { createdAt: 'desc' }, select: { payload: true } });
    expect(JSON.stringify(delivery.payload)).not.toContain(tokenOf(requested.approval_url));
  });

  it('stores only the token’s SHA-256, bound to the request and its owner, for 30 minutes', async () => {
    const agent = await createAgent();
    const before = Date.now();
    const requested = await requestBudget(agent);
    const token = tokenOf(requested.approval_url);
    const rows = await prisma.$queryRaw<Record<string, unknown>[]>`SELECT * FROM payment_session_approval_links WHERE session_id = ${requested.session_id}::uuid`;
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.token_hash).toBe(sha256(token));
    expect(row.owner_id).toBe(owner.userId);
    expect(row.used_at).toBeNull();
    const life = (row.expires_at as Date).getTime() - (row.created_at as Date).getTime();
    expect(life).toBe(PAYMENT_SESSION_APPROVAL_LINK_MINUTES * 60_000);
    expect((row.created_at as Date).getTime()).toBeGreaterThanOrEqual(before - 1_000);
    // The client leaves the hash out unless a query names it.
    const link = await prisma.paymentSessionApprovalLink.findFirstOrThrow({ where: { sessionId: requested.session_id } });
    expect(link).not.toHaveProperty('tokenHash');
  });

  it('the request_budget MCP tool answers approval_url too', async () => {
    const agent = await createAgent();
    const client = new Client({ name: 'approval-link-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
    try {
      const asked = (await client.callTool({ name: 'request_budget', arguments: { total: 2, expires_at: inDays(1), reason: 'Summarise ten papers' } })) as CallToolResult;
      expect(asked.isError).toBeFalsy();
      const view = asked.structuredContent as AgentRequestedPaymentSessionView;
      expect(view.approval_url).toMatch(new RegExp(`^${appUrl}/approve/[A-Za-z0-9_-]{43}$`));
      const read = (await client.callTool({ name: 'get_budget', arguments: { session_id: view.session_id } })) as CallToolResult;
      expect(read.structuredContent).not.toHaveProperty('approval_url');
    } finally {
      await client.close();
    }
  });
});

describe('the owner decides through the link', () => {
  it('reads the request with its agent’s name, grants it for less: audited, budget.granted delivered once, the link used up', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent, { scope: { categories: ['data'] } });
    const token = tokenOf(requested.approval_url);

    const opened = data<PaymentSessionApprovalLinkView>(await trpcQuery('approvalLink', { token }));
    expect(opened).toMatchObject({
      agentName: agent.name,
      session: { id: requested.session_id, status: 'requested', total: 5, perPaymentMax: 4, reason: 'Buy two datasets for the report', scope: { categories: ['data'] } },
    });
    // Reading changed nothing.
    expect((await stateOf(requested.session_id)).links.map((link) => link.usedAt)).toEqual([null]);

    const sooner = inDays(1);
    const granted = data<PaymentSessionView>(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: true, totalUsd: 3, expiresAt: sooner, note: 'Three is enough' }));
    expect(granted).toMatchObject({ id: requested.session_id, status: 'open', total: 3, perPaymentMax: 3, expiresAt: new Date(sooner).toISOString(), decisionNote: 'Three is enough' });

    const state = await stateOf(requested.session_id);
    expect(state.session).toMatchObject({ status: 'open', totalUnits: 3_000_000n, decisionNote: 'Three is enough' });
    expect(state.links[0]!.usedAt).toBeInstanceOf(Date);
    const audit = await prisma.auditEvent.findMany({ where: { subject: `payment_session:${requested.session_id}` }, orderBy: { seq: 'asc' }, select: { action: true, actor: true } });
    expect(audit.map((event) => [event.action, event.actor])).toEqual([
      ['payment_session.requested', `agent:${agent.id}`],
      ['payment_session.granted', `owner:${owner.userId}`],
    ]);
    expect(await deliveriesOf(requested.session_id)).toEqual(['budget.requested', 'budget.granted']);

    // The agent sees it open.
    const seen = ok<AgentPaymentSessionView>(await t.app.inject({ method: 'GET', url: `${AGENT_API}/budget/${requested.session_id}`, headers: agent.headers }));
    expect(seen).toMatchObject({ status: 'open', total: 3, decision_note: 'Three is enough' });
  });

  it('rejects it with a note: budget.rejected delivered once', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const token = tokenOf(requested.approval_url);
    const rejected = data<PaymentSessionView>(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: false, note: 'Use the free dataset' }));
    expect(rejected).toMatchObject({ status: 'rejected', decisionNote: 'Use the free dataset' });
    const state = await stateOf(requested.session_id);
    expect(state.links[0]!.usedAt).toBeInstanceOf(Date);
    expect(state.audit).toBe(2);
    expect(await deliveriesOf(requested.session_id)).toEqual(['budget.requested', 'budget.rejected']);
  });
});

describe('refusals change nothing', () => {
  it('a second use is APPROVAL_LINK_USED, to read or to decide', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const token = tokenOf(requested.approval_url);
    data(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: false, note: 'No' }));
    const before = await stateOf(requested.session_id);

    const read = refused(await trpcQuery('approvalLink', { token }));
    expect(read).toMatchObject({ status: 409, appCode: 'APPROVAL_LINK_USED' });
    const again = refused(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: true }));
    expect(again).toMatchObject({ status: 409, appCode: 'APPROVAL_LINK_USED' });
    expect(again.message).toContain('already used');
    expect(await stateOf(requested.session_id)).toEqual(before);
  });

  it('an expired link is APPROVAL_LINK_EXPIRED; the request still waits and a fresh link decides it', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const token = tokenOf(requested.approval_url);
    await prisma.paymentSessionApprovalLink.updateMany({ where: { sessionId: requested.session_id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const before = await stateOf(requested.session_id);

    expect(refused(await trpcQuery('approvalLink', { token }))).toMatchObject({ status: 409, appCode: 'APPROVAL_LINK_EXPIRED' });
    const late = refused(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: true }));
    expect(late).toMatchObject({ status: 409, appCode: 'APPROVAL_LINK_EXPIRED' });
    expect(await stateOf(requested.session_id)).toEqual(before);
    expect(before.session.status).toBe('requested');
    expect(before.links.map((link) => link.usedAt)).toEqual([null]);

    const fresh = await mintFreshApprovalLink(t.deps, owner.userId, requested.session_id);
    expect(fresh).not.toBe(requested.approval_url);
    expect(data<PaymentSessionView>(await trpcMutation('decideByLink', { token: tokenOf(fresh), sessionId: requested.session_id, approve: true })).status).toBe('open');
    // A session no longer waiting gets no new link.
    await expect(mintFreshApprovalLink(t.deps, owner.userId, requested.session_id)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('another owner signed in with a valid link gets NOT_FOUND, and learns nothing of the request', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const token = tokenOf(requested.approval_url);
    const before = await stateOf(requested.session_id);

    const read = refused(await trpcQuery('approvalLink', { token }, stranger));
    expect(read).toMatchObject({ status: 404, appCode: 'NOT_FOUND' });
    expect(read.message).not.toContain(agent.name);
    const decided = refused(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: true }, stranger));
    expect(decided).toMatchObject({ status: 404, appCode: 'NOT_FOUND' });
    expect(await stateOf(requested.session_id)).toEqual(before);
    expect(before.links.map((link) => link.usedAt)).toEqual([null]);
  });

  it('a link used for another request’s sessionId is NOT_FOUND; neither request nor link changes', async () => {
    const agent = await createAgent();
    const first = await requestBudget(agent);
    const second = await requestBudget(agent, { reason: 'Another task' });
    const before = [await stateOf(first.session_id), await stateOf(second.session_id)];

    const crossed = refused(await trpcMutation('decideByLink', { token: tokenOf(first.approval_url), sessionId: second.session_id, approve: true }));
    expect(crossed).toMatchObject({ status: 404, appCode: 'NOT_FOUND' });
    expect(crossed.message).toContain('another budget request');
    expect([await stateOf(first.session_id), await stateOf(second.session_id)]).toEqual(before);
  });

  it('an unknown token is NOT_FOUND', async () => {
    expect(refused(await trpcQuery('approvalLink', { token: 'not-a-real-token' }))).toMatchObject({ status: 404, appCode: 'NOT_FOUND' });
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const before = await stateOf(requested.session_id);
    expect(refused(await trpcMutation('decideByLink', { token: 'not-a-real-token', sessionId: requested.session_id, approve: true }))).toMatchObject({ status: 404, appCode: 'NOT_FOUND' });
    expect(await stateOf(requested.session_id)).toEqual(before);
  });

  it('a decision the request refuses (more than asked) leaves the link unused, so the owner can try again', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const token = tokenOf(requested.approval_url);
    const before = await stateOf(requested.session_id);
    expect(refused(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: true, totalUsd: 6 }))).toMatchObject({ status: 400, appCode: 'VALIDATION_FAILED' });
    expect(await stateOf(requested.session_id)).toEqual(before);
    expect(data<PaymentSessionView>(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: true, totalUsd: 5 })).status).toBe('open');
  });

  it('a request decided in the console is CONFLICT through its link, which stays unused', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const token = tokenOf(requested.approval_url);
    data(await trpcMutation('decide', { sessionId: requested.session_id, approve: false, note: 'Not now' }));
    const before = await stateOf(requested.session_id);
    expect(refused(await trpcQuery('approvalLink', { token }))).toMatchObject({ status: 409, appCode: 'CONFLICT' });
    expect(refused(await trpcMutation('decideByLink', { token, sessionId: requested.session_id, approve: true }))).toMatchObject({ status: 409, appCode: 'CONFLICT' });
    expect(await stateOf(requested.session_id)).toEqual(before);
    expect(before.links.map((link) => link.usedAt)).toEqual([null]);
  });
});
