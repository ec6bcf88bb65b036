/**
 * A signed x402 authorisation can move money until its window closes, whatever Purser can or
 * cannot see. Here the product reaches the sandbox chain through a relay the test cuts (an
 * RPC outage), while the chain itself runs on and the seller can still redeem there. The hold
 * must stay while the authorisation is redeemable, and be released only once it was cancelled
 * on chain or expired by chain time; at the end the ledger and the chain agree.
 */
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, startRpcRelay, type RpcRelay, type TestAgent } from './support/x402-fixtures';

/** Long enough for a seller to redeem after the outage below (facilitators want 6 s left). */
const MAX_VALIDITY_S = 30;
const PRICE = 10_000n; // the sandbox weather API, $0.01
const FUNDED = 5_000_000n;

/** The chain as it is: the test's own view, never cut. */
let chain: EvmChain;
/** The chain as the product sees it, through the relay. */
let productChain: EvmChain;
let relay: RpcRelay;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  relay = await startRpcRelay(chain.rpcUrl);
  productChain = await startChain({ sandboxRpcUrl: relay.url });
  env = await startTemporalTestEnv({ chain: productChain, agentRateLimitPerMinute: 10_000, x402MaxValiditySeconds: MAX_VALIDITY_S });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  relay?.restore();
  await env?.close();
  await productChain?.close();
  await relay?.close();
  await chain?.close();
});

// A failed test must not leave the next one without a chain.
afterEach(() => relay.restore());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function intentOf(intentId: string) {
  return prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, failureCode: true } });
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

/** A signed payment for the sandbox's paid weather API, as an agent gets it through sign-payment. */
async function signWeather(agent: TestAgent) {
  const requirements = await agentCall(appUrl, agent, 'POST', '/x402/requirements', { url: `${appUrl}/sandbox/paid/weather` });
  expect(requirements.status, JSON.stringify(requirements.body)).toBe(200);
  const requirement = requirements.body.recommended as unknown as PaymentRequirements;
  const signed = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement, x402_version: 2 });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const header = signed.body.x_payment_header as string;
  const payment = decodePaymentSignatureHeader(header);
  const { authorization } = payment.payload as { authorization: { nonce: Hex; validBefore: string } };
  return { intentId: signed.body.intent_id as string, requirement, payment, nonce: authorization.nonce, validBefore: Number(authorization.validBefore) };
}

async function operationOf(intentId: string) {
  return prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { status: true, declineCode: true, details: true } });
}

describe('an x402 payment while the chain cannot be read', () => {
  it('keeps the hold through the outage, and captures what the seller redeemed meanwhile once the chain answers again', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const onChainBefore = await chain.usdcBalanceOf(agent.address);
    const sellerBefore = await chain.usdcBalanceOf(chain.sandboxSeller!);

    await env.runWorker(async () => {
      const { intentId, requirement, payment } = await signWeather(agent);
      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - PRICE);

      relay.cut();
      // Twice as long as every retry an intent allows takes to fail (maxRetries 2: three attempts,
      // each with the RPC client's own retries, in about 7 s).
      await sleep(14_000);
      expect((await intentOf(intentId)).status).toBe('processing');
      expect((await operationOf(intentId)).status).toBe('pending');
      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - PRICE);

      // The seller redeems the authorisation on the chain Purser cannot see.
      const settled = await chain.facilitator.settle(payment, requirement);
      expect(settled.success, JSON.stringify(settled)).toBe(true);

      relay.restore();
      expect((await waitForStatus(intentId, ['settled', 'failed'])).status).toBe('settled');
      expect((await operationOf(intentId)).details).toMatchObject({ transactionHash: settled.transaction });
    });

    expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - PRICE);
    expect(await chain.usdcBalanceOf(agent.address)).toBe(onChainBefore - PRICE);
    expect(await chain.usdcBalanceOf(chain.sandboxSeller!)).toBe(sellerBefore + PRICE);
    await expectLedgerConsistent(prisma);
  }, 120_000);

  it('releases the hold only after the window has passed, and then nothing can be redeemed', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const onChainBefore = await chain.usdcBalanceOf(agent.address);

    await env.runWorker(async () => {
      const { intentId, requirement, payment, validBefore } = await signWeather(agent);
      relay.cut();
      // Until the last seconds of the window, the authorisation could still be redeemed: held.
      await sleep(Math.max(0, validBefore * 1000 - Date.now() - 2_000));
      expect((await intentOf(intentId)).status).toBe('processing');
      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED - PRICE);

      await sleep(Math.max(0, validBefore * 1000 - Date.now() + 2_000));
      // Past the window, but Purser still cannot read the chain: still held.
      expect((await intentOf(intentId)).status).toBe('processing');

      relay.restore();
      expect(await waitForStatus(intentId, ['settled', 'failed'])).toMatchObject({ status: 'failed' });
      expect((await operationOf(intentId)).declineCode).toBe('authorization_expired');
      const late = await chain.facilitator.settle(payment, requirement).catch((error: unknown) => ({ success: false, error }));
      expect(late.success).toBe(false);
    });

    expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED);
    expect(await chain.usdcBalanceOf(agent.address)).toBe(onChainBefore);
    await expectLedgerConsistent(prisma);
  }, 120_000);
});

describe('suspending or deleting an agent', () => {
  for (const action of ['suspend', 'delete'] as const) {
    it(`${action === 'suspend' ? 'suspending' : 'deleting'} cancels its unredeemed authorisation on chain and releases the hold at once`, async () => {
      const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
      const onChainBefore = await chain.usdcBalanceOf(agent.address);

      await env.runWorker(async () => {
        const { intentId, requirement, payment, nonce, validBefore } = await signWeather(agent);
        const response =
          action === 'suspend'
            ? await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/agents/${agent.id}/suspend`)
            : await ownerCall(env.testApp.app, owner, 'DELETE', `/api/v1/agents/${agent.id}`);
        expect(response.statusCode, response.body).toBe(200);

        // Cancelled on chain: the authorisation is spent, by a cancellation, not a transfer.
        expect(await chain.authorizationUsed(agent.address, nonce)).toBe(true);
        expect(await chain.authorizationOutcome(agent.address, nonce, 0n)).toMatchObject({ used: null, cancelled: expect.stringMatching(/^0x/) });
        const redeemed = await chain.facilitator.settle(payment, requirement).catch((error: unknown) => ({ success: false, error }));
        expect(redeemed.success).toBe(false);

        // Released well before the window would have closed.
        expect(await waitForStatus(intentId, ['settled', 'failed'], 10_000)).toMatchObject({ status: 'failed' });
        expect(Date.now() / 1000).toBeLessThan(validBefore);
        expect((await operationOf(intentId)).declineCode).toBe('authorization_cancelled');
      });

      expect(await ledgerBalance(prisma, agent.id)).toBe(FUNDED);
      expect(await chain.usdcBalanceOf(agent.address)).toBe(onChainBefore);
      await expectLedgerConsistent(prisma);
    }, 120_000);
  }
});
