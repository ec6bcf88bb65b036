/**
 * The kill switch against payments in flight (issue 38, item 3). Every transaction that
 * authorises, holds or records what an agent signed takes the agent's row lock
 * (intents/lock-paying-agent.ts), as the suspension does, so the two serialize: a payment that
 * committed first is in the suspension's sweep, and one that comes after is refused.
 *
 * 50 paid calls of one agent race the owner's "Pause all agents": in the owner's audit chain
 * nothing of that agent is created, authorised or held after its pause entry, no authorisation it
 * signed is still redeemable on chain once the pause has returned, and the ledger equals the chain.
 */
import { parseAbi, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { recordWhileActive } from '../src/services/paid-calls/front/record-while-active';
import { recordOperationOnce } from '../src/services/rail-operations/operation-record';
import { sweepSuspendedAgentAuthorizations } from '../src/services/agents/sweep-suspended-authorizations';
import { insertIntentRow } from './support/intent-rows';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, signedOperations } from './support/x402-fixtures';

const CALLS = 50;
const PRICE = 10_000n; // the sandbox weather API, $0.01
const AUTHORIZATION_STATE = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 100_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

const TERMINAL = ['settled', 'failed', 'blocked', 'rejected', 'expired', 'cancelled'];

/** The chain says whether an EIP-3009 authorisation can still be redeemed: false once it was used or cancelled. */
async function stillRedeemable(payer: Address, nonce: Hex): Promise<boolean> {
  const block = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  const used = await chain.publicClient.readContract({ address: chain.info.usdcAddress as Address, abi: AUTHORIZATION_STATE, functionName: 'authorizationState', args: [payer, nonce], blockNumber: block });
  return !used;
}

describe('the kill switch against payments in flight', () => {
  it(`${CALLS} paid calls of one agent racing "Pause all agents": nothing of the agent is authorised after the pause, and nothing it signed outlives it on chain`, async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 2 });
    const seller = chain.sandboxSeller!;
    const before = { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(seller) };

    const outcomes = await env.runWorker(async () => {
      const calls = Array.from({ length: CALLS }, (_, index) => agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${appUrl}/sandbox/paid/weather?city=c${index}` }));
      // The switch is pulled while the calls are being paid: once a few intents exist.
      await expect.poll(() => prisma.paymentIntent.count({ where: { agentId: agent.id } }), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(3);
      const paused = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/agents/pause-all', {});
      expect(paused.statusCode, paused.body).toBe(200);
      // Once the switch answered, nothing the agent signed may still be redeemed.
      for (const operation of await signedOperations(prisma, agent.id)) {
        const nonce = (operation.details as { nonce?: Hex }).nonce;
        if (operation.status === 'pending' && nonce) expect(await stillRedeemable(agent.address, nonce), `intent ${operation.paymentIntentId}`).toBe(false);
      }
      const answers = await Promise.all(calls);
      // Every intent of the agent reaches its end: settled (paid before the pause) or released.
      await expect
        .poll(async () => (await prisma.paymentIntent.findMany({ where: { agentId: agent.id }, select: { status: true } })).every((intent) => TERMINAL.includes(intent.status)), { timeout: 120_000 })
        .toBe(true);
      return answers;
    });

    // Each call was paid or refused with a clear code: never a server error.
    for (const outcome of outcomes) {
      if (outcome.status !== 200) expect(outcome.body.error?.code, JSON.stringify(outcome.body)).toMatch(/^(AGENT_SUSPENDED|POLICY_VIOLATION|PAYMENT_DECLINED|UPSTREAM_ERROR)$/);
    }
    const paidCalls = outcomes.filter((outcome) => outcome.status === 200 && outcome.body.status === 200).length;
    const refused = outcomes.filter((outcome) => outcome.body.error?.code === 'AGENT_SUSPENDED').length;
    expect(paidCalls + refused).toBeGreaterThan(0);

    // The owner's audit chain: nothing of this agent's payments after its pause entry.
    const chainId = `owner:${owner.userId}`;
    const pause = await prisma.auditEvent.findFirstOrThrow({ where: { chainId, action: 'agent.kill_switch_paused', subject: `agent:${agent.id}` }, select: { chainSeq: true } });
    const intents = (await prisma.paymentIntent.findMany({ where: { agentId: agent.id }, select: { id: true } })).map((intent) => `payment_intent:${intent.id}`);
    const authorisedAfter = await prisma.auditEvent.findMany({
      where: { chainId, subject: { in: intents }, chainSeq: { gt: pause.chainSeq }, action: { in: ['payment_intent.created', 'payment_intent.approved', 'payment_intent.processing'] } },
      select: { action: true, subject: true },
    });
    expect(authorisedAfter).toEqual([]);

    // Nothing the agent signed is redeemable now: each authorisation was redeemed or cancelled.
    const signed = await signedOperations(prisma, agent.id);
    for (const operation of signed) {
      const nonce = (operation.details as { nonce?: Hex }).nonce;
      if (nonce) expect(await stillRedeemable(agent.address, nonce), `intent ${operation.paymentIntentId}`).toBe(false);
    }
    // The ledger moved what the chain moved: the seller got exactly the settled payments.
    const settled = await prisma.paymentIntent.count({ where: { agentId: agent.id, status: 'settled' } });
    const after = { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(seller) };
    expect(before.ledger - after.ledger).toBe(BigInt(settled) * PRICE);
    expect(before.onChain - after.onChain).toBe(BigInt(settled) * PRICE);
    expect(after.seller - before.seller).toBe(BigInt(settled) * PRICE);
    await expectLedgerConsistent(prisma);
  }, 300_000);

  it('drops what was signed for an agent suspended while it signed: the refusal is recorded, never the signature', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const intentId = await insertIntentRow(prisma, { ownerId: owner.userId, agentId: agent.id, amount: PRICE, status: 'processing', rail: 'x402_base' });
    const signedDetails = { scheme: 'exact', nonce: `0x${'01'.repeat(32)}`, paymentHeader: 'the signed header' };
    const { operation, created: recorded } = await recordOperationOnce(
      prisma,
      { name: 'x402-base', sandbox: true },
      intentId,
      async () => {
        // The suspension commits while the agent's payment is being signed.
        await prisma.agent.update({ where: { id: agent.id }, data: { status: 'suspended' } });
        return { reference: 'signed', status: 'pending' as const, details: signedDetails };
      },
      { recordIn: recordWhileActive(agent.id, intentId, { network: chain.info.network, payer: agent.address }) },
    );
    expect(recorded).toBe(true);
    expect(operation).toMatchObject({ status: 'declined', declineCode: 'agent_not_active' });
    expect(JSON.stringify(operation.details)).not.toContain('paymentHeader');
  });

  it('sweeps again what a suspension left pending (its process died before its own sweep)', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const seller = chain.sandboxSeller!;
    const before = await chain.usdcBalanceOf(seller);
    // A signed payment the seller has not redeemed yet: requirements, then a signed header kept unused.
    const offer = await agentCall(appUrl, agent, 'POST', '/x402/requirements', { url: `${appUrl}/sandbox/paid/weather` });
    expect(offer.status, JSON.stringify(offer.body)).toBe(200);
    const signed = await env.runWorker(() => agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement: offer.body.recommended, x402_version: 2 }));
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const [operation] = await signedOperations(prisma, agent.id);
    const nonce = (operation!.details as { nonce: Hex }).nonce;
    expect(await stillRedeemable(agent.address, nonce)).toBe(true);

    // Suspended in the database, and nothing else: the sweep that follows a suspension never ran.
    await prisma.agent.update({ where: { id: agent.id }, data: { status: 'suspended' } });
    expect(await sweepSuspendedAgentAuthorizations(env.testApp.deps, { olderThanMs: 0 })).toContain(agent.id);
    expect(await stillRedeemable(agent.address, nonce)).toBe(false);
    await env.runWorker(() => expect.poll(async () => (await prisma.paymentIntent.findUniqueOrThrow({ where: { id: operation!.paymentIntentId }, select: { status: true } })).status, { timeout: 60_000 }).toBe('failed'));
    expect(await chain.usdcBalanceOf(seller)).toBe(before);
    await expectLedgerConsistent(prisma);
  }, 180_000);
});
