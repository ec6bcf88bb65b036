/**
 * MPP against sellers that lie, each one an `mppx` seller (support/mpp-seller.ts) bent one way:
 * a price above the agent's max_amount, a challenge for another chain or asset, a retry that asks
 * another amount, a 402 again after it took the money, a redirect inward, a hang after payment,
 * a receipt naming a transaction that moved nothing. In each, nothing beyond the agent's rules is
 * signed (what the seller received is decoded and counted), and the ledger and the chain agree:
 * what the seller took on chain is what the ledger captured, and a payment the seller never
 * redeemed comes back whole once its authorisation can no longer move money.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Credential } from 'mppx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { MPP_SELLER_PRICE, startMppSeller, type MppSeller, type MppSellerOptions } from './support/mpp-seller';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, signedOperations, type TestAgent } from './support/x402-fixtures';

/** The deployment's longest window, and how long the sellers' challenges stay open (within it). */
const MAX_VALIDITY_S = 20;
const EXPIRES_S = 8;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
const sellers: MppSeller[] = [];
/** An address inside the house: it must never be called. */
let inward: { url: string; hits: number; close(): Promise<void> };

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000, x402MaxValiditySeconds: MAX_VALIDITY_S });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
  const server = createServer((_request, response) => {
    inward.hits += 1;
    response.writeHead(200).end('internal');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  inward = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/internal`, hits: 0, close: () => new Promise((resolve) => server.close(() => resolve())) };
}, 300_000);

afterAll(async () => {
  await Promise.all(sellers.map((seller) => seller.close()));
  await inward?.close();
  await env?.close();
  await chain?.close();
});

async function seller(options: MppSellerOptions): Promise<MppSeller> {
  const started = await startMppSeller(chain, { x402: false, expiresInSeconds: EXPIRES_S, ...options });
  sellers.push(started);
  return started;
}

async function balances(agent: TestAgent, to: MppSeller) {
  return { ledger: await ledgerBalance(prisma, agent.id), payer: await chain.usdcBalanceOf(agent.address), payee: await chain.usdcBalanceOf(to.payTo) };
}

function fetchPaid(agent: TestAgent, to: MppSeller, maxAmount = 1) {
  return agentCall(appUrl, agent, 'POST', '/pay/fetch', { url: to.paidUrl, max_amount: maxAmount });
}

/** The credentials the seller received, decoded: every one must be for the price it first asked, by this agent. */
function credentialsSent(to: MppSeller) {
  return to.seen.filter((seen) => seen.credential !== null).map((seen) => Credential.deserialize(seen.credential!) as Credential.Credential<{ from: string; to: string; value: string }>);
}

/** Nothing signed, held or moved, and the seller never sent a credential. */
async function expectUntouched(agent: TestAgent, to: MppSeller, before: Awaited<ReturnType<typeof balances>>) {
  expect(credentialsSent(to)).toEqual([]);
  expect(await signedOperations(prisma, agent.id)).toEqual([]);
  expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
  expect(await balances(agent, to)).toEqual(before);
  await expectLedgerConsistent(prisma);
}

/** One credential for exactly the price, from this agent to the seller's payee. */
function expectOneCredentialAtPrice(agent: TestAgent, to: MppSeller) {
  const sent = credentialsSent(to);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.payload).toMatchObject({ from: agent.address, to: to.payTo, value: String(MPP_SELLER_PRICE) });
}

/** The payment ends with nothing taken (its authorisation expired unused): the hold comes back whole. */
async function expectReleasedWhole(agent: TestAgent, to: MppSeller, intentId: string, before: Awaited<ReturnType<typeof balances>>) {
  await intentReaches(prisma, intentId, 'failed', (MAX_VALIDITY_S + 30) * 1000);
  const [operation] = await signedOperations(prisma, agent.id);
  expect(operation).toMatchObject({ status: 'declined', declineCode: 'authorization_expired' });
  expect(to.settlements).toEqual([]);
  expect(await balances(agent, to)).toEqual(before);
  await expectLedgerConsistent(prisma);
}

/** The seller took exactly the price on chain, and the ledger captured exactly that, once. */
async function expectPaidOnce(agent: TestAgent, to: MppSeller, intentId: string, before: Awaited<ReturnType<typeof balances>>) {
  await intentReaches(prisma, intentId, 'settled', 30_000);
  expect(to.settlements).toHaveLength(1);
  expect(await balances(agent, to)).toEqual({ ledger: before.ledger - MPP_SELLER_PRICE, payer: before.payer - MPP_SELLER_PRICE, payee: before.payee + MPP_SELLER_PRICE });
  expect(await signedOperations(prisma, agent.id)).toHaveLength(1);
  await expectLedgerConsistent(prisma);
}

async function intentOf(agent: TestAgent): Promise<string> {
  return (await prisma.paymentIntent.findFirstOrThrow({ where: { agentId: agent.id }, select: { id: true } })).id;
}

describe('an MPP seller asking for more than the rules allow', () => {
  it('is refused above max_amount: nothing signed, held or moved', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const dear = await seller({ price: 2_000_000n });
    const before = await balances(agent, dear);
    const response = await env.runWorker(() => fetchPaid(agent, dear, 1));
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'POLICY_VIOLATION', message: expect.stringContaining('more than max_amount') });
    await expectUntouched(agent, dear, before);
  });

  it('is refused when its challenge names another chain or another asset: nothing signed', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    for (const options of [{ chainId: 1 }, { currency: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const }]) {
      const elsewhere = await seller(options);
      const before = await balances(agent, elsewhere);
      const response = await env.runWorker(() => fetchPaid(agent, elsewhere));
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.error?.code).toBe('RAIL_UNAVAILABLE');
      await expectUntouched(agent, elsewhere, before);
    }
  });
});

describe('an MPP seller that changes its terms', () => {
  it('asking another amount on the retry gets its 402 back: one credential at the first price, never redeemed, released whole', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const switching = await seller({ retryPrice: 20_000n });
    const before = await balances(agent, switching);
    await env.runWorker(async () => {
      const response = await fetchPaid(agent, switching);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ status: 402, payment: { protocol: 'mpp', status: 'processing' }, mpp_receipt: null });
      expectOneCredentialAtPrice(agent, switching);
      // Held while the credential could still be redeemed; nothing signed for the new price.
      expect(await ledgerBalance(prisma, agent.id)).toBe(before.ledger - MPP_SELLER_PRICE);
      await expectReleasedWhole(agent, switching, await intentOf(agent), before);
    });
    expectOneCredentialAtPrice(agent, switching);
  });

  it('asking again after it took the money is paid once: the chain’s settlement is captured, the second 402 is not paid', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const greedy = await seller({ askAgainAfterPayment: true });
    const before = await balances(agent, greedy);
    await env.runWorker(async () => {
      const response = await fetchPaid(agent, greedy);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ status: 402, payment: { protocol: 'mpp' } });
      await expectPaidOnce(agent, greedy, await intentOf(agent), before);
    });
    expectOneCredentialAtPrice(agent, greedy);
  });
});

describe('an MPP seller pointing inward', () => {
  it('has a redirect of its first answer handed back unfollowed: nothing signed', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const redirecting = await seller({ redirectTo: { location: inward.url, on: 'first-call' } });
    const before = await balances(agent, redirecting);
    const response = await env.runWorker(() => fetchPaid(agent, redirecting));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ status: 302, payment: null });
    expect(inward.hits).toBe(0);
    await expectUntouched(agent, redirecting, before);
  });

  it('has a redirect of the paid retry handed back unfollowed: the credential never goes inward, nothing redeemed, released whole', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const redirecting = await seller({ redirectTo: { location: inward.url, on: 'paid-retry' } });
    const before = await balances(agent, redirecting);
    await env.runWorker(async () => {
      const response = await fetchPaid(agent, redirecting);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ status: 302, payment: { protocol: 'mpp' } });
      expect(inward.hits).toBe(0);
      expectOneCredentialAtPrice(agent, redirecting);
      await expectReleasedWhole(agent, redirecting, await intentOf(agent), before);
    });
  });
});

describe('an MPP seller that goes quiet or lies about its settlement', () => {
  it('hanging after it took the money: the agent gets a timeout, the chain’s settlement is captured once', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const hanging = await seller({ hangAfterPayment: true });
    const before = await balances(agent, hanging);
    await env.runWorker(async () => {
      const response = await fetchPaid(agent, hanging);
      expect(response.status, JSON.stringify(response.body)).toBe(502);
      expect(response.body.error?.code).toBe('UPSTREAM_ERROR');
      await expectPaidOnce(agent, hanging, await intentOf(agent), before);
    });
    expectOneCredentialAtPrice(agent, hanging);
  });

  it('naming a transaction that moved nothing: the receipt is kept unconfirmed, the payment is not captured, then released whole', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    // A real transaction of the chain, but not this payment's: the agent's own funding mint, say.
    const other = await seller({});
    const honest = await env.runWorker(async () => {
      const paid = await fetchPaid(await createFundedAgent(env.testApp.app, owner, { fund: 10 }), other);
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      return (paid.body as { payment: { transaction_hash: `0x${string}` } }).payment.transaction_hash;
    });
    const liar = await seller({ receiptReference: honest });
    const before = await balances(agent, liar);
    await env.runWorker(async () => {
      const response = await fetchPaid(agent, liar);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({
        status: 200,
        payment: { protocol: 'mpp', status: 'processing', transaction_hash: null },
        mpp_receipt: { reference: honest, status: 'success', confirmed: false },
      });
      const intentId = await intentOf(agent);
      const [operation] = await signedOperations(prisma, agent.id);
      expect(operation!.details).toMatchObject({ mppReceipt: { reference: honest, confirmed: false } });
      await expectReleasedWhole(agent, liar, intentId, before);
    });
    expectOneCredentialAtPrice(agent, liar);
  });
});
