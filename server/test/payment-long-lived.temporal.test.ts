/**
 * Payments that live longer than one workflow history can hold (issue 38, item 1). A channel is
 * followed for as long as its agent uses it: the payment workflow continues as new whenever
 * Temporal suggests it, carrying the rail and its progress, and the channel still settles
 * exactly. A payment whose workflow was terminated with its funds held is found by the
 * reconciler and finished by one new run.
 *
 * The dev server here suggests continuing as new after 10 events (its default is thousands), so
 * a run that follows the open channel continues as new after a look or two (one every 30 s).
 */
import { WORKFLOWS_PATH, paymentWorkflowId, type PaymentProgress } from '@purser/workflows';
import { Worker } from '@temporalio/worker';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { x402BatchSettlementAbi } from '../src/services/chain/sandbox/contracts/x402-batch-settlement';
import { X402_BATCH_SETTLEMENT_ADDRESS } from '../src/services/chain/sandbox/sandbox-contracts';
import { startChain } from '../src/services/chain/start-chain';
import { reconcilePaymentWorkflows } from '../src/services/intents/reconcile-payment-workflows';
import { startChannelSeller, type ChannelSeller } from './support/channel-seller';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

const PRICE = 10_000n; // $0.01 a call
const DEPOSIT = 500_000n;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let seller: ChannelSeller;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  seller = await startChannelSeller(chain, { price: '$0.01', minDeposit: DEPOSIT });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000, temporalDynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 10 } });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await seller?.close();
  await env?.close();
  await chain?.close();
});

const channelState = (channelId: Hex) => chain.publicClient.readContract({ address: X402_BATCH_SETTLEMENT_ADDRESS, abi: x402BatchSettlementAbi, functionName: 'channels', args: [channelId] });

async function balances(agent: TestAgent) {
  return { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(seller.payTo) };
}

async function payCall(agent: TestAgent): Promise<string> {
  const paid = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${seller.url}/forecast` });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(paid.body.status, JSON.stringify(paid.body)).toBe(200);
  return (paid.body.payment as { intent_id: string }).intent_id;
}

/** Every run of the intent's workflow, oldest first, with its status and history. */
async function runsOf(intentId: string) {
  const workflowId = paymentWorkflowId(intentId);
  const runs = [];
  for await (const execution of env.client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) runs.push(execution);
  runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  return Promise.all(
    runs.map(async (run) => ({ runId: run.runId, status: run.status.name, history: await env.client.workflow.getHandle(workflowId, run.runId).fetchHistory() })),
  );
}

async function intentStatus(intentId: string) {
  return (await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).status;
}

describe('a channel followed for longer than one workflow history', () => {
  it('continues as new while the channel is open, keeps signing vouchers, and settles exactly what the seller claimed', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentId = await env.runWorker(async () => {
      const id = await payCall(agent);
      for (let call = 1; call < 3; call++) expect(await payCall(agent)).toBe(id);
      // A look or two at the open channel and the run is past 10 events: it continues as new.
      await expect.poll(async () => (await runsOf(id)).filter((run) => run.status === 'CONTINUED_AS_NEW').length, { timeout: 120_000, interval: 1_000 }).toBeGreaterThanOrEqual(1);
      // The payment is the same one after it: vouchers on the same channel, one intent.
      for (let call = 3; call < 5; call++) expect(await payCall(agent)).toBe(id);
      expect(await intentStatus(id)).toBe('processing');
      const { claims } = await seller.claimAndSettle();
      expect(claims).toHaveLength(1);
      const before = seller.signatureTags().length;
      const closed = await agentCall(appUrl, agent, 'POST', `/x402/channels/${id}/close`);
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      expect(closed.body).toMatchObject({ state: 'closed', status: 'settled', captured_exact: '0.05' });
      // Every call went out signed as the agent: each voucher's, and the two of the close's refund exchange.
      expect(seller.signatureTags().slice(before)).toEqual(['agent-payer-auth', 'agent-payer-auth']);
      expect(seller.signatureTags().filter((tag) => tag === null)).toEqual([]);
      await expect.poll(async () => (await runsOf(id)).at(-1)?.status, { timeout: 30_000 }).toBe('COMPLETED');
      return id;
    });

    const earned = 5n * PRICE;
    const { details } = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { details: true } });
    expect(await channelState((details as { channelId: Hex }).channelId)).toEqual([earned, earned]);
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(earned);
    expect(before.onChain - after.onChain).toBe(earned);
    expect(after.seller - before.seller).toBe(earned);
    expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId, type: 'payment_capture' } })).toBe(1);
    await expectLedgerConsistent(prisma);

    // Every run replays on today's code, the continued ones too; the last returns the whole progress.
    const runs = await runsOf(intentId);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.slice(0, -1).every((run) => run.status === 'CONTINUED_AS_NEW')).toBe(true);
    const failures: string[] = [];
    const histories = runs.map((run) => ({ workflowId: `${paymentWorkflowId(intentId)}-${run.runId}`, history: run.history }));
    for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    const result = (await env.client.workflow.getHandle(paymentWorkflowId(intentId)).result()) as PaymentProgress;
    expect(result.status).toBe('settled');
    expect(result.steps.map((step) => step.step)).toEqual(expect.arrayContaining(['policy_gate', 'reserve', 'execute', 'capture', 'settlement.completed', 'audit']));
  }, 240_000);
});

describe('the reconciler', () => {
  it('finds a payment whose workflow was terminated with its funds held and finishes it with exactly one new run', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentId = await env.runWorker(async () => {
      const id = await payCall(agent);
      await payCall(agent);
      return id;
    });
    // An operator terminates the run (or Temporal did, at its history limit): the deposit stays held.
    await env.client.workflow.getHandle(paymentWorkflowId(intentId)).terminate('terminated by the test');
    expect(await intentStatus(intentId)).toBe('processing');
    expect(before.ledger - (await ledgerBalance(prisma, agent.id))).toBe(DEPOSIT);

    // The seller claims and the agent closes; nobody follows the channel yet.
    await seller.claimAndSettle();
    const closing = await agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`);
    expect(closing.status, JSON.stringify(closing.body)).toBe(200);
    expect(await intentStatus(intentId)).toBe('processing');

    // An intent changed moments ago is its workflow's: the reconciler leaves it alone.
    expect((await reconcilePaymentWorkflows(env.testApp.deps)).restarted).not.toContain(intentId);
    // Two servers reconcile at once: one new run.
    const [first, second] = await Promise.all([reconcilePaymentWorkflows(env.testApp.deps, { olderThanMs: 0 }), reconcilePaymentWorkflows(env.testApp.deps, { olderThanMs: 0 })]);
    expect([...first.restarted, ...second.restarted].filter((id) => id === intentId)).toEqual([intentId]);

    await env.runWorker(async () => {
      await expect.poll(() => intentStatus(intentId), { timeout: 60_000 }).toBe('settled');
      await expect.poll(async () => (await runsOf(intentId)).at(-1)?.status, { timeout: 30_000 }).toBe('COMPLETED');
    });
    // A settled payment is never run again.
    expect((await reconcilePaymentWorkflows(env.testApp.deps, { olderThanMs: 0 })).restarted).not.toContain(intentId);
    const runs = await runsOf(intentId);
    expect(runs.map((run) => run.status)).toEqual(['TERMINATED', 'COMPLETED']);

    const earned = 2n * PRICE;
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(earned);
    expect(before.onChain - after.onChain).toBe(earned);
    expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId, type: 'payment_capture' } })).toBe(1);
    await expectLedgerConsistent(prisma);
  }, 240_000);
});
