/**
 * MPP beside x402: an agent pays a seller that speaks the Machine Payments Protocol, built from
 * `mppx`'s own server alone (support/mpp-seller.ts: its EVM `charge` checks the credential, its
 * relayer settles on the sandbox chain and names the transaction in the Payment-Receipt).
 * - one call through /pay/fetch pays exactly the price: the payee gets it on chain, the ledger
 *   captures it once, the answer names MPP and the receipt, confirmed from the chain and kept;
 * - the same call again under its Idempotency-Key pays nothing more (the seller's fresh challenge
 *   is not answered);
 * - /x402/fetch answers MPP sellers too (its first name);
 * - a seller offering both protocols is paid once, by the owner's preferred one (default: the
 *   cheaper, then x402).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { MPP_SELLER_PRICE, startMppSeller, type MppSeller } from './support/mpp-seller';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, signedOperations, type TestAgent } from './support/x402-fixtures';

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let mppOnly: MppSeller;
let both: MppSeller;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
  [mppOnly, both] = await Promise.all([startMppSeller(chain, { x402: false }), startMppSeller(chain)]);
}, 300_000);

afterAll(async () => {
  await mppOnly?.close();
  await both?.close();
  await env?.close();
  await chain?.close();
});

interface PaidAnswer {
  status: number;
  body: string;
  payment: { intent_id: string; status: string; transaction_hash: string | null; protocol: string };
  mpp_receipt: { method: string; status: string; reference: string; timestamp: string; confirmed: boolean } | null;
}

async function pay(agent: TestAgent, seller: MppSeller, options: { path?: string; key?: string } = {}) {
  const headers: Record<string, string> = options.key ? { 'idempotency-key': options.key } : {};
  return agentCall(appUrl, agent, 'POST', options.path ?? '/pay/fetch', { url: seller.paidUrl, max_amount: 1 }, headers);
}

async function money(agent: TestAgent, seller: MppSeller) {
  return { ledger: await ledgerBalance(prisma, agent.id), payer: await chain.usdcBalanceOf(agent.address), payee: await chain.usdcBalanceOf(seller.payTo) };
}

describe('an MPP seller built with mppx', () => {
  it('is paid exactly its price once, the receipt confirmed from the chain and kept', () =>
    env.runWorker(async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const before = await money(agent, mppOnly);

    const response = await pay(agent, mppOnly);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const answer = response.body as unknown as PaidAnswer;
    expect(answer.status).toBe(200);
    expect(answer.payment.protocol).toBe('mpp');
    // The seller got an MPP credential, not an x402 header, and settled it once.
    const paidRequests = mppOnly.seen.filter((seen) => seen.credential !== null);
    expect(paidRequests).toHaveLength(1);
    expect(paidRequests[0]!.credential).toMatch(/^Payment /);
    expect(paidRequests[0]!.paymentSignature).toBeNull();
    expect(mppOnly.settlements).toHaveLength(1);
    const [settlement] = mppOnly.settlements;
    expect(settlement).toMatchObject({ protocol: 'mpp', value: MPP_SELLER_PRICE });
    expect(answer.mpp_receipt).toMatchObject({ method: 'evm', status: 'success', reference: settlement!.transaction, confirmed: true });
    expect(answer.payment.transaction_hash).toBe(settlement!.transaction);

    await intentReaches(prisma, answer.payment.intent_id, 'settled');
    const after = await money(agent, mppOnly);
    expect(after.payee - before.payee).toBe(MPP_SELLER_PRICE);
    expect(before.payer - after.payer).toBe(MPP_SELLER_PRICE);
    expect(before.ledger - after.ledger).toBe(MPP_SELLER_PRICE);
    const [operation] = await signedOperations(prisma, agent.id);
    expect(operation!.details).toMatchObject({ mppReceipt: { reference: settlement!.transaction, confirmed: true }, transactionHash: settlement!.transaction });
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: answer.payment.intent_id }, select: { metadata: true, amount: true } });
    expect(intent.amount).toBe(MPP_SELLER_PRICE);
    expect(intent.metadata).toMatchObject({ x402: { protocol: 'mpp', mpp: { challenge: { method: 'evm', intent: 'charge' } } } });
    await expectLedgerConsistent(prisma);
  }));

  it('pays nothing more for the same call under its Idempotency-Key', () =>
    env.runWorker(async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const key = `mpp-${Math.random().toString(36).slice(2)}`;
    const first = await pay(agent, mppOnly, { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const paid = first.body as unknown as PaidAnswer;
    await intentReaches(prisma, paid.payment.intent_id, 'settled');
    const settlements = mppOnly.settlements.length;
    const before = await money(agent, mppOnly);

    const again = await pay(agent, mppOnly, { key });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const replayed = again.body as unknown as PaidAnswer;
    expect(replayed.payment).toMatchObject({ intent_id: paid.payment.intent_id, protocol: 'mpp', transaction_hash: paid.payment.transaction_hash });
    expect(replayed.body).toBe(paid.body);
    expect(mppOnly.settlements.length).toBe(settlements);
    expect(await money(agent, mppOnly)).toEqual(before);
    expect(await signedOperations(prisma, agent.id)).toHaveLength(1);
    await expectLedgerConsistent(prisma);
  }));

  it('is read by /x402/requirements as asking for payment, with no x402 requirement to sign and nothing paid', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const credentials = mppOnly.seen.filter((seen) => seen.credential !== null).length;
    const response = await agentCall(appUrl, agent, 'POST', '/x402/requirements', { url: mppOnly.paidUrl });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ payment_required: true, status: 402, x402_version: null, accepts: [], recommended: null, error: expect.stringContaining('/pay/fetch') });
    expect(mppOnly.seen.filter((seen) => seen.credential !== null).length).toBe(credentials);
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it('is paid through /x402/fetch, the endpoint’s first name, the same way', () =>
    env.runWorker(async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const response = await pay(agent, mppOnly, { path: '/x402/fetch' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const answer = response.body as unknown as PaidAnswer;
    expect(answer.payment.protocol).toBe('mpp');
    expect(answer.mpp_receipt?.confirmed).toBe(true);
    await intentReaches(prisma, answer.payment.intent_id, 'settled');
    await expectLedgerConsistent(prisma);
  }));
});

describe('an MPP payment the owner approves', () => {
  it('waits for the owner, then the same call under its key pays the challenge it first answered, signed by the workflow, once', () =>
    env.runWorker(async () => {
      const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10, approvalThreshold: 0.005 });
      const before = await money(agent, mppOnly);
      const key = `mpp-approval-${Math.random().toString(36).slice(2)}`;
      const credentials = () => mppOnly.seen.filter((seen) => seen.credential !== null).length;
      const sentBefore = credentials();
      const waiting = await pay(agent, mppOnly, { key });
      expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
      expect(waiting.body).toMatchObject({ status: 'pending_approval', header_name: 'Authorization', x_payment_header: null });
      const intentId = waiting.body.intent_id as string;
      // Nothing signed or sent while the owner decides.
      expect(credentials()).toBe(sentBefore);
      expect(await signedOperations(prisma, agent.id)).toEqual([]);
      const decided = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/intents/${intentId}/approve`, {});
      expect(decided.statusCode, decided.body).toBe(200);
      await expect.poll(() => prisma.railOperation.count({ where: { paymentIntentId: intentId } }), { timeout: 20_000 }).toBe(1);

      const settlements = mppOnly.settlements.length;
      const paid = await pay(agent, mppOnly, { key });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const answer = paid.body as unknown as PaidAnswer;
      expect(answer.payment).toMatchObject({ intent_id: intentId, protocol: 'mpp' });
      expect(answer.mpp_receipt?.confirmed).toBe(true);
      await intentReaches(prisma, intentId, 'settled');
      expect(mppOnly.settlements.length - settlements).toBe(1);
      expect(credentials() - sentBefore).toBe(1);
      const after = await money(agent, mppOnly);
      expect(after.payee - before.payee).toBe(MPP_SELLER_PRICE);
      expect(before.ledger - after.ledger).toBe(MPP_SELLER_PRICE);
      await expectLedgerConsistent(prisma);
    }));
});

describe('a seller offering both x402 and MPP', () => {
  const payBoth = (agent: TestAgent) => env.runWorker(() => payOnce(agent));

  async function payOnce(agent: TestAgent) {
    const before = await money(agent, both);
    const settlements = both.settlements.length;
    const response = await pay(agent, both);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const answer = response.body as unknown as PaidAnswer;
    await intentReaches(prisma, answer.payment.intent_id, 'settled');
    const after = await money(agent, both);
    // Paid once, whichever protocol: one settlement, the price once on chain and in the ledger.
    expect(both.settlements.length - settlements).toBe(1);
    expect(after.payee - before.payee).toBe(MPP_SELLER_PRICE);
    expect(before.ledger - after.ledger).toBe(MPP_SELLER_PRICE);
    expect(await signedOperations(prisma, agent.id)).toHaveLength(1);
    await expectLedgerConsistent(prisma);
    return { answer, settlement: both.settlements.at(-1)! };
  }

  it('is paid once in x402 by default (the same price: x402 first)', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const { answer, settlement } = await payBoth(agent);
    expect(answer.payment.protocol).toBe('x402');
    expect(settlement.protocol).toBe('x402');
  });

  it('is paid once in MPP when the owner’s policy prefers it', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 10 });
    const policy = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/policies', { name: `Prefer MPP ${agent.id}`, agentId: agent.id, rules: { preferredProtocol: 'mpp' } });
    expect(policy.statusCode, policy.body).toBe(201);
    const { answer, settlement } = await payBoth(agent);
    expect(answer.payment.protocol).toBe('mpp');
    expect(settlement.protocol).toBe('mpp');
    expect(answer.mpp_receipt?.confirmed).toBe(true);
  });
});
