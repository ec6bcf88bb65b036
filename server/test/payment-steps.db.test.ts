/**
 * The payment workflow's database steps, called directly on a real database (both engines):
 * each is safe to run again, the lifecycle table refuses what it does not list, the front of a
 * payment approved by its owner re-checks limits under the wallet lock before it holds, and
 * verifyLedger notices a hold nobody accounts for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateGate, gateInputFromJson, toGateDecision } from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import { lockIntent, transitionIntent } from '../src/services/intents/transition-intent';
import { getOrCreateAgentAccount, getOrCreateHoldAccount, postLedgerTransaction } from '../src/services/ledger/post-ledger-transaction';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { capturePayment, failIntent, releaseFunds } from '../src/services/payments/settle-payment';
import { authorizePayment } from '../src/services/payments/authorize-payment';
import { createPaymentSteps } from '../src/services/payments/payment-steps';
import { createRails } from '../src/services/rails/create-rails';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { insertIntentRow } from './support/intent-rows';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  const topUp = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: owner.headers, payload: { amount: 10_000 } });
  expect(topUp.statusCode).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

async function fundedAgent(fund: number, rules: { max_transaction_amount?: number; max_daily_limit?: number } = {}): Promise<{ agentId: string; walletId: string }> {
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name: 'Payer', ...rules } });
  expect(created.statusCode, created.body).toBe(201);
  const agentId = (created.json() as { agent: { id: string } }).agent.id;
  const funded = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/fund-agent', headers: owner.headers, payload: { agent_id: agentId, amount: fund } });
  expect(funded.statusCode, funded.body).toBe(200);
  const wallet = await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { id: true } });
  return { agentId, walletId: wallet.id };
}

/** An intent the gate has approved, as the workflow leaves it before reserve. */
function approvedIntent(agentId: string, amount: bigint, extra: { toAddress?: string } = {}): Promise<string> {
  return insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount, status: 'approved', rail: 'ledger', toAddress: extra.toAddress ?? null });
}

/** The front of a payment, as the workflow runs it once the owner approved it: the gate again, then the hold. */
function reserveFunds(intentId: string) {
  return authorizePayment({ prisma, rails: createRails({ prisma }), startDeliveries: async () => {}, log: () => {} }, intentId);
}

async function ledgerTypesOf(intentId: string): Promise<string[]> {
  const rows = await prisma.ledgerTransaction.findMany({ where: { paymentIntentId: intentId }, select: { type: true } });
  return rows.map((row) => row.type).sort();
}

async function balanceOf(agentId: string): Promise<bigint> {
  return (await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } })).balanceUsdc;
}

describe('payment steps', () => {
  it('reserve and capture move the money once however often they run', async () => {
    const { agentId } = await fundedAgent(50);
    const intentId = await approvedIntent(agentId, 5_000_000n);

    expect(await reserveFunds(intentId)).toMatchObject({ outcome: 'authorized' });
    expect(await reserveFunds(intentId)).toMatchObject({ outcome: 'authorized' });
    expect(await ledgerTypesOf(intentId)).toEqual(['payment_hold']);
    expect(await balanceOf(agentId)).toBe(45_000_000n);

    await capturePayment(prisma, intentId);
    await capturePayment(prisma, intentId);
    // A release after the capture changes nothing: the money has gone.
    await releaseFunds(prisma, intentId, { code: 'LATE', message: 'too late' });
    expect(await ledgerTypesOf(intentId)).toEqual(['payment_capture', 'payment_hold']);
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, settledAt: true } });
    expect(intent.status).toBe('settled');
    expect(await balanceOf(agentId)).toBe(45_000_000n);
    const transactions = await prisma.agentTransaction.findMany({ where: { paymentIntentId: intentId }, select: { type: true, status: true } });
    expect(transactions).toEqual([{ type: 'payment', status: 'completed' }]);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('pays another agent of the platform by its wallet address, as an internal transfer', async () => {
    const payer = await fundedAgent(20);
    const payee = await fundedAgent(1);
    const payeeWallet = await prisma.agentWallet.findUniqueOrThrow({ where: { agentId: payee.agentId }, select: { walletAddress: true } });
    const intentId = await approvedIntent(payer.agentId, 2_500_000n, { toAddress: payeeWallet.walletAddress });

    await reserveFunds(intentId);
    await capturePayment(prisma, intentId);
    expect(await balanceOf(payer.agentId)).toBe(17_500_000n);
    expect(await balanceOf(payee.agentId)).toBe(3_500_000n);
    const received = await prisma.agentTransaction.findMany({ where: { agentId: payee.agentId, paymentIntentId: intentId }, select: { type: true, status: true } });
    expect(received).toEqual([{ type: 'payment_received', status: 'completed' }]);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('release returns held funds once and fails the intent with the reason', async () => {
    const { agentId } = await fundedAgent(10);
    const intentId = await approvedIntent(agentId, 4_000_000n);
    await reserveFunds(intentId);
    await releaseFunds(prisma, intentId, { code: 'PAYMENT_DECLINED', message: 'insufficient funds on the card' });
    await releaseFunds(prisma, intentId, { code: 'PAYMENT_DECLINED', message: 'insufficient funds on the card' });
    expect(await ledgerTypesOf(intentId)).toEqual(['payment_hold', 'payment_release']);
    expect(await balanceOf(agentId)).toBe(10_000_000n);
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, failureCode: true, releasedAt: true } });
    expect(intent).toMatchObject({ status: 'failed', failureCode: 'PAYMENT_DECLINED' });
    expect(intent.releasedAt).not.toBeNull();
    await expect(capturePayment(prisma, intentId)).rejects.toThrow(/Cannot capture/);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('the front refuses a payment over the daily limit with the rule that fired, and moves nothing', async () => {
    const { agentId } = await fundedAgent(100, { max_transaction_amount: 10, max_daily_limit: 10 });
    const first = await approvedIntent(agentId, 6_000_000n);
    const second = await approvedIntent(agentId, 4_000_001n);
    await reserveFunds(first);
    expect(await reserveFunds(second)).toMatchObject({ outcome: 'refused', status: 'blocked', at: 'reserve', failure: { code: 'DAILY_LIMIT_EXCEEDED' } });
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: second }, select: { status: true, failureCode: true } });
    expect(intent).toEqual({ status: 'blocked', failureCode: 'DAILY_LIMIT_EXCEEDED' });
    expect(await ledgerTypesOf(second)).toEqual([]);
    // Exactly at the limit passes.
    const third = await approvedIntent(agentId, 4_000_000n);
    expect(await reserveFunds(third)).toMatchObject({ outcome: 'authorized' });
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('the front refuses more than the agent holds', async () => {
    const { agentId } = await fundedAgent(3);
    const intentId = await approvedIntent(agentId, 3_000_001n);
    expect(await reserveFunds(intentId)).toMatchObject({ outcome: 'refused', status: 'failed', failure: { code: 'INSUFFICIENT_FUNDS' } });
    expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).toEqual({ status: 'failed' });
    expect(await balanceOf(agentId)).toBe(3_000_000n);
  });

  it('the front refuses a suspended agent', async () => {
    const { agentId } = await fundedAgent(3);
    const intentId = await approvedIntent(agentId, 1_000_000n);
    const suspended = await t.app.inject({ method: 'POST', url: `/api/v1/agents/${agentId}/suspend`, headers: owner.headers });
    expect(suspended.statusCode).toBe(200);
    expect(await reserveFunds(intentId)).toMatchObject({ outcome: 'refused', status: 'failed', failure: { code: 'AGENT_SUSPENDED' } });
    expect(await balanceOf(agentId)).toBe(3_000_000n);
  });

  it('refuses any transition the lifecycle does not list, and fails no intent that holds funds', async () => {
    const { agentId } = await fundedAgent(5);
    const intentId = await approvedIntent(agentId, 1_000_000n);
    await reserveFunds(intentId);
    await expect(failIntent(prisma, intentId, { code: 'X', message: 'x' })).rejects.toThrow(/holds funds/);
    await capturePayment(prisma, intentId);
    const refused = await prisma
      .$transaction(async (tx: TransactionClient) => transitionIntent(tx, await lockIntent(tx, intentId), { to: 'cancelled', actor: 'test' }))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'CONFLICT', message: 'The payment intent is settled and cannot become cancelled' });
  });

  it('verifyLedger reports a hold that no payment in flight accounts for', async () => {
    const other = await createTestApp();
    try {
      const db = other.deps.db.prisma;
      const someone = await signUpTestOwner(other.app, db);
      await other.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: someone.headers, payload: { amount: 10 } });
      const created = await other.app.inject({ method: 'POST', url: '/api/v1/agents', headers: someone.headers, payload: { name: 'Stray hold' } });
      const agentId = (created.json() as { agent: { id: string } }).agent.id;
      await other.app.inject({ method: 'POST', url: '/api/v1/wallet/fund-agent', headers: someone.headers, payload: { agent_id: agentId, amount: 5 } });
      const wallet = await db.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { id: true } });
      expect((await verifyLedger(db)).problems).toEqual([]);

      await db.$transaction(async (tx: TransactionClient) => {
        const agentAccount = await getOrCreateAgentAccount(tx, wallet.id, 'USDC');
        const hold = await getOrCreateHoldAccount(tx, wallet.id, 'USDC');
        await postLedgerTransaction(tx, {
          type: 'stray_hold',
          entries: [
            { accountId: agentAccount.id, amount: -1_000_000n, currency: 'USDC' },
            { accountId: hold, amount: 1_000_000n, currency: 'USDC' },
          ],
        });
      });
      const report = await verifyLedger(db);
      expect(report.ok).toBe(false);
      expect(report.problems).toEqual([expect.stringMatching(/^hold account .*: USDC balance 1000000 but payments in flight total 0 and sessions set aside 0$/)]);
    } finally {
      await other.cleanup();
    }
  });
});

describe('the steps runs recorded before one-front still call', () => {
  /** A run of that version, carried on by a worker of today: its steps are the one front answered in their shape. */
  const steps = () => createPaymentSteps({ db: t.deps.db, temporal: t.deps.temporal, logger: t.deps.logger, rails: createRails({ prisma }) });

  async function gateAsTheOldRunDoes(intentId: string) {
    const input = await steps().loadGate(intentId);
    const at = new Date();
    return steps().applyGate(intentId, toGateDecision(evaluateGate(gateInputFromJson(input), at), at), input.revision);
  }

  it('take an allowed payment through gate, rail and reserve, holding its funds once', async () => {
    const { agentId } = await fundedAgent(50);
    const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 5_000_000n, rail: 'ledger' });
    await steps().emitEvent(intentId, 'intent.created');
    expect(await steps().loadGate(intentId)).toMatchObject({ status: 'created', intent: { amount: '5000000' }, usage: { spentInWindow: '0' } });

    expect(await gateAsTheOldRunDoes(intentId)).toEqual({ status: 'approved' });
    expect(await steps().selectRail(intentId)).toEqual({ rail: 'ledger', sandbox: false });
    expect(await steps().reserveFunds(intentId)).toEqual({ status: 'reserved' });
    expect(await steps().reserveFunds(intentId)).toEqual({ status: 'reserved' });

    expect(await ledgerTypesOf(intentId)).toEqual(['payment_hold']);
    expect(await balanceOf(agentId)).toBe(45_000_000n);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('answer a payment that needs approval, a denied one and an uncovered one as those runs expect, moving nothing', async () => {
    const { agentId } = await fundedAgent(3, { max_transaction_amount: 10 });
    const waiting = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 2_000_000n, rail: 'ledger' });
    await prisma.spendingRules.update({ where: { agentId }, data: { approvalThreshold: 1_000_000n } });
    expect(await gateAsTheOldRunDoes(waiting)).toEqual({ status: 'pending_approval' });
    expect(await steps().openApproval(waiting, new Date(Date.now() + 60_000).toISOString())).toBe('pending');

    const denied = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 11_000_000n, rail: 'ledger' });
    expect(await gateAsTheOldRunDoes(denied)).toEqual({ status: 'blocked' });
    await expect(steps().reserveFunds(denied)).resolves.toEqual({ status: 'blocked', ended: true });

    await prisma.spendingRules.update({ where: { agentId }, data: { approvalThreshold: null } });
    const uncovered = await insertIntentRow(prisma, { ownerId: owner.userId, agentId, amount: 4_000_000n, rail: 'ledger' });
    expect(await gateAsTheOldRunDoes(uncovered)).toEqual({ status: 'failed' });
    expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: uncovered }, select: { failureCode: true } })).toEqual({ failureCode: 'INSUFFICIENT_FUNDS' });

    for (const intentId of [waiting, denied, uncovered]) expect(await ledgerTypesOf(intentId)).toEqual([]);
    expect(await balanceOf(agentId)).toBe(3_000_000n);
  });
});
