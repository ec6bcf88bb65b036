/**
 * Which offer an agent pays when a seller's 402 speaks both protocols (front/choose-offer.ts):
 * each priced the same way, bounded by max_amount, then the owner's `preferredProtocol`, else the
 * cheaper, x402 on a tie. The MPP challenges are written by mppx's own code; the x402 offers are
 * PAYMENT-REQUIRED's as @x402/core reads them. Nothing here is held or signed.
 */
import { Challenge, Expires, evm } from 'mppx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { AuthenticatedAgent } from '../src/services/agents/authenticate-agent';
import { chooseOffer, type SellerOffers } from '../src/services/paid-calls/front/choose-offer';
import type { X402Deps } from '../src/services/paid-calls/front/x402-deps';
import type { MppChallenge } from '../src/services/paid-calls/mpp/payment-challenge';
import type { PaymentRequiredInfo } from '../src/services/paid-calls/x402/payment-required';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const SELLER = '0x1111111111111111111111111111111111111111';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Offers Owner');
});

afterAll(async () => {
  await t?.cleanup();
});

async function newAgent(): Promise<AuthenticatedAgent> {
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name: `Agent ${Math.random().toString(36).slice(2, 8)}` } });
  expect(created.statusCode, created.body).toBe(201);
  const { agent } = created.json() as { agent: { id: string; did: string } };
  return { agentId: agent.id, did: agent.did, ownerId: owner.userId, apiKeyId: 'unused', kyaTier: 'pseudonymous' };
}

function x402(amount: string, network = 'eip155:84532'): PaymentRequiredInfo {
  return {
    x402Version: 2,
    resource: { url: 'https://seller.test/forecast', description: 'Forecast', mimeType: 'application/json' },
    accepts: [{ scheme: 'exact', network, amount, asset: USDC, payTo: SELLER, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } }],
  } as PaymentRequiredInfo;
}

function mpp(amount: string): MppChallenge {
  return Challenge.fromMethod(evm.charge, {
    realm: 'seller.test',
    secretKey: 'a-seller-secret-of-at-least-32-bytes!!',
    expires: Expires.minutes(4),
    request: { amount, chainId: 84532, currency: USDC, decimals: 6, recipient: SELLER },
  } as never) as MppChallenge;
}

function choose(agent: AuthenticatedAgent, offers: SellerOffers, maxAmount?: bigint) {
  return chooseOffer(t.deps as unknown as X402Deps, agent, offers, null, maxAmount);
}

describe('a seller offering both protocols', () => {
  it('is paid in the cheaper one, x402 on a tie', async () => {
    const agent = await newAgent();
    expect((await choose(agent, { x402: x402('20000'), mpp: [mpp('0.01')] })).protocol).toBe('mpp');
    expect((await choose(agent, { x402: x402('10000'), mpp: [mpp('0.02')] })).protocol).toBe('x402');
    expect((await choose(agent, { x402: x402('10000'), mpp: [mpp('0.01')] })).protocol).toBe('x402');
  });

  it('is paid in the protocol the owner’s policy prefers, even when the other is cheaper; the agent’s own policy over the owner-wide one', async () => {
    const agent = await newAgent();
    const policy = (name: string, rules: object, agentId?: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/policies', headers: owner.headers, payload: { name, rules, ...(agentId ? { agentId } : {}) } });
    expect((await policy(`Everyone x402 ${agent.agentId}`, { preferredProtocol: 'x402' })).statusCode).toBe(201);
    expect((await choose(agent, { x402: x402('20000'), mpp: [mpp('0.01')] })).protocol).toBe('x402');
    expect((await policy(`This agent MPP ${agent.agentId}`, { preferredProtocol: 'mpp' }, agent.agentId)).statusCode).toBe(201);
    expect((await choose(agent, { x402: x402('10000'), mpp: [mpp('0.02')] })).protocol).toBe('mpp');
    // A shadow policy is reported, never enforced: it chooses nothing.
    const other = await newAgent();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/policies', headers: owner.headers, payload: { name: `Shadow ${other.agentId}`, agentId: other.agentId, rules: { preferredProtocol: 'mpp' }, shadow: true } })).statusCode).toBe(201);
    await prisma.policy.deleteMany({ where: { ownerId: owner.userId, agentId: null } });
    expect((await choose(other, { x402: x402('10000'), mpp: [mpp('0.02')] })).protocol).toBe('x402');
  });

  it('is paid in the one within max_amount, or the one Purser can pay, whatever the preference', async () => {
    const agent = await newAgent();
    expect((await choose(agent, { x402: x402('10000'), mpp: [mpp('0.5')] }, 20_000n)).protocol).toBe('x402');
    expect((await choose(agent, { x402: x402('10000', 'eip155:1'), mpp: [mpp('0.02')] })).protocol).toBe('mpp');
  });

  it('refuses with the first offer’s reason when none can be paid', async () => {
    const agent = await newAgent();
    await expect(choose(agent, { x402: x402('2000000'), mpp: [mpp('3')] }, 1_000_000n)).rejects.toMatchObject({ code: 'POLICY_VIOLATION', message: expect.stringContaining('asks 2 USDC') });
    await expect(choose(agent, { x402: x402('10000', 'eip155:1'), mpp: [] })).rejects.toMatchObject({ code: 'RAIL_UNAVAILABLE' });
    await expect(choose(agent, { x402: null, mpp: [{ ...mpp('0.01'), method: 'stripe' } as MppChallenge] })).rejects.toMatchObject({ code: 'RAIL_UNAVAILABLE', message: expect.stringContaining('MPP stripe/charge') });
  });
});
