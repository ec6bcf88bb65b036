/**
 * x402 sign-in-with-x: a seller's 402 asks the agent to prove control of its wallet, and the
 * agent's /x402/fetch signs in with its wallet key. The seller is built only from the official
 * packages, its sign-in server @x402/extensions' own (support/sign-in-seller.ts), so what it
 * accepts is what any such seller accepts.
 * - a sign-in-only account lets the agent in for its own address, with nothing paid, whatever the
 *   owner's request-signing rule; each sign-in is in the owner's audit log;
 * - a challenge naming another site, a host the owner's policies refuse, a chain other than
 *   Purser's: 403 SIGNATURE_REFUSED, nothing signed, the seller never sent a proof; the seller's
 *   own verification refuses a proof replayed at another site;
 * - a seller that sells once and lets the buyer back in: the first call pays (signed in, then
 *   paid, the proof along), the second gets in by signing in alone.
 */
import { parseSIWxHeader, SIGN_IN_WITH_X } from '@x402/extensions/sign-in-with-x';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { OTHER_ORIGIN, SIGN_IN_SELLER_PRICE, startSignInSeller, type SeenSignInRequest, type SignInSeller } from './support/sign-in-seller';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let seller: SignInSeller;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
  seller = await startSignInSeller(chain);
}, 300_000);

afterAll(async () => {
  await seller?.close();
  await env?.close();
  await chain?.close();
});

/** What the seller saw while `fn` ran. */
async function seenDuring<T>(fn: () => Promise<T>): Promise<{ result: T; seen: SeenSignInRequest[] }> {
  const from = seller.seen.length;
  const result = await fn();
  return { result, seen: seller.seen.slice(from) };
}

function fetchThroughPurser(agent: TestAgent, path: string) {
  return agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${seller.url}${path}` });
}

/** The agent's money everywhere, to compare before and after. */
async function balances(agent: TestAgent) {
  return { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(seller.payTo) };
}

function signInsOf(agent: TestAgent) {
  return prisma.auditEvent.findMany({ where: { action: 'agent.signed_in', subject: `agent:${agent.id}` }, select: { actor: true, ownerId: true, data: true }, orderBy: { seq: 'asc' } });
}

/** The seller's content, as /x402/fetch hands it back. */
function contentOf(body: Record<string, unknown>): unknown {
  return JSON.parse(body.body as string);
}

async function expectRefusedUnsigned(agent: TestAgent, path: string, message: string) {
  const before = await balances(agent);
  const { result: response, seen } = await seenDuring(() => fetchThroughPurser(agent, path));
  expect(response.status, JSON.stringify(response.body)).toBe(403);
  expect(response.body.error).toEqual({ code: 'SIGNATURE_REFUSED', message: expect.stringContaining(message) });
  expect(response.body.error!.message).toContain('nothing was signed');
  // The challenge was read from the first answer; no proof ever left Purser.
  expect(seen.map(({ path: seenPath, signIn, paid }) => ({ path: seenPath, signIn, paid }))).toEqual([{ path, signIn: null, paid: false }]);
  expect(await signInsOf(agent)).toEqual([]);
  expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
  expect(await balances(agent)).toEqual(before);
  await expectLedgerConsistent(prisma);
}

describe('an agent signing in to a seller with its wallet', () => {
  it("gets into a sign-in-only account for its own address, paying nothing, whatever its request-signing rule, and the sign-in is in the owner's audit log", async () => {
    const signing = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const unsigned = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    // Sign-in follows the payment rules, not the HTTP-signature rule.
    const rule = await ownerCall(env.testApp.app, owner, 'PATCH', `/api/v1/agents/${unsigned.id}/identity`, { request_signing: 'never' });
    expect(rule.statusCode, rule.body).toBe(200);

    for (const agent of [signing, unsigned]) {
      const before = await balances(agent);
      const { result: response, seen } = await seenDuring(() => fetchThroughPurser(agent, '/account'));
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ status: 200, payment: null });
      expect(contentOf(response.body)).toEqual({ path: '/account', content: 'yours' });

      // Asked, then signed in: the proof is for the agent's own wallet, and the seller's own
      // verification (validateSIWxMessage, verifySIWxSignature) let it in for that address.
      // Both requests as the owner's request-signing rule says: signed, or (never) not.
      const httpSigned = agent === signing;
      expect(seen.map(({ signIn, paid, signed }) => ({ signedIn: signIn !== null, paid, signed }))).toEqual([
        { signedIn: false, paid: false, signed: httpSigned },
        { signedIn: true, paid: false, signed: httpSigned },
      ]);
      const proof = parseSIWxHeader(seen[1]!.signIn!);
      expect(proof).toMatchObject({ domain: new URL(seller.url).host, uri: `${seller.url}/account`, chainId: chain.info.network, type: 'eip191' });
      expect(getAddress(proof.address)).toBe(getAddress(agent.address));
      expect(seller.events).toContainEqual({ type: 'access_granted', resource: '/account', address: proof.address });

      // Nothing paid, held or moved.
      expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
      expect(await balances(agent)).toEqual(before);
      await expectLedgerConsistent(prisma);

      // The owner's audit log: what was signed for whom, not the signature.
      expect(await signInsOf(agent)).toEqual([
        {
          actor: `agent:${agent.id}`,
          ownerId: owner.userId,
          data: { host: new URL(seller.url).host, domain: proof.domain, chain_id: chain.info.network, address: proof.address, nonce: proof.nonce },
        },
      ]);
    }
  });

  it("refuses a challenge that names another site, signing nothing; and the seller's own verification refuses a proof replayed there", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    await expectRefusedUnsigned(agent, '/elsewhere', `sign in to ${new URL(OTHER_ORIGIN).host}`);

    // A proof the agent gave this seller's /account, sent to the site the other challenge names.
    const { seen } = await seenDuring(() => fetchThroughPurser(agent, '/account'));
    const proof = seen.find((request) => request.signIn)!.signIn!;
    const replayed = await seller.fetch('/elsewhere', { [SIGN_IN_WITH_X]: proof });
    expect(replayed.status).toBe(402);
    expect(seller.events).toContainEqual({ type: 'validation_failed', resource: '/elsewhere', error: expect.stringContaining('Domain mismatch') });
  });

  it("refuses to sign in to a host the owner's policies block, with SIGNATURE_REFUSED and nothing signed", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    // Requests unsigned, so the first one reaches the seller and its challenge is what is refused.
    expect((await ownerCall(env.testApp.app, owner, 'PATCH', `/api/v1/agents/${agent.id}/identity`, { request_signing: 'never' })).statusCode).toBe(200);
    const policy = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/policies', { name: 'No local accounts', agentId: agent.id, rules: { blockedMerchants: ['127.0.0.1'] } });
    expect(policy.statusCode, policy.body).toBe(201);
    await expectRefusedUnsigned(agent, '/account', 'blocks the host 127.0.0.1');
  });

  it("refuses a sign-in on a chain other than Purser's", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    await expectRefusedUnsigned(agent, '/mainnet-account', 'eip155:1 (eip191)');
  });
});

describe('a seller that sells once and lets the buyer back in by signing in', () => {
  it('is paid on the first call (signed in, then paid with the proof along) and lets the agent in on the second by its sign-in alone', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const before = await balances(agent);

    await env.runWorker(async () => {
      const { result: first, seen: firstSeen } = await seenDuring(() => fetchThroughPurser(agent, '/report'));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ status: 200, payment: { status: 'processing' } });
      await intentReaches(prisma, (first.body as { payment: { intent_id: string } }).payment.intent_id, 'settled');
      // Not yet a buyer: the sign-in alone does not let it in; the payment carries the proof along.
      // Every request carries the agent's HTTP signature too.
      expect(firstSeen.map(({ signIn, paid, signed }) => ({ signedIn: signIn !== null, paid, signed }))).toEqual([
        { signedIn: false, paid: false, signed: true },
        { signedIn: true, paid: false, signed: true },
        { signedIn: true, paid: true, signed: true },
      ]);
      expect(await balances(agent)).toEqual({ ledger: before.ledger - SIGN_IN_SELLER_PRICE, onChain: before.onChain - SIGN_IN_SELLER_PRICE, seller: before.seller + SIGN_IN_SELLER_PRICE });
      expect(seller.events).toContainEqual({ type: 'payment_recorded', resource: '/report', address: expect.stringMatching(new RegExp(`^${agent.address}$`, 'i')) });

      const { result: second, seen: secondSeen } = await seenDuring(() => fetchThroughPurser(agent, '/report'));
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({ status: 200, payment: null });
      expect(contentOf(second.body)).toEqual({ path: '/report', content: 'yours' });
      expect(secondSeen.map(({ signIn, paid }) => ({ signedIn: signIn !== null, paid }))).toEqual([
        { signedIn: false, paid: false },
        { signedIn: true, paid: false },
      ]);
    });

    // One payment, once; two sign-ins.
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(1);
    expect(await balances(agent)).toEqual({ ledger: before.ledger - SIGN_IN_SELLER_PRICE, onChain: before.onChain - SIGN_IN_SELLER_PRICE, seller: before.seller + SIGN_IN_SELLER_PRICE });
    expect(await signInsOf(agent)).toHaveLength(2);
    await expectLedgerConsistent(prisma);
  });
});
