/**
 * Payments charged to a payment session (issue 43): authorised against what is left of the
 * session in the same transaction and under the same locks as the agent's limits, on top of its
 * rules. 40 payments of $1 sent at once against a $10 session pay exactly 10; a payment outside
 * the session's scope, or once it is closed or expired, is refused and charges nothing; a payment
 * that names no session is not charged to one; a paid HTTP call (authorised in the agent's own
 * request otherwise) is held to the session too. The sandbox chain and a real Temporal dev server
 * run the payments; every test checks the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { createWebhookEndpointInput, PAYMENT_SESSION_EVENTS } from '@purser/core';
import { WORKFLOW_NAMES } from '@purser/workflows';
import { closeExpiredSession, SESSION_EXPIRY_ACTOR } from '../src/services/payment-sessions/close-payment-session';
import { openPaymentSession } from '../src/services/payment-sessions/open-payment-session';
import { spentFromSession } from '../src/services/payment-sessions/session-spend';
import { createWebhookEndpoint } from '../src/services/webhooks/create-webhook-endpoint';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { AGENT_API, agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

const PAYEE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const OTHER_PAYEE = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const HOUR = 3_600_000;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let endpointId: string;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
  const endpoint = await createWebhookEndpoint(env.testApp.deps, owner.userId, createWebhookEndpointInput.parse({ url: 'https://receiver.example.com/hooks', events: [...PAYMENT_SESSION_EVENTS] }));
  endpointId = endpoint.endpoint.id;
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

/** A session as the owner opens it (its services are tested in payment-sessions.db.test.ts). */
async function openSession(agent: TestAgent, fields: { totalUnits: bigint; perPaymentUnits?: bigint; scope?: object; expiresAt?: Date; status?: 'open' | 'closed' }) {
  const { id } = await prisma.paymentSession.create({
    data: {
      ownerId: owner.userId,
      agentId: agent.id,
      status: fields.status ?? 'open',
      requestedBy: 'owner',
      totalUnits: fields.totalUnits,
      perPaymentUnits: fields.perPaymentUnits ?? null,
      scope: fields.scope ?? {},
      expiresAt: fields.expiresAt ?? new Date(Date.now() + HOUR),
      decidedAt: new Date(),
      ...(fields.status === 'closed' ? { closedReason: 'revoked', closedAt: new Date() } : {}),
    },
    select: { id: true },
  });
  return id;
}

function pay(agent: TestAgent, body: object) {
  return env.testApp.app.inject({ method: 'POST', url: `${AGENT_API}/payment`, headers: { ...agent.headers, 'content-type': 'application/json' }, payload: body });
}

const refusalOf = (response: { json(): unknown }) => (response.json() as { error: { code: string; message: string } }).error;

/** The session's row, the close entries of its audit log and the budget.* events delivered of it. */
async function closeRecordOf(sessionId: string) {
  const row = await prisma.paymentSession.findUniqueOrThrow({ where: { id: sessionId }, select: { status: true, closedReason: true, closedAt: true, expiresAt: true } });
  const closes = await prisma.auditEvent.findMany({ where: { subject: `payment_session:${sessionId}`, action: 'payment_session.closed' }, select: { actor: true, data: true } });
  const deliveries = await prisma.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' }, select: { eventType: true, payload: true } });
  const events = deliveries
    .map((delivery) => ({ type: delivery.eventType, session: (delivery.payload as { data: { session: { id: string; status: string; closedReason: string | null } } }).data.session }))
    .filter((event) => event.session.id === sessionId);
  return { row, closes, events };
}

describe('payments charged to a session', () => {
  it('pays exactly 10 of 40 concurrent $1 payments against a $10 session, and refuses the rest (over its budget, or closed once spent)', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 50, maxTransaction: 100, dailyLimit: 1_000 });
    const sessionId = await openSession(agent, { totalUnits: 10_000_000n });
    const answers = await env.runWorker(() => Promise.all(Array.from({ length: 40 }, () => pay(agent, { amount: 1, to_address: PAYEE, session_id: sessionId }))));
    const settled = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 422);
    expect(settled).toHaveLength(10);
    expect(refused).toHaveLength(30);
    for (const answer of refused) {
      expect(refusalOf(answer).code).toBe('POLICY_VIOLATION');
      // Refused while the ten were in flight (over what is left), or after the tenth closed it.
      expect(refusalOf(answer).message).toMatch(/SESSION_BUDGET_EXCEEDED|SESSION_NOT_OPEN/);
    }
    expect(await ledgerBalance(prisma, agent.id)).toBe(40_000_000n);
    expect(await spentFromSession(prisma, sessionId)).toBe(10_000_000n);
    expect(await prisma.paymentIntent.count({ where: { paymentSessionId: sessionId, status: 'settled' } })).toBe(10);
    // The capture that paid its total closed it, once: one audit entry, one budget.closed.
    const { row, closes, events } = await closeRecordOf(sessionId);
    expect(row).toMatchObject({ status: 'closed', closedReason: 'spent' });
    expect(closes).toHaveLength(1);
    expect(closes[0]!.actor).toBe('system:payment-workflow');
    expect(events.map((event) => [event.type, event.session.status, event.session.closedReason])).toEqual([['budget.closed', 'closed', 'spent']]);
    await expectLedgerConsistent(prisma);
  });

  it('stays open while what it paid is under its total, and closes when a payment pays the rest', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10, maxTransaction: 100, dailyLimit: 1_000 });
    const sessionId = await openSession(agent, { totalUnits: 3_000_000n });
    await env.runWorker(async () => {
      expect((await pay(agent, { amount: 2, to_address: PAYEE, session_id: sessionId })).statusCode).toBe(200);
      expect((await closeRecordOf(sessionId)).row.status).toBe('open');
      expect((await pay(agent, { amount: 1, to_address: PAYEE, session_id: sessionId })).statusCode).toBe(200);
    });
    const { row, closes, events } = await closeRecordOf(sessionId);
    expect(row).toMatchObject({ status: 'closed', closedReason: 'spent' });
    expect(closes).toHaveLength(1);
    expect(events.map((event) => event.type)).toEqual(['budget.closed']);
    expect(await ledgerBalance(prisma, agent.id)).toBe(7_000_000n);
    await expectLedgerConsistent(prisma);
  });

  it("closes at its expiry by the session's own timer, once, announced as budget.closed; a revoked one is left as it is", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const deps = env.testApp.deps;
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const opened = await openPaymentSession(deps, owner.userId, { agentId: agent.id, totalUsd: 2_000_000n, expiresAt });
    const revoked = await openPaymentSession(deps, owner.userId, { agentId: agent.id, totalUsd: 2_000_000n, expiresAt });
    expect((await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/payment-sessions/${revoked.id}/revoke`)).statusCode).toBe(200);
    await env.runWorker(async () => {
      for (const id of [opened.id, revoked.id]) {
        const run = env.client.workflow.getHandle(`payment-session-expiry-${id}`);
        expect((await run.describe()).type).toBe(WORKFLOW_NAMES.paymentSessionExpiry);
      }
      expect(await env.client.workflow.getHandle(`payment-session-expiry-${opened.id}`).result()).toBe('closed');
      expect(await env.client.workflow.getHandle(`payment-session-expiry-${revoked.id}`).result()).toBe('not_open');
    });
    const expired = await closeRecordOf(opened.id);
    expect(expired.row).toMatchObject({ status: 'closed', closedReason: 'expired' });
    expect(expired.row.closedAt?.toISOString()).toBe(expiresAt);
    expect(expired.closes).toEqual([expect.objectContaining({ actor: SESSION_EXPIRY_ACTOR })]);
    expect(expired.events.map((event) => [event.type, event.session.closedReason])).toEqual([['budget.granted', null], ['budget.closed', 'expired']]);
    // Closing it again finds nothing to do; the revoked one kept its reason.
    expect(await closeExpiredSession(deps, opened.id)).toBe('not_open');
    expect((await closeRecordOf(opened.id)).closes).toHaveLength(1);
    const stillRevoked = await closeRecordOf(revoked.id);
    expect(stillRevoked.row.closedReason).toBe('revoked');
    expect(stillRevoked.closes).toHaveLength(0);
    expect(stillRevoked.events.map((event) => event.type)).toEqual(['budget.granted', 'budget.closed']);
  });

  it('closes a request its owner left undecided at the expiry it asked for, by its own timer; a grant for sooner closes by the open session\'s', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const asksUntil = new Date(Date.now() + 4_000).toISOString();
    const ask = async () => {
      const answer = await agentCall(appUrl, agent, 'POST', '/budget/request', { total: 2, expires_at: asksUntil, reason: 'One dataset' });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.session_id as string;
    };
    const undecided = await ask();
    const granted = await ask();
    const grantedUntil = new Date(Date.now() + 2_500).toISOString();
    const grant = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/payment-sessions/${granted}/decide`, { approve: true, expiresAt: grantedUntil });
    expect(grant.statusCode, grant.body).toBe(200);
    await env.runWorker(async () => {
      expect(await env.client.workflow.getHandle(`payment-session-request-expiry-${undecided}`).result()).toBe('closed');
      expect(await env.client.workflow.getHandle(`payment-session-expiry-${granted}`).result()).toBe('closed');
      // The request's own timer comes second and finds nothing to close.
      expect(await env.client.workflow.getHandle(`payment-session-request-expiry-${granted}`).result()).toBe('not_open');
    });
    const expired = await closeRecordOf(undecided);
    expect(expired.row).toMatchObject({ status: 'closed', closedReason: 'expired' });
    expect(expired.row.closedAt?.toISOString()).toBe(asksUntil);
    expect(expired.closes).toEqual([expect.objectContaining({ actor: SESSION_EXPIRY_ACTOR })]);
    expect(expired.events.map((event) => [event.type, event.session.status])).toEqual([['budget.requested', 'requested'], ['budget.closed', 'closed']]);
    const ran = await closeRecordOf(granted);
    expect(ran.row.closedAt?.toISOString()).toBe(grantedUntil);
    expect(ran.closes).toHaveLength(1);
    expect(ran.events.map((event) => event.type)).toEqual(['budget.requested', 'budget.granted', 'budget.closed']);
    const told = await agentCall(appUrl, agent, 'GET', `/budget/${undecided}`);
    expect(told.body).toMatchObject({ status: 'closed', closed_reason: 'expired', message: expect.stringContaining('nothing was granted') });
  });

  it('charges nothing outside its scope, per-payment cap or life, and nothing to it for a payment that does not name it', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 20, maxTransaction: 100, dailyLimit: 1_000 });
    const sessionId = await openSession(agent, { totalUnits: 5_000_000n, perPaymentUnits: 2_000_000n, scope: { sellers: [PAYEE] } });
    const expired = await openSession(agent, { totalUnits: 5_000_000n, expiresAt: new Date(Date.now() + 1_500) });
    const closed = await openSession(agent, { totalUnits: 5_000_000n, status: 'closed' });
    await env.runWorker(async () => {
      const outside = await pay(agent, { amount: 1, to_address: OTHER_PAYEE, session_id: sessionId });
      expect(outside.statusCode).toBe(422);
      expect(refusalOf(outside).message).toContain('SESSION_OUT_OF_SCOPE');
      const tooBig = await pay(agent, { amount: 3, to_address: PAYEE, session_id: sessionId });
      expect(refusalOf(tooBig).message).toContain('SESSION_PER_PAYMENT_EXCEEDED');
      const onClosed = await pay(agent, { amount: 1, to_address: PAYEE, session_id: closed });
      expect(refusalOf(onClosed).message).toContain('SESSION_NOT_OPEN');
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      const onExpired = await pay(agent, { amount: 1, to_address: PAYEE, session_id: expired });
      expect(refusalOf(onExpired).message).toContain('SESSION_NOT_OPEN');

      const inScope = await pay(agent, { amount: 2, to_address: PAYEE, session_id: sessionId });
      expect(inScope.statusCode, inScope.body).toBe(200);
      const unnamed = await pay(agent, { amount: 4, to_address: OTHER_PAYEE });
      expect(unnamed.statusCode, unnamed.body).toBe(200);
    });
    expect(await spentFromSession(prisma, sessionId)).toBe(2_000_000n);
    expect(await spentFromSession(prisma, expired)).toBe(0n);
    expect(await ledgerBalance(prisma, agent.id)).toBe(14_000_000n);
    await expectLedgerConsistent(prisma);
  });

  it("charges every payment of the agent to a session opened for all its payments, in its scope, until it closes; one such session at a time", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 20, maxTransaction: 100, dailyLimit: 1_000 });
    const deps = env.testApp.deps;
    const expiresAt = new Date(Date.now() + HOUR).toISOString();
    const all = await openPaymentSession(deps, owner.userId, { agentId: agent.id, totalUsd: 2_000_000n, expiresAt, scope: { sellers: [PAYEE] }, allPayments: true });
    expect(all).toMatchObject({ status: 'open', allPayments: true });
    const second = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/payment-sessions', { agentId: agent.id, totalUsd: 1, expiresAt, allPayments: true });
    expect(second.statusCode, second.body).toBe(409);
    expect(await prisma.paymentSession.count({ where: { agentId: agent.id } })).toBe(1);
    await env.runWorker(async () => {
      const first = await pay(agent, { amount: 1, to_address: PAYEE });
      expect(first.statusCode, first.body).toBe(200);
      // Outside its scope: refused, though it names no session, and nothing is charged.
      const outside = await pay(agent, { amount: 1, to_address: OTHER_PAYEE });
      expect(outside.statusCode, outside.body).toBe(422);
      expect(refusalOf(outside).message).toContain('SESSION_OUT_OF_SCOPE');
      expect((await pay(agent, { amount: 1, to_address: PAYEE })).statusCode).toBe(200);
      // Spent, so closed: the agent's payments are its standing rules' again.
      const after = await pay(agent, { amount: 1, to_address: OTHER_PAYEE });
      expect(after.statusCode, after.body).toBe(200);
    });
    const charged = await prisma.paymentIntent.findMany({ where: { agentId: agent.id }, orderBy: { createdAt: 'asc' }, select: { status: true, paymentSessionId: true } });
    expect(charged).toEqual([
      { status: 'settled', paymentSessionId: all.id },
      { status: 'blocked', paymentSessionId: all.id },
      { status: 'settled', paymentSessionId: all.id },
      { status: 'settled', paymentSessionId: null },
    ]);
    expect(await spentFromSession(prisma, all.id)).toBe(2_000_000n);
    expect((await closeRecordOf(all.id)).row).toMatchObject({ status: 'closed', closedReason: 'spent' });
    expect(await ledgerBalance(prisma, agent.id)).toBe(17_000_000n);
    await expectLedgerConsistent(prisma);
  });

  it("sets a reserved session's budget aside: its payments draw on it, the rest of the agent's money cannot take it, and what is left goes back when it closes", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10, maxTransaction: 100, dailyLimit: 1_000 });
    const deps = env.testApp.deps;
    const expiresAt = new Date(Date.now() + HOUR).toISOString();
    // More than the agent has: refused, nothing set aside, nothing opened.
    const tooMuch = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/payment-sessions', { agentId: agent.id, totalUsd: 11, expiresAt, reserve: true });
    expect(tooMuch.statusCode, tooMuch.body).toBe(422);
    expect((tooMuch.json() as { error: { code: string } }).error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await prisma.paymentSession.count({ where: { agentId: agent.id } })).toBe(0);

    const reserved = await openPaymentSession(deps, owner.userId, { agentId: agent.id, totalUsd: 4_000_000n, expiresAt, reserve: true });
    expect(reserved).toMatchObject({ reserve: true, reservedExact: '4' });
    expect(await ledgerBalance(prisma, agent.id)).toBe(6_000_000n);
    await expectLedgerConsistent(prisma);
    await env.runWorker(async () => {
      // The agent's own money is what is left: $7 outside the session is short.
      const short = await pay(agent, { amount: 7, to_address: OTHER_PAYEE });
      expect(short.statusCode, short.body).toBe(422);
      expect(refusalOf(short).code).toBe('INSUFFICIENT_FUNDS');
      // $6 of its own and $3 of the session's both go through.
      expect((await pay(agent, { amount: 6, to_address: OTHER_PAYEE })).statusCode).toBe(200);
      const fromSession = await pay(agent, { amount: 3, to_address: PAYEE, session_id: reserved.id });
      expect(fromSession.statusCode, fromSession.body).toBe(200);
      // A payment of the session that fails after its hold gives its amount back to the session, not to the agent.
      const declined = await pay(agent, { amount: 1, to_address: PAYEE, session_id: reserved.id, rail: 'card', metadata: { sandbox_outcome: 'do_not_honor' } });
      expect(declined.statusCode, declined.body).toBe(422);
      expect(refusalOf(declined).code).toBe('PAYMENT_DECLINED');
    }, { sandboxSettlementDelayMs: 200 });
    expect(await ledgerBalance(prisma, agent.id)).toBe(0n);
    expect((await prisma.paymentSession.findUniqueOrThrow({ where: { id: reserved.id } })).reservedUnits).toBe(1_000_000n);
    await expectLedgerConsistent(prisma);

    const revoked = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/payment-sessions/${reserved.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ status: 'closed', reserve: true, reservedExact: '0', spentExact: '3' });
    expect(await ledgerBalance(prisma, agent.id)).toBe(1_000_000n);
    await expectLedgerConsistent(prisma);

    // One that expires gives its budget back too, once.
    const expiring = await openPaymentSession(deps, owner.userId, { agentId: agent.id, totalUsd: 1_000_000n, expiresAt, reserve: true });
    expect(await ledgerBalance(prisma, agent.id)).toBe(0n);
    await prisma.paymentSession.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await closeExpiredSession(deps, expiring.id)).toBe('closed');
    expect(await closeExpiredSession(deps, expiring.id)).toBe('not_open');
    expect(await ledgerBalance(prisma, agent.id)).toBe(1_000_000n);
    await expectLedgerConsistent(prisma);
  });

  it("refuses a session that is not the agent's own, creating nothing", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const other = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const othersSession = await openSession(other, { totalUnits: 5_000_000n });
    const answer = await pay(agent, { amount: 1, to_address: PAYEE, session_id: othersSession });
    expect(answer.statusCode).toBe(404);
    expect(refusalOf(answer)).toEqual({ code: 'NOT_FOUND', message: 'Payment session not found' });
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it('holds a paid HTTP call to the session: the first within it is paid, the next refused', async () => {
    // The weather costs $0.01: a session of $0.015 covers one call.
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const sessionId = await openSession(agent, { totalUnits: 15_000n, scope: { protocols: ['x402'] } });
    const fetchPaid = (city: string) =>
      env.testApp.app.inject({
        method: 'POST',
        url: `${AGENT_API}/x402/fetch`,
        headers: { ...agent.headers, 'content-type': 'application/json' },
        payload: { url: `${appUrl}/sandbox/paid/weather?city=${city}`, session_id: sessionId },
      });
    await env.runWorker(async () => {
      const first = await fetchPaid('Porto');
      expect(first.statusCode, first.body).toBe(200);
      const second = await fetchPaid('Lisbon');
      expect(second.statusCode, second.body).toBe(422);
      expect(refusalOf(second).message).toContain('SESSION_BUDGET_EXCEEDED');
    });
    expect(await spentFromSession(prisma, sessionId)).toBe(10_000n);
    expect(await prisma.railOperation.count({ where: { paymentIntent: { agentId: agent.id } } })).toBe(1);
    await expectLedgerConsistent(prisma);
  });
});
