/**
 * A hold is released only on evidence, and a node behind the head is no evidence. Here the
 * product reaches the sandbox chain through a JSON-RPC proxy that answers, on demand, as a node
 * stuck at an older block (support/lagging-rpc.ts), while the chain runs on and the seller settles
 * there. Every decision reads the block first and the authorisation's state at that block, and
 * judges a window by that block's timestamp only: so while the product's node lags, the hold stays
 * (its clock past the window proves nothing), and once the node answers consistently the payment
 * is captured for exactly what moved. The last test is the window's edge: Permit2 still settles in
 * a block whose timestamp equals its deadline.
 */
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { createTestClient, createWalletClient, http, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { ANVIL_MNEMONIC } from '../src/services/chain/sandbox/start-sandbox-chain';
import { startChain } from '../src/services/chain/start-chain';
import { createX402BaseRail } from '../src/services/paid-calls/create-x402-rail';
import { startLaggingRpc, type LaggingRpc } from './support/lagging-rpc';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { permitOf, sendUptoSettle } from './support/upto-settlements';
import { agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

const MAX_VALIDITY_S = 12;
const FUNDED = 5_000_000n;
const WEATHER = 10_000n; // the sandbox weather API, $0.01
const MAX = 1_000_000n; // an upto payment of at most $1.00 ...
const USED = 370_000n; // ... settled for $0.37

/** The chain as it is: the test's and the seller's view, never lagging. */
let chain: EvmChain;
/** The chain as the product sees it, through the lagging proxy. */
let productChain: EvmChain;
let node: LaggingRpc;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
/** The upto seller's own facilitator, the one its permits name. */
const facilitatorAccount = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 7 });
let facilitator: ReturnType<typeof createWalletClient>;
let anvil: ReturnType<typeof createTestClient>;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  node = await startLaggingRpc(chain.rpcUrl);
  productChain = await startChain({ sandboxRpcUrl: node.url });
  await chain.fundSandboxAddress(facilitatorAccount.address, 1n);
  facilitator = createWalletClient({ account: facilitatorAccount, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  anvil = createTestClient({ mode: 'anvil', chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  env = await startTemporalTestEnv({ chain: productChain, agentRateLimitPerMinute: 10_000, x402MaxValiditySeconds: MAX_VALIDITY_S });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  node?.catchUp();
  await env?.close();
  await productChain?.close();
  await node?.close();
  await chain?.close();
});

// A failed test must not leave the next one behind.
afterEach(() => node.catchUp());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function intentOf(intentId: string) {
  return prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, amount: true } });
}

async function operationOf(intentId: string) {
  return prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { status: true, declineCode: true, details: true } });
}

async function waitForStatus(intentId: string, statuses: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const intent = await intentOf(intentId);
    if (statuses.includes(intent.status)) return intent;
    if (Date.now() > deadline) throw new Error(`intent ${intentId} is still ${intent.status}`);
    await sleep(200);
  }
}

/** Sleeps until this machine's clock is `seconds` past (or before, when negative) the unix time `at`. */
async function untilClock(at: bigint, seconds: number) {
  await sleep(Math.max(0, (Number(at) + seconds) * 1000 - Date.now()));
}

/** Mines an empty block on the real chain, so its head shows the time that has passed. */
async function mine() {
  await anvil.mine({ blocks: 1 });
}

/** An exact payment for the sandbox's paid weather API, signed through sign-payment. */
async function signWeather(agent: TestAgent) {
  const requirements = await agentCall(appUrl, agent, 'POST', '/x402/requirements', { url: `${appUrl}/sandbox/paid/weather` });
  expect(requirements.status, JSON.stringify(requirements.body)).toBe(200);
  const requirement = requirements.body.recommended as unknown as PaymentRequirements;
  const signed = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement, x402_version: 2 });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const payment = decodePaymentSignatureHeader(signed.body.x_payment_header as string);
  const { authorization } = payment.payload as { authorization: { nonce: Hex; validBefore: string } };
  return { intentId: signed.body.intent_id as string, requirement, payment, validBefore: BigInt(authorization.validBefore) };
}

/** An upto payment of at most $1.00 to the sandbox seller, settled only by this suite's facilitator. */
async function signUpto(agent: TestAgent) {
  const requirement = {
    scheme: 'upto',
    network: chain.info.network,
    amount: MAX.toString(),
    asset: chain.info.usdcAddress,
    payTo: chain.sandboxSeller!,
    maxTimeoutSeconds: 60,
    extra: { name: 'USDC', version: '2', facilitatorAddress: facilitatorAccount.address },
  };
  const signed = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement, x402_version: 2 });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  return { intentId: signed.body.intent_id as string, permit: permitOf(signed.body.x_payment_header as string) };
}

async function settled(hash: Hex) {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function balances(agent: TestAgent) {
  return { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address) };
}

describe('a node that answers state from an older block than the head', () => {
  it('never has an exact payment released on its word: held past the window while it lags, captured once it catches up', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);

    await env.runWorker(async () => {
      const { intentId, requirement, payment, validBefore } = await signWeather(agent);
      const stuckAt = await node.lag();
      // The seller redeems on the chain itself, a block the product's node has not reached.
      const redeemed = await chain.facilitator.settle(payment, requirement);
      expect(redeemed.success, JSON.stringify(redeemed)).toBe(true);

      // Past the window by this machine's clock, and by the chain's: the lagging node says unused, at a block before it.
      await untilClock(validBefore, 4);
      await mine();
      expect(node.laggingAnswers()).toBeGreaterThan(0);
      expect(await intentOf(intentId)).toMatchObject({ status: 'processing' });
      expect((await operationOf(intentId)).status).toBe('pending');
      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - WEATHER);
      expect((await chain.publicClient.getBlock()).number).toBeGreaterThan(stuckAt);

      node.catchUp();
      expect(await waitForStatus(intentId, ['settled', 'failed'])).toMatchObject({ status: 'settled' });
      expect((await operationOf(intentId)).details).toMatchObject({ transactionHash: redeemed.transaction });
    });

    expect(await balances(agent)).toEqual({ ledger: before.ledger - WEATHER, onChain: before.onChain - WEATHER });
    await expectLedgerConsistent(prisma);
  }, 120_000);

  it('never has an upto payment released while its head runs ahead of its state: captured at what the proxy moved once the state is there', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);

    await env.runWorker(async () => {
      const { intentId, permit } = await signUpto(agent);
      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - MAX);
      // The head is the chain's; state and logs come from a node stuck before the settlement.
      await node.lag(['state', 'logs']);
      await settled(await sendUptoSettle(facilitator, permit, USED));

      // The head the product reads is past the deadline; the state it is given there says "unused".
      await untilClock(permit.deadline, 4);
      await mine();
      expect((await chain.publicClient.getBlock()).timestamp).toBeGreaterThan(permit.deadline);
      await sleep(2_000);
      expect(node.laggingAnswers()).toBeGreaterThan(0);
      expect(await intentOf(intentId)).toMatchObject({ status: 'processing' });
      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - MAX);

      node.catchUp();
      expect(await waitForStatus(intentId, ['settled', 'failed'])).toMatchObject({ status: 'settled', amount: USED });
      expect((await operationOf(intentId)).details).toMatchObject({ capturedAmount: USED.toString() });
    });

    expect(await balances(agent)).toEqual({ ledger: before.ledger - USED, onChain: before.onChain - USED });
    expect((await chain.permit2Allowance(agent.address)).allowance).toBe(0n);
    await expectLedgerConsistent(prisma);
  }, 120_000);

  it('does not take an upto cancel for what used the nonce when the seller settled first: the settlement is found and captured', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);

    await env.runWorker(async () => {
      const { intentId, permit } = await signUpto(agent);
      // Head and state are the chain's; the product's logs stop before the settlement.
      await node.lag(['logs']);
      await settled(await sendUptoSettle(facilitator, permit, USED));

      // Suspended after the seller settled: the agent's invalidation succeeds (Permit2 sets a set bit
      // again), but it is not what used the nonce.
      const suspended = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/agents/${agent.id}/suspend`);
      expect(suspended.statusCode, suspended.body).toBe(200);
      const { details } = await operationOf(intentId);
      expect(details).toMatchObject({ cancelTransactionHash: expect.stringMatching(/^0x/) });
      await settled((details as { cancelTransactionHash: Hex }).cancelTransactionHash);
      await sleep(3_000);
      expect(await intentOf(intentId)).toMatchObject({ status: 'processing' });
      expect((await operationOf(intentId)).status).toBe('pending');
      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - MAX);

      node.catchUp();
      expect(await waitForStatus(intentId, ['settled', 'failed'])).toMatchObject({ status: 'settled', amount: USED });
    });

    expect(await balances(agent)).toEqual({ ledger: before.ledger - USED, onChain: before.onChain - USED });
    await expectLedgerConsistent(prisma);
  }, 120_000);
});

// Last: it moves the chain's clock a few seconds ahead of this machine's.
describe('the edge of an upto window', () => {
  it('keeps the hold at a block whose timestamp equals the deadline, where Permit2 still settles, and captures the settlement made there', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const rail = createX402BaseRail({ prisma, masterKey: env.testApp.deps.masterKey, chain: productChain, maxValiditySeconds: MAX_VALIDITY_S });

    await env.runWorker(async () => {
      const { intentId, permit } = await signUpto(agent);
      // The head's timestamp is exactly the deadline, and the permit is unused there.
      await untilClock(permit.deadline, -4);
      await anvil.setNextBlockTimestamp({ timestamp: permit.deadline });
      await mine();
      expect((await chain.publicClient.getBlock()).timestamp).toBe(permit.deadline);
      expect(await rail.status(intentId)).toMatchObject({ status: 'pending' });
      expect(await intentOf(intentId)).toMatchObject({ status: 'processing' });

      // Another block with the same timestamp: Permit2 lets the seller settle in it.
      await anvil.setNextBlockTimestamp({ timestamp: permit.deadline });
      const receipt = await settled(await sendUptoSettle(facilitator, permit, USED));
      expect((await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp).toBe(permit.deadline);
      expect(await waitForStatus(intentId, ['settled', 'failed'])).toMatchObject({ status: 'settled', amount: USED });
    });

    expect(await balances(agent)).toEqual({ ledger: before.ledger - USED, onChain: before.onChain - USED });
    await expectLedgerConsistent(prisma);
  }, 120_000);
});
