/**
 * Payment sessions (issue 43, part one) against a real app and database: the owner opens a
 * budget for an agent over REST; the agent asks for one with its API key and the owner grants it
 * for less and sooner, rejects it with a note or revokes it; the sixth waiting request is refused;
 * bad input is a 400 that writes nothing; another owner's sessions and agents are 404 and stay as
 * they are; a second decision is a 409. Every change leaves one audit entry and one budget.*
 * delivery per subscribed endpoint; tRPC and the MCP tools reach the same services.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhookEndpointInput,
  PAYMENT_SESSION_EVENTS,
  PAYMENT_SESSION_NOT_FOUND_MESSAGE,
  type AgentPaymentSessionView,
  type PaymentSessionView,
} from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { mintFreshApprovalLink } from '../src/services/payment-sessions/approval-link';
import { closeExpiredSession, sweepExpiredSessions } from '../src/services/payment-sessions/close-payment-session';
import { countWaitingRequests } from '../src/services/payment-sessions/count-waiting-requests';
import { decidePaymentSessionByLink } from '../src/services/payment-sessions/decide-by-approval-link';
import { readApprovalLink } from '../src/services/payment-sessions/read-approval-link';
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
let endpointId: string;

type TestAgent = ApiAgent;

beforeAll(async () => {
  const served = await listeningTestApp({ agentRateLimitPerMinute: 10_000 });
  t = served;
  appUrl = served.appUrl;
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  const endpoint = await createWebhookEndpoint(t.deps, owner.userId, createWebhookEndpointInput.parse({ url: 'https://receiver.example.com/hooks', events: [...PAYMENT_SESSION_EVENTS] }));
  endpointId = endpoint.endpoint.id;
});

afterAll(async () => {
  await t?.cleanup();
});

const createAgent = (by: SignedUpOwner = owner): Promise<TestAgent> => createApiAgent(t.app, by);

function ownerCall(method: 'GET' | 'POST', url: string, payload?: object, by: SignedUpOwner = owner): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `/api/v1${url}`, headers: by.headers, ...(payload ? { payload } : {}) });
}

function agentCall(agent: TestAgent, method: 'GET' | 'POST', path: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `${AGENT_API}${path}`, headers: agent.headers, ...(payload ? { payload } : {}) });
}

const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

function ok<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as T;
}

function refusal(response: LightMyRequestResponse, status: number): { code: string; message: string } {
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as { error: { code: string; message: string } }).error;
}

async function requestBudget(agent: TestAgent, body: object = {}): Promise<AgentPaymentSessionView> {
  return ok(await agentCall(agent, 'POST', '/budget/request', { total: 5, expires_at: inDays(2), reason: 'Buy two datasets for the report', ...body }), 201);
}

async function auditOf(sessionId: string) {
  return prisma.auditEvent.findMany({ where: { subject: `payment_session:${sessionId}` }, orderBy: { seq: 'asc' }, select: { action: true, actor: true, ownerId: true, data: true } });
}

async function deliveriesOf(sessionId: string) {
  const rows = await prisma.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' }, select: { eventType: true, payload: true } });
  return rows.filter((row) => (row.payload as { data: { session: { id: string } } }).data.session.id === sessionId);
}

/** Everything a refused call could have written. */
async function snapshot() {
  return {
    sessions: await prisma.paymentSession.findMany({ orderBy: { id: 'asc' } }),
    audit: await prisma.auditEvent.count(),
    deliveries: await prisma.webhookDelivery.count(),
  };
}

describe('the owner opens a session', () => {
  it('is open at once for their agent, with its cap and normalised scope, audited and announced as budget.granted', async () => {
    const agent = await createAgent();
    const expiresAt = inDays(1);
    const opened = ok<PaymentSessionView>(
      await ownerCall('POST', '/payment-sessions', {
        agentId: agent.id,
        totalUsd: 10,
        perPaymentMaxUsd: '2.5',
        expiresAt,
        scope: { sellers: ['API.Example.com', '0x1111111111111111111111111111111111111111'], protocols: ['x402'] },
        reason: 'Research run',
      }),
      201,
    );
    expect(opened).toMatchObject({
      agentId: agent.id,
      status: 'open',
      requestedBy: 'owner',
      reason: 'Research run',
      total: 10,
      totalExact: '10',
      perPaymentMax: 2.5,
      perPaymentMaxExact: '2.5',
      spent: 0,
      remaining: 10,
      remainingExact: '10',
      scope: { sellers: ['api.example.com', '0x1111111111111111111111111111111111111111'], protocols: ['x402'] },
      expiresAt: new Date(expiresAt).toISOString(),
      decidedAt: expect.any(String),
      closedReason: null,
    });
    expect(ok<PaymentSessionView>(await ownerCall('GET', `/payment-sessions/${opened.id}`))).toEqual(opened);

    expect(await auditOf(opened.id)).toEqual([
      expect.objectContaining({ action: 'payment_session.opened', actor: `owner:${owner.userId}`, ownerId: owner.userId, data: expect.objectContaining({ agent_id: agent.id, total: '10', per_payment_max: '2.5' }) }),
    ]);
    const deliveries = await deliveriesOf(opened.id);
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(['budget.granted']);
    expect(deliveries[0]!.payload).toMatchObject({ type: 'budget.granted', data: { session: { id: opened.id, status: 'open', totalExact: '10' } } });
  });

  it('the agent sees it among its budgets, told to pass session_id with its payments', async () => {
    const agent = await createAgent();
    const opened = ok<PaymentSessionView>(await ownerCall('POST', '/payment-sessions', { agentId: agent.id, totalUsd: 3, expiresAt: inDays(1) }), 201);
    const budgets = ok<{ budgets: AgentPaymentSessionView[] }>(await agentCall(agent, 'GET', '/budgets'));
    expect(budgets.budgets).toEqual([expect.objectContaining({ session_id: opened.id, status: 'open', total: 3, remaining_exact: '3', scope: {}, message: expect.stringContaining(`session_id ${opened.id}`) })]);
  });
});

describe('the agent asks, the owner decides', () => {
  it('a request waits; the owner grants less and sooner; the agent reads it open; a second decision is a 409 that changes nothing', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent, { per_payment_max: 4, scope: { categories: ['data'] } });
    expect(requested).toMatchObject({
      status: 'requested',
      total: 5,
      total_exact: '5',
      per_payment_max: 4,
      spent: 0,
      remaining: 5,
      scope: { categories: ['data'] },
      reason: 'Buy two datasets for the report',
      decision_note: null,
      closed_reason: null,
    });
    expect(requested.message).toContain(`GET /budget/${requested.session_id}`);
    expect(ok<{ sessions: PaymentSessionView[] }>(await ownerCall('GET', `/payment-sessions?agentId=${agent.id}&status=requested`)).sessions.map((s) => s.id)).toEqual([requested.session_id]);

    const sooner = inDays(1);
    const granted = ok<PaymentSessionView>(await ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: true, totalUsd: 3, expiresAt: sooner, note: 'Three is enough' }));
    // The cap per payment came down with the total: no payment may be more than the whole.
    expect(granted).toMatchObject({ status: 'open', requestedBy: 'agent', total: 3, perPaymentMax: 3, expiresAt: new Date(sooner).toISOString(), decisionNote: 'Three is enough', decidedAt: expect.any(String) });

    const seen = ok<AgentPaymentSessionView>(await agentCall(agent, 'GET', `/budget/${requested.session_id}`));
    expect(seen).toMatchObject({ session_id: requested.session_id, status: 'open', total: 3, remaining: 3, decision_note: 'Three is enough' });
    expect(seen.message).toContain(`pass session_id ${requested.session_id}`);

    const before = await snapshot();
    const again = refusal(await ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: false, note: 'Changed my mind' }), 409);
    expect(again.code).toBe('CONFLICT');
    expect(await snapshot()).toEqual(before);

    expect((await auditOf(requested.session_id)).map((event) => [event.action, event.actor])).toEqual([
      ['payment_session.requested', `agent:${agent.id}`],
      ['payment_session.granted', `owner:${owner.userId}`],
    ]);
    expect((await deliveriesOf(requested.session_id)).map((delivery) => delivery.eventType)).toEqual(['budget.requested', 'budget.granted']);
  });

  it('two decisions at once decide once: one answers, the other is a 409, one event is sent', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const answers = await Promise.all([
      ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: true }),
      ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: false, note: 'No' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json() as PaymentSessionView;
    expect((await prisma.paymentSession.findUniqueOrThrow({ where: { id: requested.session_id } })).status).toBe(winner.status);
    expect((await auditOf(requested.session_id)).map((event) => event.action)).toHaveLength(2);
    expect((await deliveriesOf(requested.session_id)).map((delivery) => delivery.eventType)).toEqual(['budget.requested', winner.status === 'open' ? 'budget.granted' : 'budget.rejected']);
  });

  it('a grant may not be for more, or for longer, than asked: 400 and the request still waits', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent, { expires_at: inDays(2) });
    const before = await snapshot();
    const more = refusal(await ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: true, totalUsd: 6 }), 400);
    expect(more).toEqual({ code: 'VALIDATION_FAILED', message: 'The total granted can be at most the 5 USDC asked for' });
    const longer = refusal(await ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: true, expiresAt: inDays(3) }), 400);
    expect(longer.code).toBe('VALIDATION_FAILED');
    expect(longer.message).toContain('The expiry granted can be at most the one asked for');
    expect(await snapshot()).toEqual(before);
  });

  it('a rejection keeps the note for the agent and is announced as budget.rejected; it cannot be revoked afterwards', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const rejected = ok<PaymentSessionView>(await ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: false, note: 'Use the free tier first' }));
    expect(rejected).toMatchObject({ status: 'rejected', decisionNote: 'Use the free tier first', decidedAt: expect.any(String), closedReason: null });
    const seen = ok<AgentPaymentSessionView>(await agentCall(agent, 'GET', `/budget/${requested.session_id}`));
    expect(seen).toMatchObject({ status: 'rejected', decision_note: 'Use the free tier first' });
    expect(seen.message).toContain('rejected');

    expect(refusal(await ownerCall('POST', `/payment-sessions/${requested.session_id}/revoke`), 409).code).toBe('CONFLICT');
    expect((await auditOf(requested.session_id)).map((event) => event.action)).toEqual(['payment_session.requested', 'payment_session.rejected']);
    expect((await deliveriesOf(requested.session_id)).map((delivery) => delivery.eventType)).toEqual(['budget.requested', 'budget.rejected']);
  });

  it('the owner revokes an open session and a waiting request: closed at once, announced as budget.closed; revoking again is a 409', async () => {
    const agent = await createAgent();
    const opened = ok<PaymentSessionView>(await ownerCall('POST', '/payment-sessions', { agentId: agent.id, totalUsd: 4, expiresAt: inDays(1) }), 201);
    const revoked = ok<PaymentSessionView>(await ownerCall('POST', `/payment-sessions/${opened.id}/revoke`));
    expect(revoked).toMatchObject({ status: 'closed', closedReason: 'revoked', closedAt: expect.any(String) });
    expect(ok<AgentPaymentSessionView>(await agentCall(agent, 'GET', `/budget/${opened.id}`))).toMatchObject({ status: 'closed', closed_reason: 'revoked' });

    const before = await snapshot();
    expect(refusal(await ownerCall('POST', `/payment-sessions/${opened.id}/revoke`), 409).code).toBe('CONFLICT');
    expect(await snapshot()).toEqual(before);

    const requested = await requestBudget(agent);
    expect(ok<PaymentSessionView>(await ownerCall('POST', `/payment-sessions/${requested.session_id}/revoke`))).toMatchObject({ status: 'closed', closedReason: 'revoked' });
    expect(refusal(await ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: true }), 409).code).toBe('CONFLICT');

    expect((await auditOf(opened.id)).map((event) => event.action)).toEqual(['payment_session.opened', 'payment_session.revoked']);
    expect((await deliveriesOf(opened.id)).map((delivery) => delivery.eventType)).toEqual(['budget.granted', 'budget.closed']);
    expect((await deliveriesOf(requested.session_id)).map((delivery) => delivery.eventType)).toEqual(['budget.requested', 'budget.closed']);
  });

  it('five requests may wait at once: the sixth is a 409 that writes nothing, and a decision makes room', async () => {
    const agent = await createAgent();
    const waiting = [];
    for (let i = 0; i < 5; i++) waiting.push(await requestBudget(agent, { total: i + 1 }));
    const before = await snapshot();
    const sixth = refusal(await agentCall(agent, 'POST', '/budget/request', { total: 1, expires_at: inDays(1), reason: 'One more' }), 409);
    expect(sixth.code).toBe('CONFLICT');
    expect(sixth.message).toContain('wait for the owner');
    expect(await snapshot()).toEqual(before);

    ok(await ownerCall('POST', `/payment-sessions/${waiting[0]!.session_id}/decide`, { approve: false }));
    await requestBudget(agent, { total: 1 });
    expect(await prisma.paymentSession.count({ where: { agentId: agent.id, status: 'requested' } })).toBe(5);
  });

  it('an open session past its expiry reads as closed (expired) and lists as closed, without a write', async () => {
    const agent = await createAgent();
    const opened = ok<PaymentSessionView>(await ownerCall('POST', '/payment-sessions', { agentId: agent.id, totalUsd: 2, expiresAt: inDays(1) }), 201);
    const past = new Date(Date.now() - 60_000);
    await prisma.paymentSession.update({ where: { id: opened.id }, data: { expiresAt: past } });

    expect(ok<PaymentSessionView>(await ownerCall('GET', `/payment-sessions/${opened.id}`))).toMatchObject({ status: 'closed', closedReason: 'expired', closedAt: past.toISOString() });
    const ids = async (status: string) => ok<{ sessions: PaymentSessionView[] }>(await ownerCall('GET', `/payment-sessions?agentId=${agent.id}&status=${status}`)).sessions.map((s) => s.id);
    expect(await ids('open')).toEqual([]);
    expect(await ids('closed')).toEqual([opened.id]);
    expect((await prisma.paymentSession.findUniqueOrThrow({ where: { id: opened.id } })).status).toBe('open');
  });

  it("the reconciler's sweep closes an open session whose expiry timer missed it, once, announced as budget.closed", async () => {
    const agent = await createAgent();
    const missed = ok<PaymentSessionView>(await ownerCall('POST', '/payment-sessions', { agentId: agent.id, totalUsd: 2, expiresAt: inDays(1) }), 201);
    const recent = ok<PaymentSessionView>(await ownerCall('POST', '/payment-sessions', { agentId: agent.id, totalUsd: 2, expiresAt: inDays(1) }), 201);
    const past = new Date(Date.now() - 5 * 60_000);
    await prisma.paymentSession.update({ where: { id: missed.id }, data: { expiresAt: past } });
    // Expired a moment ago: its own timer's to close, not the sweep's.
    await prisma.paymentSession.update({ where: { id: recent.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });

    expect(await sweepExpiredSessions(t.deps)).toContain(missed.id);
    expect(await prisma.paymentSession.findUniqueOrThrow({ where: { id: missed.id } })).toMatchObject({ status: 'closed', closedReason: 'expired', closedAt: past });
    expect((await prisma.paymentSession.findUniqueOrThrow({ where: { id: recent.id } })).status).toBe('open');
    expect((await auditOf(missed.id)).map((entry) => [entry.action, entry.actor])).toEqual([
      ['payment_session.opened', `owner:${owner.userId}`],
      ['payment_session.closed', 'system:payment-session-expiry'],
    ]);
    expect((await deliveriesOf(missed.id)).map((delivery) => delivery.eventType)).toEqual(['budget.granted', 'budget.closed']);
    // A second sweep finds nothing of it to do.
    expect(await sweepExpiredSessions(t.deps)).not.toContain(missed.id);
    expect(await deliveriesOf(missed.id)).toHaveLength(2);
  });
});

describe('a request its owner leaves undecided', () => {
  it('reads closed (expired) once past the expiry it asked for, leaves the inbox, and can no longer be decided, revoked or linked to', async () => {
    const agent = await createAgent();
    const requested = ok<AgentPaymentSessionView & { approval_url: string }>(
      await agentCall(agent, 'POST', '/budget/request', { total: 3, expires_at: inDays(1), reason: 'A dataset' }),
      201,
    );
    const waitingBefore = (await countWaitingRequests(t.deps, owner.userId)).count;
    const expiresAt = new Date(Date.now() - 60_000);
    await prisma.paymentSession.update({ where: { id: requested.session_id }, data: { expiresAt } });

    expect(ok<PaymentSessionView>(await ownerCall('GET', `/payment-sessions/${requested.session_id}`))).toMatchObject({
      status: 'closed',
      closedReason: 'expired',
      closedAt: expiresAt.toISOString(),
      decidedAt: null,
    });
    const seen = ok<AgentPaymentSessionView>(await agentCall(agent, 'GET', `/budget/${requested.session_id}`));
    expect(seen).toMatchObject({ status: 'closed', closed_reason: 'expired' });
    expect(seen.message).toContain('expired before the owner decided');
    const ids = async (status: string) => ok<{ sessions: PaymentSessionView[] }>(await ownerCall('GET', `/payment-sessions?agentId=${agent.id}&status=${status}`)).sessions.map((s) => s.id);
    expect(await ids('requested')).toEqual([]);
    expect(await ids('closed')).toEqual([requested.session_id]);
    expect(await countWaitingRequests(t.deps, owner.userId)).toEqual({ count: waitingBefore - 1 });

    const before = await snapshot();
    for (const [url, body] of [
      [`/payment-sessions/${requested.session_id}/decide`, { approve: true }],
      [`/payment-sessions/${requested.session_id}/decide`, { approve: false, note: 'Too late' }],
      [`/payment-sessions/${requested.session_id}/revoke`, undefined],
    ] as const) {
      expect(refusal(await ownerCall('POST', url, body), 409).code).toBe('CONFLICT');
    }
    const token = new URL(requested.approval_url).pathname.split('/').pop()!;
    await expect(readApprovalLink(t.deps, owner.userId, token)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('expired before it was decided') });
    await expect(decidePaymentSessionByLink(t.deps, owner.userId, { token, sessionId: requested.session_id, approve: true })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(mintFreshApprovalLink(t.deps, owner.userId, requested.session_id)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await snapshot()).toEqual(before);
    expect(await prisma.paymentSessionApprovalLink.count({ where: { sessionId: requested.session_id, usedAt: { not: null } } })).toBe(0);
  });

  it('is closed as expired by its timer, with no decision: audited, announced once as budget.closed', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    await prisma.paymentSession.update({ where: { id: requested.session_id }, data: { expiresAt: new Date(Date.now() - 1_000) } });

    expect(await closeExpiredSession(t.deps, requested.session_id)).toBe('closed');
    expect(await closeExpiredSession(t.deps, requested.session_id)).toBe('not_open');
    expect(await prisma.paymentSession.findUniqueOrThrow({ where: { id: requested.session_id } })).toMatchObject({ status: 'closed', closedReason: 'expired', decidedAt: null });
    expect((await auditOf(requested.session_id)).map((entry) => [entry.action, entry.actor])).toEqual([
      ['payment_session.requested', `agent:${agent.id}`],
      ['payment_session.closed', 'system:payment-session-expiry'],
    ]);
    const deliveries = await deliveriesOf(requested.session_id);
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(['budget.requested', 'budget.closed']);
    expect((deliveries[1]!.payload as { data: { session: PaymentSessionView } }).data.session).toMatchObject({ status: 'closed', closedReason: 'expired', decidedAt: null });
  });

  it("is closed by the reconciler's sweep when its timer missed it; a request still in time is left waiting", async () => {
    const agent = await createAgent();
    const missed = await requestBudget(agent);
    const waiting = await requestBudget(agent);
    await prisma.paymentSession.update({ where: { id: missed.session_id }, data: { expiresAt: new Date(Date.now() - 5 * 60_000) } });

    expect(await sweepExpiredSessions(t.deps)).toContain(missed.session_id);
    expect((await prisma.paymentSession.findUniqueOrThrow({ where: { id: missed.session_id } })).status).toBe('closed');
    expect((await prisma.paymentSession.findUniqueOrThrow({ where: { id: waiting.session_id } })).status).toBe('requested');
    expect(await closeExpiredSession(t.deps, waiting.session_id)).toBe('not_yet');
  });
});

describe('a suspended agent', () => {
  it('can neither ask for a budget nor read one: 403 AGENT_SUSPENDED, and nothing is written', async () => {
    const agent = await createAgent();
    const asked = await requestBudget(agent);
    const suspended = await t.app.inject({ method: 'POST', url: `/api/v1/agents/${agent.id}/suspend`, headers: owner.headers });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const before = await snapshot();
    expect(refusal(await agentCall(agent, 'POST', '/budget/request', { total: 5, expires_at: inDays(2), reason: 'While suspended' }), 403).code).toBe('AGENT_SUSPENDED');
    expect(refusal(await agentCall(agent, 'GET', `/budget/${asked.session_id}`), 403).code).toBe('AGENT_SUSPENDED');
    expect(await snapshot()).toEqual(before);
  });
});

describe('bad input', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a negative total', { total: -5 }, 'The total must be a positive number of dollars'],
    ['a total above 100,000', { total: 100_000.01 }, 'at most $100,000'],
    ['an expiry in the past', { expires_at: new Date(Date.now() - DAY).toISOString() }, 'The expiry must be an ISO 8601 date-time in the future'],
    ['an expiry beyond 30 days', { expires_at: inDays(31) }, 'at most 30 days away'],
    ['an expiry that is no date', { expires_at: 'tomorrow' }, 'The expiry must be an ISO 8601 date-time'],
    ['an unknown scope key', { scope: { colors: ['blue'] } }, 'scope may name only sellers, categories, protocols and rails'],
    ['a seller that is neither a host nor an address', { scope: { sellers: ['https://api.example.com/path'] } }, 'Each seller must be a host name'],
    ['a cap per payment above the total', { total: 2, per_payment_max: 3 }, 'The cap per payment (3) cannot be more than the total (2)'],
    ['no reason', { reason: '' }, 'Say why the budget is needed'],
  ];

  it.each(cases)('the agent asking with %s gets a 400 that says so, and nothing is written', async (_what, change, message) => {
    const agent = await createAgent();
    const before = await snapshot();
    const refused = refusal(await agentCall(agent, 'POST', '/budget/request', { total: 5, expires_at: inDays(2), reason: 'A task', ...change }), 400);
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.message).toContain(message);
    expect(await snapshot()).toEqual(before);
  });

  it('the owner opening with the same mistakes gets the same answers, and nothing is written', async () => {
    const agent = await createAgent();
    const owned = { total: 'totalUsd', per_payment_max: 'perPaymentMaxUsd', expires_at: 'expiresAt' } as Record<string, string>;
    for (const [what, change, message] of cases.filter(([what]) => what !== 'no reason')) {
      const body = Object.fromEntries(Object.entries({ total: 5, expires_at: inDays(2), ...change }).map(([key, value]) => [owned[key] ?? key, value]));
      const before = await snapshot();
      const refused = refusal(await ownerCall('POST', '/payment-sessions', { agentId: agent.id, ...body }), 400);
      expect(refused.code, what).toBe('VALIDATION_FAILED');
      expect(refused.message, what).toContain(message);
      expect(await snapshot(), what).toEqual(before);
    }
  });
});

describe("another owner's sessions and agents", () => {
  it('are 404 to the owner and the agent alike, and stay as they are', async () => {
    const agent = await createAgent();
    const requested = await requestBudget(agent);
    const stranger = await signUpTestOwner(t.app, prisma, 'Stranger');
    const strangersAgent = await createAgent(stranger);
    const before = await snapshot();

    const notFound = { code: 'NOT_FOUND', message: PAYMENT_SESSION_NOT_FOUND_MESSAGE };
    expect(refusal(await ownerCall('GET', `/payment-sessions/${requested.session_id}`, undefined, stranger), 404)).toEqual(notFound);
    expect(refusal(await ownerCall('POST', `/payment-sessions/${requested.session_id}/decide`, { approve: true }, stranger), 404)).toEqual(notFound);
    expect(refusal(await ownerCall('POST', `/payment-sessions/${requested.session_id}/revoke`, undefined, stranger), 404)).toEqual(notFound);
    expect(refusal(await agentCall(strangersAgent, 'GET', `/budget/${requested.session_id}`), 404)).toEqual(notFound);
    expect(refusal(await ownerCall('POST', '/payment-sessions', { agentId: agent.id, totalUsd: 1, expiresAt: inDays(1) }, stranger), 404).code).toBe('NOT_FOUND');
    expect(refusal(await ownerCall('GET', `/payment-sessions?agentId=${agent.id}`, undefined, stranger), 404).code).toBe('NOT_FOUND');
    expect(ok<{ sessions: PaymentSessionView[] }>(await ownerCall('GET', '/payment-sessions', undefined, stranger)).sessions).toEqual([]);
    expect(ok<{ budgets: unknown[] }>(await agentCall(strangersAgent, 'GET', '/budgets')).budgets).toEqual([]);
    expect(refusal(await ownerCall('GET', '/payment-sessions/not-a-uuid'), 400).code).toBe('VALIDATION_FAILED');
    expect(await snapshot()).toEqual(before);
  });
});

describe('the other surfaces', () => {
  it('an owner API key reads sessions with read and needs payments:approve to open, decide or revoke them', async () => {
    const agent = await createAgent();
    const created = ok<{ key: string }>(await ownerCall('POST', '/api-keys', { name: 'read only', scopes: ['read'], expires_in_days: 30 }), 201);
    const withKey = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${created.key}` }, ...(payload ? { payload } : {}) });
    expect(ok<{ sessions: unknown[] }>(await withKey('GET', `/payment-sessions?agentId=${agent.id}`)).sessions).toEqual([]);
    const refused = refusal(await withKey('POST', '/payment-sessions', { agentId: agent.id, totalUsd: 1, expiresAt: inDays(1) }), 403);
    expect(refused.code).toBe('API_KEY_SCOPE_MISSING');
    expect(refused.message).toContain('payments:approve');
    // The refusal itself is audited; no session was made.
    expect(await prisma.paymentSession.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it('tRPC paymentSessions.* reach the same services', async () => {
    const agent = await createAgent();
    const mutation = (path: string, input: object) => t.app.inject({ method: 'POST', url: `/trpc/paymentSessions.${path}`, payload: input, headers: owner.headers });
    const query = (path: string, input: object) => t.app.inject({ method: 'GET', url: `/trpc/paymentSessions.${path}?input=${encodeURIComponent(JSON.stringify(input))}`, headers: owner.headers });
    const data = <T>(response: LightMyRequestResponse) => ok<{ result: { data: T } }>(response).result.data;

    const opened = data<PaymentSessionView>(await mutation('open', { agentId: agent.id, totalUsd: '1.5', expiresAt: inDays(1) }));
    expect(opened).toMatchObject({ status: 'open', totalExact: '1.5' });
    expect(data<PaymentSessionView>(await query('get', { sessionId: opened.id })).id).toBe(opened.id);
    const requested = await requestBudget(agent);
    expect(data<{ sessions: PaymentSessionView[] }>(await query('list', { agentId: agent.id })).sessions.map((s) => s.id)).toEqual([requested.session_id, opened.id]);
    expect(data<PaymentSessionView>(await mutation('decide', { sessionId: requested.session_id, approve: true }))).toMatchObject({ status: 'open', total: 5 });
    expect(data<PaymentSessionView>(await mutation('revoke', { sessionId: opened.id }))).toMatchObject({ status: 'closed', closedReason: 'revoked' });
  });

  it('the MCP tools request_budget and get_budget answer the agent view, and a bad request is a tool error', async () => {
    const agent = await createAgent();
    const client = new Client({ name: 'budget-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
    try {
      const asked = (await client.callTool({ name: 'request_budget', arguments: { total: 2, expires_at: inDays(1), reason: 'Summarise ten papers' } })) as CallToolResult;
      expect(asked.isError).toBeFalsy();
      const view = asked.structuredContent as AgentPaymentSessionView;
      expect(view).toMatchObject({ status: 'requested', total: 2, reason: 'Summarise ten papers' });
      const read = await client.callTool({ name: 'get_budget', arguments: { session_id: view.session_id } });
      expect(read.structuredContent).toMatchObject({ session_id: view.session_id, status: 'requested' });

      const before = await snapshot();
      const bad = (await client.callTool({ name: 'request_budget', arguments: { total: 2, expires_at: inDays(40), reason: 'Too long' } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('VALIDATION_FAILED');
      expect(await snapshot()).toEqual(before);
    } finally {
      await client.close();
    }
  });
});
