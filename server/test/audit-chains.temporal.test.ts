/**
 * Audit chains per owner on the payment path: a whole ledger-rail payment of one owner, from
 * the REST request through paymentWorkflow on a real worker to its settlement and audit
 * entries, goes through while another owner's transaction holds that owner's audit chain head
 * open. With one chain for everybody, the payment's first audit entry would wait for it.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { IntentView } from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import { paymentWorkflowId, type PaymentProgress } from '@purser/workflows';
import { appendAuditEvent } from '../src/services/audit/append-audit-event';
import { verifyAuditChains } from '../src/services/audit/verify-audit-chains';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';

let env: TemporalTestEnv;
let prisma: PrismaClient;
let ownerA: SignedUpOwner;
let ownerB: SignedUpOwner;
let agentOfB: string;

beforeAll(async () => {
  env = await startTemporalTestEnv();
  prisma = env.testApp.deps.db.prisma;
  ownerA = await signUpTestOwner(env.testApp.app, prisma, 'Owner A');
  ownerB = await signUpTestOwner(env.testApp.app, prisma, 'Owner B');
  expect((await api(ownerB, 'POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
  const created = await api(ownerB, 'POST', '/api/v1/agents', { name: 'B’s buyer', max_transaction_amount: 50, max_daily_limit: 100 });
  expect(created.statusCode, created.body).toBe(201);
  agentOfB = (created.json() as { agent: { id: string } }).agent.id;
  const funded = await api(ownerB, 'POST', '/api/v1/wallet/fund-agent', { agent_id: agentOfB, amount: 50 });
  expect(funded.statusCode, funded.body).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
});

function api(as: SignedUpOwner, method: 'GET' | 'POST', url: string, body?: unknown): Promise<LightMyRequestResponse> {
  return env.testApp.app.inject({ method, url, headers: as.headers, ...(body === undefined ? {} : { payload: body as object }) });
}

function chainActions(ownerId: string): Promise<string[]> {
  return prisma.auditEvent
    .findMany({ where: { chainId: `owner:${ownerId}` }, orderBy: { chainSeq: 'asc' }, select: { action: true } })
    .then((rows) => rows.map((row) => row.action));
}

/** `promise`'s outcome, or 'still waiting' once `ms` have passed (generous: a hang, not a pace). */
function outcomeOf<T>(promise: Promise<T>, ms: number): Promise<{ done: T } | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  return Promise.race([promise.then((done) => ({ done })), gaveUp]).finally(() => clearTimeout(timer));
}

it('settles owner B’s ledger payment, audit entries and all, while owner A’s open transaction holds A’s chain head', async () => {
  let appended!: () => void;
  const appendedA = new Promise<void>((resolve) => (appended = resolve));
  let commit!: () => void;
  const commitA = new Promise<void>((resolve) => (commit = resolve));
  const transactionA = prisma.$transaction(
    async (tx: TransactionClient) => {
      await appendAuditEvent(tx, { actor: `owner:${ownerA.userId}`, action: 'test.held_open', subject: 'test:a', ownerId: ownerA.userId });
      appended();
      await commitA;
    },
    { timeout: 300_000 },
  );
  const pending: Promise<unknown>[] = [transactionA];
  try {
    await appendedA;
    const paymentOfB = env.runWorker(async () => {
      const response = await api(ownerB, 'POST', '/api/v1/intents', { agentId: agentOfB, amount: 12, merchant: 'Chain Test Supplies' });
      expect(response.statusCode, response.body).toBe(201);
      const intent = response.json() as IntentView;
      return (await env.client.workflow.getHandle(paymentWorkflowId(intent.id)).result()) as PaymentProgress;
    });
    pending.push(paymentOfB);
    const outcome = await outcomeOf(paymentOfB, 150_000);
    expect(outcome).not.toBe('still waiting');
    if (outcome === 'still waiting') return;
    expect(outcome.done.status).toBe('settled');
    expect(outcome.done.steps.find((step) => step.step === 'audit')?.status).toBe('completed');
    // A's transaction is still open: nothing of A's chain is visible yet.
    expect(await chainActions(ownerA.userId)).toEqual([]);
  } finally {
    commit();
    await Promise.allSettled(pending);
  }
  await transactionA;

  expect(await chainActions(ownerA.userId)).toEqual(['test.held_open']);
  const chainOfB = await chainActions(ownerB.userId);
  expect(chainOfB.slice(0, 1)).toEqual(['agent.created']);
  expect(chainOfB).toEqual(expect.arrayContaining(['payment_intent.created', 'payment_intent.settled', 'payment_intent.workflow_completed']));
  const report = await verifyAuditChains(prisma);
  expect(report.ok).toBe(true);
  expect(report.chains.map((chain) => chain.chainId).sort()).toEqual([`owner:${ownerA.userId}`, `owner:${ownerB.userId}`].sort());
  expect((await verifyLedger(prisma)).problems).toEqual([]);
});
