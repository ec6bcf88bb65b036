/**
 * Webhooks survive a misbehaving receiver while payments are in full flow. Each test runs a
 * burst of concurrent ledger payments on a real worker, a real Temporal dev server and
 * PostgreSQL, and the owner's endpoint is a receiver on 127.0.0.1 that answers 503, hangs past
 * the delivery timeout, or is down for seconds and comes back on the same port. Afterwards
 * every event the payments recorded reached the receiver with a 2xx, signed with the endpoint's
 * secret, retries carried the same webhook-id and body, the delivery log ends delivered, and
 * the ledger is sound.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import { paymentWorkflowId, type PaymentProgress } from '@purser/workflows';
import { startFlakyReceiver, type FlakyReceiver, type ReceivedWebhook } from './support/flaky-receiver';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

/** Small enough for 2 cores, large enough that dozens of deliveries retry at once. */
const AGENTS = 3;
const PAYMENTS = 10;
const AGENT_FUNDS = 20;
/** What a ledger payment that needs no approval emits, one delivery each. */
const EVENTS_PER_PAYMENT = ['intent.approved', 'intent.created', 'settlement.completed'];
/** The sender's limit in the timeout case: shorter than its 10 s default, to keep the suite short. */
const TIMEOUT_MS = 2_000;
/** How long the receiver stays down at least: several of the first retries (200 ms, doubling) fall in it. */
const OUTAGE_MS = 3_000;
/** Long enough for the slowest delivery: a timeout, or 4 refusals (200+400+800+1600 ms) and timer lag. */
const DELIVERY_WAIT_MS = 60_000;

let env: TemporalTestEnv;
let prisma: PrismaClient;

beforeAll(async () => {
  env = await startTemporalTestEnv({ webhookRetryInitialMs: 200 });
  prisma = env.testApp.deps.db.prisma;
});

afterAll(async () => {
  await env?.close();
});

describe('webhook delivery to a faulty receiver during a payment burst', () => {
  it('delivers every event when the receiver answers 503 to each first attempt and to 30% of later ones', async () => {
    const random = seededRandom(0x5eed);
    const receiver = await startFlakyReceiver(({ arrival }) => {
      if (arrival === 1) return 503;
      // Random refusals only up to the 4th arrival, so no delivery waits more than a few seconds.
      if (arrival <= 4 && random() < 0.3) return 503;
      return 200;
    });
    try {
      const payer = await payingOwner(receiver.url);
      const payments = await env.runWorker(async () => {
        const made = await payBurst(payer);
        await waitForDeliveriesToEnd(payer, made);
        return made;
      });

      const deliveries = await expectEveryEventDelivered(payer, payments, receiver);
      for (const delivery of deliveries) {
        expect(delivery.attemptLog[0]).toMatchObject({ statusCode: 503, succeeded: false, error: 'HTTP 503: busy, try again later' });
        // Every attempt reached the receiver: the log is the receiver's answers, in order.
        expect(delivery.attemptLog.map((attempt) => attempt.statusCode)).toEqual(requestsOf(receiver, delivery.eventId).map((request) => request.answer));
      }
      // Some later attempt was refused too (all 30 second attempts passing has odds of 0.7^30, about 2e-5).
      expect(deliveries.some((delivery) => delivery.attempts > 2)).toBe(true);
      await expectMoneySound(payer, payments);
    } finally {
      await receiver.close();
    }
  });

  it('delivers every event on retry when the receiver never answers first attempts within the delivery timeout', async () => {
    const receiver = await startFlakyReceiver(({ arrival }) => (arrival === 1 ? 'hang' : 200));
    try {
      const payer = await payingOwner(receiver.url);
      const payments = await env.runWorker(
        async () => {
          const made = await payBurst(payer);
          await waitForDeliveriesToEnd(payer, made);
          return made;
        },
        { webhookTimeoutMs: TIMEOUT_MS },
      );

      const deliveries = await expectEveryEventDelivered(payer, payments, receiver);
      for (const delivery of deliveries) {
        expect(delivery.attemptLog).toEqual([
          { attempt: 1, statusCode: null, succeeded: false, error: expect.stringContaining(`did not answer within the ${TIMEOUT_MS} ms limit`) },
          { attempt: 2, statusCode: 200, succeeded: true, error: null },
        ]);
        // The receiver read the first request and sat on it: the retry is a duplicate to drop.
        expect(requestsOf(receiver, delivery.eventId).map((request) => request.answer)).toEqual(['hang', 200]);
      }
      await expectMoneySound(payer, payments);
    } finally {
      await receiver.close();
    }
  });

  it('delivers every event once the receiver comes back on the same port after an outage longer than the first retries', async () => {
    const receiver = await startFlakyReceiver(() => 204);
    try {
      const payer = await payingOwner(receiver.url);
      await receiver.down();
      const downAt = Date.now();
      const payments = await env.runWorker(async () => {
        // Payments do not wait for their webhooks: they settle while the receiver is down.
        const made = await payBurst(payer);
        const expected = await eventCount(made);
        await expect
          .poll(() => prisma.webhookDelivery.count({ where: { endpointId: payer.endpointId, attempts: { gte: 2 } } }), { timeout: DELIVERY_WAIT_MS, interval: 200 })
          .toBe(expected);
        await sleep(Math.max(0, downAt + OUTAGE_MS - Date.now()));
        expect(receiver.requests).toEqual([]);
        await receiver.up();
        await waitForDeliveriesToEnd(payer, made);
        return made;
      });

      const deliveries = await expectEveryEventDelivered(payer, payments, receiver);
      for (const delivery of deliveries) {
        const refused = delivery.attemptLog.slice(0, -1);
        expect(refused.length).toBeGreaterThanOrEqual(2);
        for (const attempt of refused) expect(attempt).toMatchObject({ statusCode: null, succeeded: false, error: expect.stringContaining('refused the connection') });
        expect(delivery.attemptLog.at(-1)).toMatchObject({ statusCode: 204, succeeded: true });
        // Back up, the first attempt that got through was accepted: nothing else arrived.
        expect(requestsOf(receiver, delivery.eventId).map((request) => request.answer)).toEqual([204]);
      }
      await expectMoneySound(payer, payments);
    } finally {
      await receiver.close();
    }
  });
});

// ---------------------------------------------------------------- fixtures

interface Payer {
  owner: SignedUpOwner;
  agents: TestAgent[];
  endpointId: string;
  secret: string;
}

interface Payment {
  intentId: string;
  agentId: string;
  /** Whole dollars. */
  amount: number;
}

/** A fresh owner with funded agents and one webhook endpoint (all event types) at `url`. */
async function payingOwner(url: string): Promise<Payer> {
  const { app } = env.testApp;
  const owner = await signUpTestOwner(app, prisma, 'Webhook Fault Owner');
  const topUp = await ownerCall(app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 });
  expect(topUp.statusCode, topUp.body).toBe(200);
  const agents: TestAgent[] = [];
  for (let i = 0; i < AGENTS; i += 1) agents.push(await createFundedAgent(app, owner, { fund: AGENT_FUNDS }));
  const registered = await ownerCall(app, owner, 'POST', '/api/v1/webhooks', { url });
  expect(registered.statusCode, registered.body).toBe(201);
  const { endpoint, secret } = registered.json() as { endpoint: { id: string }; secret: string };
  return { owner, agents, endpointId: endpoint.id, secret };
}

/** PAYMENTS ledger payments created at once across the agents; returns when all have settled. */
async function payBurst(payer: Payer): Promise<Payment[]> {
  const { app } = env.testApp;
  const payments = await Promise.all(
    Array.from({ length: PAYMENTS }, async (_, i): Promise<Payment> => {
      const agentId = payer.agents[i % AGENTS]!.id;
      const amount = 1 + (i % 2);
      const response = await ownerCall(app, payer.owner, 'POST', '/api/v1/intents', { agentId, amount, merchant: `Burst merchant ${i}` });
      expect(response.statusCode, response.body).toBe(201);
      return { intentId: (response.json() as { id: string }).id, agentId, amount };
    }),
  );
  const results = await Promise.all(payments.map(({ intentId }) => env.client.workflow.getHandle(paymentWorkflowId(intentId)).result() as Promise<PaymentProgress>));
  expect(results.map((result) => result.status)).toEqual(payments.map(() => 'settled'));
  return payments;
}

function eventCount(payments: Payment[]): Promise<number> {
  return prisma.paymentEvent.count({ where: { paymentIntentId: { in: payments.map((payment) => payment.intentId) } } });
}

/** Until every delivery of the payments' events has ended, delivered or not. */
async function waitForDeliveriesToEnd(payer: Payer, payments: Payment[]): Promise<void> {
  const expected = await eventCount(payments);
  await expect
    .poll(() => prisma.webhookDelivery.count({ where: { endpointId: payer.endpointId, status: { not: 'pending' } } }), { timeout: DELIVERY_WAIT_MS, interval: 200 })
    .toBe(expected);
}

function requestsOf(receiver: FlakyReceiver, webhookId: string): ReceivedWebhook[] {
  return receiver.requests.filter((request) => request.webhookId === webhookId);
}

/**
 * Every event recorded for the payments has one delivery, logged as delivered after failed
 * attempts only, and reached the receiver: accepted at least once, every request of it
 * carrying its webhook-id and exactly its body, signed with the endpoint's secret. Returns the
 * deliveries with their attempt logs for the fault-specific checks.
 */
async function expectEveryEventDelivered(payer: Payer, payments: Payment[], receiver: FlakyReceiver) {
  const events = await prisma.paymentEvent.findMany({
    where: { paymentIntentId: { in: payments.map((payment) => payment.intentId) } },
    select: { id: true, type: true, paymentIntentId: true, payload: true },
  });
  for (const { intentId } of payments) {
    expect(events.filter((event) => event.paymentIntentId === intentId).map((event) => event.type).sort(), intentId).toEqual(EVENTS_PER_PAYMENT);
  }

  const deliveries = await prisma.webhookDelivery.findMany({
    where: { endpointId: payer.endpointId },
    select: {
      eventId: true,
      status: true,
      attempts: true,
      deliveredAt: true,
      nextAttemptAt: true,
      attemptLog: { orderBy: { attempt: 'asc' }, select: { attempt: true, statusCode: true, succeeded: true, error: true } },
    },
  });
  expect(deliveries.map((delivery) => delivery.eventId).sort()).toEqual(events.map((event) => event.id).sort());
  for (const delivery of deliveries) {
    expect(delivery, delivery.eventId).toMatchObject({ status: 'succeeded', attempts: delivery.attemptLog.length, deliveredAt: expect.any(Date), nextAttemptAt: null });
    expect(delivery.attemptLog.map((attempt) => attempt.attempt)).toEqual(delivery.attemptLog.map((_, index) => index + 1));
    // Retries stop at the first success: only the last attempt succeeded, with a 2xx.
    expect(delivery.attemptLog.map((attempt) => attempt.succeeded)).toEqual(delivery.attemptLog.map((_, index) => index === delivery.attemptLog.length - 1));
    expect(delivery.attemptLog.at(-1)!.statusCode).toSatisfy((status: number | null) => status !== null && status >= 200 && status < 300);
  }

  // Nothing arrived but these events, and each of them arrived.
  expect([...new Set(receiver.requests.map((request) => request.webhookId))].sort()).toEqual(events.map((event) => event.id).sort());
  const webhook = new Webhook(payer.secret);
  const accepted = new Set(receiver.accepted());
  for (const event of events) {
    const requests = requestsOf(receiver, event.id);
    expect(requests.filter((request) => accepted.has(request)).length, event.id).toBeGreaterThanOrEqual(1);
    for (const request of requests) {
      // A duplicate is the same event: same body byte for byte, which is the recorded event.
      expect(request.body).toBe(requests[0]!.body);
      expect(JSON.parse(request.body)).toEqual(event.payload);
      // Throws unless signed with the endpoint's secret over this id, timestamp and body.
      expect(webhook.verify(request.body, request.headers)).toEqual(event.payload);
    }
  }
  return deliveries;
}

/** Every payment moved its amount once: balances, no funds left on hold, and a consistent ledger. */
async function expectMoneySound(payer: Payer, payments: Payment[]): Promise<void> {
  for (const agent of payer.agents) {
    const spent = payments.filter((payment) => payment.agentId === agent.id).reduce((sum, payment) => sum + payment.amount, 0);
    expect(await ledgerBalance(prisma, agent.id)).toBe(BigInt(AGENT_FUNDS - spent) * 1_000_000n);
    const hold = await prisma.ledgerAccount.findFirst({ where: { kind: 'hold', agentWallet: { agentId: agent.id } }, select: { balance: true } });
    expect(hold?.balance ?? 0n).toBe(0n);
  }
  await expectLedgerConsistent(prisma);
}

/** mulberry32: the same sequence of draws on every run, unlike Math.random. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
