/**
 * The sandbox shortcuts on a deployment whose chain is a real network: a top-up from the
 * sandbox funding source and the sandbox KYA verifier are refused with 409 SANDBOX_ONLY on
 * every surface (REST, /functions/v1, tRPC, the services), and nothing changes: balances, the
 * ledger, idempotency records, tiers, verifications, credentials and the audit log stay as
 * they were. (The other suites run on the sandbox, where both work.)
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentInput, requestKyaEscalationInput } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { createAgent } from '../src/services/agents/create-agent';
import { requestKyaEscalation } from '../src/services/agents/request-kya-escalation';
import { verifyAuditChains } from '../src/services/audit/verify-audit-chains';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { topUpWallet } from '../src/services/wallets/top-up-wallet';
import { errorOf } from './support/errors';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { chainNotInThisTest, createTestApp, type TestApp } from './support/test-app';
import { ownerBalances } from './support/wallet-fixtures';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;

const TOP_UP_REFUSAL =
  "Top-up from the sandbox funding source works only on the sandbox chain; this deployment runs on No chain in this test (eip155:84532). Send USDC to your agents' wallet addresses instead.";
const KYA_REFUSAL =
  'The sandbox KYA verifier works only on the sandbox chain; this deployment runs on No chain in this test (eip155:84532). ' +
  'Raising a KYA tier here needs a real identity provider, which this deployment does not have.';
const MODERATE = { legal_name: 'Acme Robotics GmbH', contact_email: 'ops@acme.example', country: 'DE', registration_number: 'HRB 123456' };

beforeAll(async () => {
  t = await createTestApp({ chain: chainNotInThisTest({ sandbox: false }), sandboxPaidApi: false });
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
  // Money from before the deployment left the sandbox, so "unchanged" is not just zero.
  await topUpWallet({ ...t.deps, chain: chainNotInThisTest() }, owner.userId, { amount: 5_000_000n, currency: 'USDC' });
});

afterAll(async () => {
  await t?.cleanup();
});

function post(url: string, payload: object, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, payload, headers: { ...owner.headers, ...headers } });
}

/** Everything a top-up could have changed. */
async function moneyState() {
  return {
    balances: await ownerBalances(prisma, owner.userId),
    ledgerTransactions: await prisma.ledgerTransaction.count(),
    ledgerEntries: await prisma.ledgerEntry.count(),
    ownerTransactions: await prisma.ownerTransaction.count(),
    idempotencyRecords: await prisma.idempotencyRecord.count(),
  };
}

describe('a top-up from the sandbox funding source on a real network', () => {
  it('is refused with 409 SANDBOX_ONLY on every surface, and moves no money', async () => {
    const before = await moneyState();
    expect(before.balances.USDC).toBe(5_000_000n);

    const functions = await post('/functions/v1/top-up-wallet', { amount: 10, currency: 'USDC' });
    expect(functions.statusCode).toBe(409);
    expect(functions.json()).toEqual({ error: { code: 'SANDBOX_ONLY', message: TOP_UP_REFUSAL } });

    const rest = await post('/api/v1/wallet/top-up', { amount: 10, currency: 'USDC' }, { 'idempotency-key': 'real-network-top-up' });
    expect(rest.statusCode).toBe(409);
    expect(rest.json()).toEqual({ error: { code: 'SANDBOX_ONLY', message: TOP_UP_REFUSAL } });

    const trpc = await post('/trpc/wallet.topUp', { amount: 10, currency: 'USDT' });
    expect(trpc.statusCode).toBe(409);
    expect(trpc.json().error).toMatchObject({ message: TOP_UP_REFUSAL, data: { code: 'CONFLICT', appCode: 'SANDBOX_ONLY' } });

    const service = topUpWallet(t.deps, owner.userId, { amount: 10_000_000n, currency: 'USDC' }, { idempotencyKey: 'service-top-up' });
    expect(await errorOf(service)).toEqual({ code: 'SANDBOX_ONLY', message: TOP_UP_REFUSAL, status: 409 });

    expect(await moneyState()).toEqual(before);
    const ledger = await verifyLedger(prisma);
    expect(ledger.problems).toEqual([]);
    expect(ledger.ok).toBe(true);
  });

  it('is refused before the amount is even looked at', async () => {
    expect(await errorOf(topUpWallet(t.deps, owner.userId, { amount: 0n, currency: 'USDC' }))).toMatchObject({ code: 'SANDBOX_ONLY' });
  });
});

describe('the sandbox KYA verifier on a real network', () => {
  it('is refused with 409 SANDBOX_ONLY on every surface, recording and raising nothing', async () => {
    const { agent } = await createAgent(t.deps, owner.userId, createAgentInput.parse({ name: 'KYA on a real network' }));
    const stateOf = async () => ({
      agent: await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { kyaTier: true, verifiableCredential: true } }),
      verifications: await prisma.kyaVerification.count({ where: { agentId: agent.id } }),
      auditEvents: await prisma.auditEvent.count(),
    });
    const before = await stateOf();
    expect(before.agent.kyaTier).toBe('basic');

    const rest = await post(`/api/v1/agents/${agent.id}/kya-escalations`, { tier: 'moderate', evidence: MODERATE });
    expect(rest.statusCode).toBe(409);
    expect(rest.json()).toEqual({ error: { code: 'SANDBOX_ONLY', message: KYA_REFUSAL } });

    const trpc = await post('/trpc/agents.requestKyaEscalation', { agent_id: agent.id, tier: 'moderate', evidence: MODERATE });
    expect(trpc.statusCode).toBe(409);
    expect(trpc.json().error).toMatchObject({ message: KYA_REFUSAL, data: { code: 'CONFLICT', appCode: 'SANDBOX_ONLY' } });

    const input = requestKyaEscalationInput.parse({ agent_id: agent.id, tier: 'moderate', evidence: MODERATE });
    expect(await errorOf(requestKyaEscalation(t.deps, owner.userId, input))).toEqual({ code: 'SANDBOX_ONLY', message: KYA_REFUSAL, status: 409 });

    expect(await stateOf()).toEqual(before);
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
  });
});
