/**
 * An x402 payment is authorised, held and signed in the agent's request, and its workflow is
 * started from an outbox row written in the same transaction (services/intents/workflow-outbox.ts).
 * Here the product's server runs as its own process (server/src/main.ts, RUN_WORKER=false) and
 * reaches Temporal through a relay the test cuts:
 * - with Temporal unreachable, the call still pays the seller (`exact`, and `upto` within a
 *   Permit2 allowance of what is held), and the capture happens once Temporal is back (the
 *   running server's relay starts the workflow);
 * - a server killed (SIGKILL) after the commit, before any workflow started, leaves the row; the
 *   server started again starts the workflow, and the payment is captured exactly once.
 * Each ends with the ledger equal to the chain. A late-redeeming seller's payment keeps a short
 * workflow history: the rail's looks back off instead of one a second.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { X402SignedPaymentView, X402UpstreamResponseView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { paymentWorkflowId } from '@purser/workflows';
import { freePorts } from '../../scripts/lib.mjs';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv, type WorkerProcess } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, startRpcRelay, type RpcRelay, type TestAgent } from './support/x402-fixtures';

const PRICE = 10_000n; // the sandbox weather API, $0.01

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
/** The only way the server process reaches Temporal. */
let temporalRelay: RpcRelay;
let seller: Address;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  seller = chain.sandboxSeller!;
  // The product processes this suite starts and kills relay the outbox; this process's app must
  // not (it reaches Temporal directly, and would start a workflow the test expects none to).
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000, outboxRelay: false });
  prisma = env.testApp.deps.db.prisma;
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
  temporalRelay = await startRpcRelay(`http://${env.server.address}`);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await temporalRelay?.close();
  await chain?.close();
});

/** The product's server alone, as `npm run start:server` would run it, on a port of its own. */
async function startServer(): Promise<{ process: WorkerProcess; url: string }> {
  const [port] = await freePorts(1);
  const process = await env.spawnWorkerProcess({
    RUN_SERVER: 'true',
    RUN_WORKER: 'false',
    PORT: String(port),
    TEMPORAL_ADDRESS: new URL(temporalRelay.url).host,
    AGENT_RATE_LIMIT_PER_MINUTE: '10000',
  });
  return { process, url: `http://127.0.0.1:${port}` };
}

const onChain = (address: Address) => chain.usdcBalanceOf(address);

async function workflowExists(intentId: string): Promise<boolean> {
  try {
    await env.client.workflow.getHandle(paymentWorkflowId(intentId)).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** Pays the server's own sandbox weather API through /x402/fetch while Temporal is cut off. */
async function payWithTemporalDown(serverUrl: string, agent: TestAgent) {
  temporalRelay.cut();
  const fetched = await agentCall(serverUrl, agent, 'POST', '/x402/fetch', { url: `${serverUrl}/sandbox/paid/weather?city=Porto` });
  expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
  const view = fetched.body as unknown as X402UpstreamResponseView;
  expect(JSON.parse(view.body)).toMatchObject({ city: 'Porto' });
  expect(view.payment).toMatchObject({ status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  return view.payment!.intent_id;
}

/** The payment captured once, and the ledger moved exactly what the chain moved. */
async function expectCapturedOnce(agent: TestAgent, intentId: string, before: { ledger: bigint; agent: bigint; seller: bigint }) {
  expect(await onChain(agent.address)).toBe(before.agent - PRICE);
  expect(await onChain(seller)).toBe(before.seller + PRICE);
  expect(await ledgerBalance(prisma, agent.id)).toBe(before.ledger - PRICE);
  const moves = await prisma.ledgerTransaction.groupBy({ by: ['type'], where: { paymentIntentId: intentId }, _count: true });
  expect(Object.fromEntries(moves.map((move) => [move.type, move._count]))).toEqual({ payment_hold: 1, payment_capture: 1 });
  expect(await prisma.paymentWorkflowOutbox.count({ where: { paymentIntentId: intentId } })).toBe(0);
  await expectLedgerConsistent(prisma);
}

async function balancesOf(agent: TestAgent) {
  return { ledger: await ledgerBalance(prisma, agent.id), agent: await onChain(agent.address), seller: await onChain(seller) };
}

describe('the payment workflow outbox', () => {
  it('pays the seller while Temporal is down, and captures once Temporal is back', async () => {
    const server = await startServer();
    try {
      const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
      const before = await balancesOf(agent);
      await env.runWorker(async () => {
        const intentId = await payWithTemporalDown(server.url, agent);
        // Paid on chain, held in the ledger, waiting in the outbox: no workflow yet.
        expect(await onChain(seller)).toBe(before.seller + PRICE);
        expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).toEqual({ status: 'processing' });
        expect(await prisma.paymentWorkflowOutbox.count({ where: { paymentIntentId: intentId } })).toBe(1);
        expect(await workflowExists(intentId)).toBe(false);

        temporalRelay.restore();
        await intentReaches(prisma, intentId, 'settled');
        await expectCapturedOnce(agent, intentId, before);
      });
    } finally {
      temporalRelay.restore();
      await server.process.stop();
    }
  });

  it('pays an upto seller while Temporal is down: signed in the request within a Permit2 allowance of the hold, captured at what moved once Temporal is back', async () => {
    const server = await startServer();
    const MAXIMUM = 10_000n; // the sandbox's metered text: at most $0.01 a call
    const CHARGED = 2_500n; // 250 tokens at $0.00001
    try {
      const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
      const before = await balancesOf(agent);
      await env.runWorker(async () => {
        temporalRelay.cut();
        const fetched = await agentCall(server.url, agent, 'POST', '/x402/fetch', { url: `${server.url}/sandbox/paid/tokens?tokens=250` });
        expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
        const view = fetched.body as unknown as X402UpstreamResponseView;
        expect(JSON.parse(view.body)).toMatchObject({ tokens: 250, chargedUsd: '$0.00250' });
        expect(view.payment).toMatchObject({ status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
        const intentId = view.payment!.intent_id;

        // Signed in the request for the maximum, confirmed from the seller's transaction for what
        // it moved; the hold waits in the ledger and the workflow in the outbox.
        const operation = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { status: true, details: true } });
        expect(operation).toMatchObject({ status: 'settled', details: { scheme: 'upto', maximum: MAXIMUM.toString(), capturedAmount: CHARGED.toString(), transactionHash: view.payment!.transaction_hash } });
        expect(await onChain(seller)).toBe(before.seller + CHARGED);
        expect(await ledgerBalance(prisma, agent.id)).toBe(before.ledger - MAXIMUM);
        expect(await prisma.paymentWorkflowOutbox.count({ where: { paymentIntentId: intentId } })).toBe(1);
        expect(await workflowExists(intentId)).toBe(false);

        temporalRelay.restore();
        await intentReaches(prisma, intentId, 'settled');
        expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true } })).toEqual({ amount: CHARGED });
        expect(await onChain(agent.address)).toBe(before.agent - CHARGED);
        expect(await ledgerBalance(prisma, agent.id)).toBe(before.ledger - CHARGED);
        const moves = await prisma.ledgerTransaction.groupBy({ by: ['type'], where: { paymentIntentId: intentId }, _count: true });
        expect(Object.fromEntries(moves.map((move) => [move.type, move._count]))).toEqual({ payment_hold: 1, payment_capture: 1 });
        // Permit2 keeps no allowance once nothing is held for an open `upto` payment.
        await expect.poll(async () => (await chain.permit2Allowance(agent.address)).allowance).toBe(0n);
        await expectLedgerConsistent(prisma);
      });
    } finally {
      temporalRelay.restore();
      await server.process.stop();
    }
  });

  it('starts the workflow of a payment whose server was killed between the commit and the start, after a restart, and captures it once', async () => {
    const first = await startServer();
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balancesOf(agent);
    let intentId: string;
    try {
      intentId = await payWithTemporalDown(first.url, agent);
    } finally {
      await first.process.kill();
      temporalRelay.restore();
    }
    expect(await workflowExists(intentId)).toBe(false);
    expect(await prisma.paymentWorkflowOutbox.count({ where: { paymentIntentId: intentId } })).toBe(1);

    const second = await startServer();
    try {
      await env.runWorker(async () => {
        await intentReaches(prisma, intentId, 'settled');
      });
      await expectCapturedOnce(agent, intentId, before);
    } finally {
      await second.process.stop();
    }
  });
});

describe('a seller that redeems late', () => {
  it('is looked for on chain with back-off: the workflow history stays short', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balancesOf(agent);
    const appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const weather = `${appUrl}/sandbox/paid/weather?city=Faro`;
    await env.runWorker(async () => {
      const requirements = await agentCall(appUrl, agent, 'POST', '/x402/requirements', { url: weather });
      const signed = (await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', (requirements.body as { recommended: object }).recommended)).body as unknown as X402SignedPaymentView;
      expect(signed.status).toBe('processing');
      // The seller holds the signed payment for 16 s before it redeems it (the proxy call).
      await new Promise((resolve) => setTimeout(resolve, 16_000));
      const proxied = await agentCall(appUrl, agent, 'POST', '/x402/proxy', { url: weather, payment_header: signed.xPaymentHeader });
      expect(proxied.status, JSON.stringify(proxied.body)).toBe(200);
      await intentReaches(prisma, signed.intent_id, 'settled');

      const history = await env.client.workflow.getHandle(paymentWorkflowId(signed.intent_id)).fetchHistory();
      const looks = (history.events ?? []).filter((event) => event.timerStartedEventAttributes).length;
      // Looks after about 1, 1.5, 2.3, 3.4, 5, 7.6 and 11 s of age: 7, where one a second made 16.
      expect(looks).toBeGreaterThan(0);
      expect(looks).toBeLessThanOrEqual(8);
      await expectCapturedOnce(agent, signed.intent_id, before);
    });
  });
});
