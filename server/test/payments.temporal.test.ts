/**
 * The payment engine end to end: the owner REST API creates intents, a real Temporal dev
 * server runs paymentWorkflow on real workers (in this process, or the product started as a
 * worker process that the test kills), and every movement lands in the PostgreSQL ledger,
 * which is checked after each test.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { paymentWorkflowId, type PaymentProgress } from '@purser/workflows';
import { startPaymentWorkflow } from '../src/services/intents/payment-workflows';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { ownerIntents } from './support/owner-intents';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';

let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
/** Started first, asserted last: its one-minute time box runs out while the other tests run. */
let expiring: { intent: IntentView; agentId: string; balanceBefore: bigint };

const { api, createFundedAgent, createIntent, getIntent } = ownerIntents(() => env.testApp.app, () => owner);

beforeAll(async () => {
  env = await startTemporalTestEnv();
  prisma = env.testApp.deps.db.prisma;
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await api('POST', '/api/v1/wallet/top-up', { amount: 1_000_000 })).statusCode).toBe(200);

  const agentId = await createFundedAgent({ fund: 500, approvalThreshold: 10 });
  const intent = await createIntent({ agentId, amount: 20, merchant: 'Slow Approver Inc', policy: { timeBox: '1m' } });
  expiring = { intent, agentId, balanceBefore: await agentBalance(agentId) };
}, 300_000);

afterAll(async () => {
  await env?.close();
});

describe('approval', () => {
  it('holds a payment above the approval threshold until the owner approves it, then settles it', async () => {
    const agentId = await createFundedAgent({ fund: 500, approvalThreshold: 50 });
    const before = await agentBalance(agentId);

    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 60, merchant: 'GPU Cloud', category: 'compute' });
      const waiting = await waitForStatus(intent.id, 'pending_approval');
      expect(waiting.policyDecision?.decision).toBe('require_approval');
      expect(waiting.policyDecision?.fired.map((rule) => rule.code)).toEqual(['APPROVAL_THRESHOLD_EXCEEDED']);
      expect(waiting.approval).toMatchObject({ status: 'pending' });
      // Waiting moves nothing: no hold, no capture.
      expect(await agentBalance(agentId)).toBe(before);
      expect(await ledgerTypesOf(intent.id)).toEqual([]);
      const progress = await getProgress(intent.id);
      expect(progress.currentStep).toBe('approval');

      const approved = await api('POST', `/api/v1/intents/${intent.id}/approve`, { reason: 'Looks right' });
      expect(approved.statusCode).toBe(200);
      const result = await workflowResult(intent.id);
      expect(result.status).toBe('settled');
      expect(result.steps.map((step) => `${step.step}:${step.status}`)).toEqual([
        'intent.created:completed',
        'policy_gate:completed',
        'approval:completed',
        'intent.approved:completed',
        'rail_selection:completed',
        'reserve:completed',
        'execute:completed',
        'capture:completed',
        'release:skipped',
        'settlement.completed:completed',
        'audit:completed',
      ]);
    });

    const intents = await prisma.paymentIntent.findMany({ where: { agentId }, select: { id: true, status: true, settledAt: true } });
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ status: 'settled' });
    expect(await agentBalance(agentId)).toBe(before - 60_000_000n);
    expect(await ledgerTypesOf(intents[0]!.id)).toEqual(['payment_capture', 'payment_hold']);
    const events = await prisma.paymentEvent.findMany({ where: { paymentIntentId: intents[0]!.id }, select: { type: true } });
    expect(events.map((event) => event.type).sort()).toEqual(['intent.approved', 'intent.created', 'settlement.completed']);
    await expectLedgerSound();
  });

  it('ends a rejected payment without moving money', async () => {
    const agentId = await createFundedAgent({ fund: 500, approvalThreshold: 50 });
    const before = await agentBalance(agentId);

    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 75 });
      await waitForStatus(intent.id, 'pending_approval');
      const rejected = await api('POST', `/api/v1/intents/${intent.id}/reject`, { reason: 'Not in the budget' });
      expect(rejected.statusCode).toBe(200);
      const result = await workflowResult(intent.id);
      expect(result.status).toBe('rejected');
      expect(result.steps.map((step) => step.step)).not.toContain('reserve');

      const view = await getIntent(intent.id);
      expect(view).toMatchObject({ status: 'rejected', failureCode: 'REJECTED', approval: { status: 'rejected', reason: 'Not in the budget' } });
      expect(await ledgerTypesOf(intent.id)).toEqual([]);
      // A decided intent takes no second decision.
      const again = await api('POST', `/api/v1/intents/${intent.id}/approve`, {});
      expect(again.statusCode).toBe(409);
    });

    expect(await agentBalance(agentId)).toBe(before);
    await expectLedgerSound();
  });

  it('cancels an intent waiting for approval without moving money', async () => {
    const agentId = await createFundedAgent({ fund: 100, approvalThreshold: 1 });
    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 5 });
      await waitForStatus(intent.id, 'pending_approval');
      expect((await api('POST', `/api/v1/intents/${intent.id}/cancel`, {})).statusCode).toBe(200);
      expect((await workflowResult(intent.id)).status).toBe('cancelled');
    });
    expect(await agentBalance(agentId)).toBe(100_000_000n);
    await expectLedgerSound();
  });

  it("refuses another owner's intent on every call with the same 404", async () => {
    const agentId = await createFundedAgent({ fund: 100, approvalThreshold: 1 });
    const stranger = await signUpTestOwner(env.testApp.app, prisma, 'Stranger');
    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 5 });
      await waitForStatus(intent.id, 'pending_approval');
      for (const [method, path] of [
        ['GET', `/api/v1/intents/${intent.id}`],
        ['GET', `/api/v1/intents/${intent.id}/progress`],
        ['POST', `/api/v1/intents/${intent.id}/approve`],
        ['POST', `/api/v1/intents/${intent.id}/reject`],
        ['POST', `/api/v1/intents/${intent.id}/cancel`],
      ] as const) {
        const response = await api(method, path, method === 'POST' ? {} : undefined, stranger);
        expect(response.statusCode, `${method} ${path}`).toBe(404);
        expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Payment intent not found' } });
      }
      const attach = await api('POST', `/api/v1/intents/${intent.id}/policy`, { policy: { dailyCap: 1 } }, stranger);
      expect(attach.statusCode).toBe(404);
      // The stranger cannot pay with this owner's agent either.
      const create = await api('POST', '/api/v1/intents', { agentId, amount: 1 }, stranger);
      expect(create.statusCode).toBe(404);
      expect((await getIntent(intent.id)).status).toBe('pending_approval');
      await api('POST', `/api/v1/intents/${intent.id}/cancel`, {});
      await workflowResult(intent.id);
    });
  });
});

describe('events', () => {
  it("delivers a payment's events to the owner's webhook endpoint, signed per Standard Webhooks", async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const registered = await api('POST', '/api/v1/webhooks', { url, events: ['intent.created', 'intent.approved', 'settlement.completed'] });
      expect(registered.statusCode, registered.body).toBe(201);
      const { endpoint, secret } = registered.json() as { endpoint: { id: string }; secret: string };
      const agentId = await createFundedAgent({ fund: 10 });

      const intent = await env.runWorker(async () => {
        const created = await createIntent({ agentId, amount: 1, merchant: 'Hooked' });
        await workflowResult(created.id);
        await waitUntil(async () => received.filter((delivery) => JSON.parse(delivery.body).data.intent.id === created.id).length === 3);
        return created;
      });

      const events = received.map((delivery) => {
        // Throws unless the signature is the endpoint secret's over this exact body and headers.
        const event = new Webhook(secret).verify(delivery.body, delivery.headers) as { id: string; type: string; data: { intent: IntentView } };
        expect(delivery.headers['webhook-id']).toBe(event.id);
        return event;
      }).filter((event) => event.data.intent.id === intent.id);
      expect(events.map((event) => event.type).sort()).toEqual(['intent.approved', 'intent.created', 'settlement.completed']);
      expect(new Set(events.map((event) => event.id)).size).toBe(3);
      expect(events.find((event) => event.type === 'settlement.completed')?.data.intent.status).toBe('settled');
      expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(received[0]!.body, received[0]!.headers)).toThrow();

      const log = await api('GET', `/api/v1/webhooks/${endpoint.id}/deliveries`);
      expect(log.statusCode).toBe(200);
      await api('DELETE', `/api/v1/webhooks/${endpoint.id}`);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('policy and KYA gate', () => {
  it('blocks a payment a policy attached to the intent forbids, before any money moves', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 5, category: 'gambling', policy: { allowedCategories: ['compute', 'data'] } });
      const result = await workflowResult(intent.id);
      expect(result.status).toBe('blocked');
      const view = await getIntent(intent.id);
      expect(view.failureCode).toBe('CATEGORY_NOT_ALLOWED');
      expect(view.policyDecision?.fired).toEqual([expect.objectContaining({ code: 'CATEGORY_NOT_ALLOWED', outcome: 'deny', shadow: false })]);
      const events = await prisma.paymentEvent.findMany({ where: { paymentIntentId: intent.id }, select: { type: true } });
      expect(events.map((event) => event.type).sort()).toEqual(['intent.created', 'policy.violation']);
    });
    expect(await agentBalance(agentId)).toBe(100_000_000n);
  });

  it("lets the owner's approval stand in for KYA assurance up to the policy's escalation tier", async () => {
    // A basic agent may pay $100 at a time on its own; its owner allows up to the moderate tier's caps.
    const agentId = await createFundedAgent({ fund: 2_000, maxTransaction: 5_000, dailyLimit: 10_000 });
    await env.runWorker(async () => {
      const escalated = await createIntent({ agentId, amount: 150, policy: { kyaEscalation: 'moderate', timeBox: '2h' } });
      const waiting = await waitForStatus(escalated.id, 'pending_approval');
      expect(waiting.policyDecision?.fired.map((rule) => rule.code)).toEqual(['KYA_ESCALATION_REQUIRED']);
      // The time box of the intent's policy bounds the wait.
      const waitMs = Date.parse(waiting.approval!.expiresAt) - Date.parse(waiting.createdAt);
      expect(waitMs).toBeGreaterThan(110 * 60_000);
      expect(waitMs).toBeLessThan(125 * 60_000);
      expect((await api('POST', `/api/v1/intents/${escalated.id}/approve`, {})).statusCode).toBe(200);
      expect((await workflowResult(escalated.id)).status).toBe('settled');

      // Beyond the moderate tier's $1,000 cap the owner cannot help: refused outright.
      const beyond = await createIntent({ agentId, amount: 1_500, policy: { kyaEscalation: 'moderate' } });
      expect((await workflowResult(beyond.id)).status).toBe('blocked');
      expect((await getIntent(beyond.id)).failureCode).toBe('KYA_TIER_CAP_EXCEEDED');
    });
    expect(await agentBalance(agentId)).toBe(1_850_000_000n);
    await expectLedgerSound();
  });

  it('reports what a shadow policy would have decided without enforcing it', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 5 });
      // Attached as shadow before the gate could run: the gate evaluates it and lets the payment through.
      const attached = await api('POST', `/api/v1/intents/${intent.id}/policy`, { policy: { maxPerTransaction: 1 }, shadow: true });
      expect([200, 409]).toContain(attached.statusCode);
      const result = await workflowResult(intent.id);
      expect(result.status).toBe('settled');
      if (attached.statusCode === 200) {
        const view = await getIntent(intent.id);
        expect(view.policyDecision?.decision).toBe('allow');
        expect(view.policyDecision?.shadow).toEqual([expect.objectContaining({ decision: 'deny' })]);
      }
    });
  });
});

describe('limits under concurrency', () => {
  it("settles exactly as many of 100 concurrent payments as the agent's daily limit allows", async () => {
    // $100 a day, $7 a payment: 14 fit ($98), the 15th would make $105.
    const agentId = await createFundedAgent({ fund: 1_000, maxTransaction: 100, dailyLimit: 100 });
    const results = await env.runWorker(async () => {
      const intents = await Promise.all(Array.from({ length: 100 }, (_, i) => createIntent({ agentId, amount: 7, purpose: `burst ${i}` })));
      return Promise.all(intents.map((intent) => workflowResult(intent.id)));
    });

    const settled = results.filter((result) => result.status === 'settled');
    const blocked = results.filter((result) => result.status === 'blocked');
    expect(settled).toHaveLength(14);
    expect(blocked).toHaveLength(86);
    const failures = await prisma.paymentIntent.groupBy({ by: ['status', 'failureCode'], where: { agentId }, _count: true });
    expect(failures).toEqual(
      expect.arrayContaining([
        { status: 'settled', failureCode: null, _count: 14 },
        { status: 'blocked', failureCode: 'DAILY_LIMIT_EXCEEDED', _count: 86 },
      ]),
    );
    expect(failures).toHaveLength(2);
    expect(await agentBalance(agentId)).toBe(1_000_000_000n - 98_000_000n);
    expect(await holdBalance(agentId)).toBe(0n);
    await expectLedgerSound();
  }, 300_000);

  it('creates one intent, one workflow and one payment for an idempotency key sent 20 times at once', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    const body = { agentId, amount: 3, merchant: 'Weather API', category: 'data' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/api/v1/intents', body, owner, { 'idempotency-key': 'order-4711' })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    const ids = new Set(responses.map((response) => (response.json() as IntentView).id));
    expect(ids.size).toBe(1);
    const [intentId] = [...ids];

    const result = await env.runWorker(() => workflowResult(intentId!));
    expect(result.status).toBe('settled');
    expect(await prisma.paymentIntent.count({ where: { agentId } })).toBe(1);
    const runs = [];
    for await (const run of env.client.workflow.list({ query: `WorkflowId = '${paymentWorkflowId(intentId!)}'` })) runs.push(run.runId);
    expect(runs).toHaveLength(1);
    // One payment: its hold and its capture, each once.
    expect(await ledgerTypesOf(intentId!)).toEqual(['payment_capture', 'payment_hold']);
    expect(await agentBalance(agentId)).toBe(97_000_000n);

    // The key with another body is a conflict and changes nothing.
    const conflict = await api('POST', '/api/v1/intents', { ...body, amount: 4 }, owner, { 'idempotency-key': 'order-4711' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_CONFLICT' } });
    expect(await prisma.paymentIntent.count({ where: { agentId } })).toBe(1);
    await expectLedgerSound();
  }, 120_000);
});

describe('durability', () => {
  it('completes a payment exactly once when the worker process is killed between reserve and capture', async () => {
    const agentId = await createFundedAgent({ fund: 50 });
    // The card simulator settles 4 s after authorising: the window in which the worker dies.
    const first = await env.spawnWorkerProcess({ SANDBOX_SETTLEMENT_DELAY_MS: '4000' });
    const intent = await createIntent({ agentId, amount: 5, rail: 'card', merchant: 'Card Merchant' });
    await waitUntil(async () => {
      const operation = await prisma.railOperation.findUnique({ where: { paymentIntentId: intent.id }, select: { status: true } });
      return operation?.status === 'pending';
    });
    expect(await ledgerTypesOf(intent.id)).toEqual(['payment_hold']);
    await first.kill();
    expect((await getIntent(intent.id)).status).toBe('processing');

    const second = await env.spawnWorkerProcess({ SANDBOX_SETTLEMENT_DELAY_MS: '4000' });
    try {
      const result = await workflowResult(intent.id);
      expect(result.status).toBe('settled');
    } finally {
      await second.stop();
    }
    expect(await ledgerTypesOf(intent.id)).toEqual(['payment_capture', 'payment_hold']);
    expect(await prisma.railOperation.count({ where: { paymentIntentId: intent.id } })).toBe(1);
    expect(await agentBalance(agentId)).toBe(45_000_000n);
    expect(await holdBalance(agentId)).toBe(0n);
    await expectLedgerSound();
  }, 180_000);

  it('never runs a finished payment again: a second start with its workflow id is refused, and nothing moves twice', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 5 });
      expect((await workflowResult(intent.id)).status).toBe('settled');
      const handle = env.client.workflow.getHandle(paymentWorkflowId(intent.id));
      const first = await handle.describe();
      // What a retried request or a replayed queue message would do once the payment has ended.
      await startPaymentWorkflow(env.temporal, { id: intent.id, maxRetries: intent.maxRetries });
      const latest = await handle.describe();
      expect(latest.runId).toBe(first.runId);
      expect(latest.status.name).toBe('COMPLETED');
      expect(await ledgerTypesOf(intent.id)).toEqual(['payment_capture', 'payment_hold']);
    });
    expect(await agentBalance(agentId)).toBe(95_000_000n);
    await expectLedgerSound();
  });

  it('fails an intent whose rail cannot carry it before any money moves', async () => {
    const agentId = await createFundedAgent({ fund: 20 });
    await env.runWorker(async () => {
      // x402 payments go through the agent API's /x402 endpoints, not through owner intents.
      const intent = await createIntent({ agentId, amount: 2, rail: 'x402-base' });
      const result = await workflowResult(intent.id);
      expect(result.status).toBe('failed');
      expect(result.steps.map((step) => `${step.step}:${step.status}`)).toContain('rail_selection:failed');
      const view = await getIntent(intent.id);
      expect(view).toMatchObject({ status: 'failed', failureCode: 'RAIL_UNAVAILABLE', rail: 'x402-base' });
      expect(view.failureMessage).toMatch(/x402/);
      expect(await ledgerTypesOf(intent.id)).toEqual([]);
    });
    expect(await agentBalance(agentId)).toBe(20_000_000n);
    await expectLedgerSound();
  });

  it('releases the held funds when the card network declines the payment', async () => {
    const agentId = await createFundedAgent({ fund: 50 });
    await env.runWorker(async () => {
      const intent = await createIntent({ agentId, amount: 5, rail: 'card', metadata: { sandbox_outcome: 'insufficient_funds' } });
      const result = await workflowResult(intent.id);
      expect(result.status).toBe('failed');
      expect(result.steps.map((step) => `${step.step}:${step.status}`)).toEqual(
        expect.arrayContaining(['reserve:completed', 'execute:failed', 'release:completed', 'capture:skipped']),
      );
      const view = await getIntent(intent.id);
      expect(view).toMatchObject({ status: 'failed', failureCode: 'PAYMENT_DECLINED', sandbox: true });
      expect(await ledgerTypesOf(intent.id)).toEqual(['payment_hold', 'payment_release']);
    }, { sandboxSettlementDelayMs: 100 });
    expect(await agentBalance(agentId)).toBe(50_000_000n);
    expect(await holdBalance(agentId)).toBe(0n);
    await expectLedgerSound();
  });
});

describe('time box', () => {
  it('ends a payment nobody approved within its time box without moving money', async () => {
    const { intent, agentId, balanceBefore } = expiring;
    const result = await env.runWorker(() => workflowResult(intent.id));
    expect(result.status).toBe('expired');
    const view = await getIntent(intent.id);
    expect(view).toMatchObject({ status: 'expired', failureCode: 'APPROVAL_EXPIRED', approval: { status: 'expired' } });
    expect(await ledgerTypesOf(intent.id)).toEqual([]);
    expect(await agentBalance(agentId)).toBe(balanceBefore);
    // Too late to approve.
    expect((await api('POST', `/api/v1/intents/${intent.id}/approve`, {})).statusCode).toBe(409);
    await expectLedgerSound();
  }, 180_000);
});

// ---------------------------------------------------------------- helpers

async function getProgress(intentId: string): Promise<PaymentProgress> {
  const response = await api('GET', `/api/v1/intents/${intentId}/progress`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as PaymentProgress;
}

function workflowResult(intentId: string): Promise<PaymentProgress> {
  return env.client.workflow.getHandle(paymentWorkflowId(intentId)).result() as Promise<PaymentProgress>;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitForStatus(intentId: string, status: IntentView['status']): Promise<IntentView> {
  let view: IntentView | undefined;
  await waitUntil(async () => (view = await getIntent(intentId)).status === status);
  return view!;
}

async function agentBalance(agentId: string): Promise<bigint> {
  const wallet = await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } });
  return wallet.balanceUsdc;
}

async function holdBalance(agentId: string): Promise<bigint> {
  const hold = await prisma.ledgerAccount.findFirst({ where: { kind: 'hold', agentWallet: { agentId } }, select: { balance: true } });
  return hold?.balance ?? 0n;
}

async function ledgerTypesOf(intentId: string): Promise<string[]> {
  const rows = await prisma.ledgerTransaction.findMany({ where: { paymentIntentId: intentId }, select: { type: true } });
  return rows.map((row) => row.type).sort();
}

async function expectLedgerSound(): Promise<void> {
  const report = await verifyLedger(prisma);
  expect(report.problems).toEqual([]);
}
