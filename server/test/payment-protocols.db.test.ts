/**
 * The owner sees which protocol a paid call was paid in, x402 or MPP, on a real database (both
 * engines): the payment list names it and filters by it (REST and tRPC, with the cursor), one
 * payment in full shows an MPP payment's challenge, credential (decoded, never its signature)
 * and the seller's receipt, and the payment webhooks carry it. The MPP messages are made by
 * mppx itself: a challenge as an mppx seller writes it, a credential signed by mppx's EVM client
 * (no chain is called: signing is local).
 */
import { randomUUID } from 'node:crypto';
import { Challenge, Expires, evm } from 'mppx';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentListView, PaymentDetailView, WebhookDeliveryDetailView } from '@purser/core';
import type { Prisma, PrismaClient } from '@purser/db';
import { getIntent } from '../src/services/intents/get-intent';
import { chargeRequirement } from '../src/services/paid-calls/mpp/charge-requirement';
import { readChargeOffers, type MppChallenge } from '../src/services/paid-calls/mpp/payment-challenge';
import { signChargeCredential } from '../src/services/paid-calls/mpp/payment-credential';
import { decodePaymentHeader, exactPayload } from '../src/services/paid-calls/x402/payment-header';
import { emitPaymentEvent } from '../src/services/webhooks/emit-payment-event';
import { intentsRouter } from '../src/trpc/intents/router';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

const USDC = getAddress('0x036CbD53842c5426634e7929541eC2318f3dCF7e');
const SELLER = getAddress('0x2222222222222222222222222222222222222222');
const CHAIN_ID = 84532;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const minutes = (n: number) => new Date(T0 + n * 60_000);

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let agentId: string;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Protocol Owner');
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name: 'Paid caller' } });
  expect(created.statusCode, created.body).toBe(201);
  agentId = (created.json() as { agent: { id: string } }).agent.id;
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

function get(url: string) {
  return t.app.inject({ method: 'GET', url, headers: owner.headers });
}

const caller = () => intentsRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: owner.userId, via: 'session' } });

/** A challenge as an mppx seller writes it (its id the HMAC of the rest under the seller's key). */
function sellerChallenge(): MppChallenge {
  return Challenge.fromMethod(evm.charge, {
    realm: 'headlines.seller.test',
    secretKey: 'a-seller-secret-of-at-least-32-bytes!!',
    expires: Expires.minutes(5),
    request: { amount: '0.01', chainId: CHAIN_ID, currency: USDC, decimals: 6, recipient: SELLER, description: 'Headlines' },
  } as never) as MppChallenge;
}

/** As the x402 endpoints keep a paid call: over MPP, the challenge beside the requirement read from it. */
function paidCallMetadata(challenge?: MppChallenge): Prisma.InputJsonObject {
  const x402 = challenge
    ? { x402_version: 2, requirement: chargeRequirement(readChargeOffers([challenge])[0]!), url_fetched: true, protocol: 'mpp', mpp: { challenge } }
    : { x402_version: 2, requirement: { scheme: 'exact', network: 'eip155:84532', asset: USDC, amount: '10000', payTo: SELLER, maxTimeoutSeconds: 60 }, url_fetched: true };
  return JSON.parse(JSON.stringify({ url: 'https://seller.test/paid', network: 'eip155:84532', x402 })) as Prisma.InputJsonObject;
}

interface Row {
  createdAt: Date;
  rail: 'ledger' | 'x402_base' | 'card';
  purpose: string;
  metadata?: Prisma.InputJsonObject;
  status?: 'settled' | 'failed' | 'created';
}

async function insertIntents(rows: Row[]): Promise<string[]> {
  const data = rows.map((row) => {
    const id = randomUUID();
    return {
      id,
      ownerId: owner.userId,
      agentId,
      createdBy: 'agent' as const,
      amount: 10_000n,
      currency: 'USDC' as const,
      purpose: row.purpose,
      metadata: row.metadata ?? {},
      status: row.status ?? 'settled',
      rail: row.rail,
      workflowId: `payment-${id}`,
      idempotencyKey: `auto:${id}`,
      requestHash: 'test',
      createdAt: row.createdAt,
    };
  });
  await prisma.paymentIntent.createMany({ data });
  return data.map((row) => row.id);
}

describe('the payment list by protocol', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const fixture: Array<[string, Row]> = [
      ['mppOld', { createdAt: minutes(1), rail: 'x402_base', purpose: 'Headlines (MPP)', metadata: paidCallMetadata(sellerChallenge()) }],
      ['x402', { createdAt: minutes(2), rail: 'x402_base', purpose: 'Weather (x402)', metadata: paidCallMetadata() }],
      ['ledger', { createdAt: minutes(3), rail: 'ledger', purpose: 'Ledger payment' }],
      // An owner's intent may carry any metadata: one that looks like an MPP paid call is still no paid call.
      ['lookalike', { createdAt: minutes(4), rail: 'card', purpose: 'Card with MPP-looking metadata', metadata: { x402: { protocol: 'mpp' } } }],
      ['mppFailed', { createdAt: minutes(5), rail: 'x402_base', purpose: 'FX rate (MPP)', metadata: paidCallMetadata(sellerChallenge()), status: 'failed' }],
      // An x402 paid call without the requirement kept (made before the metadata had one) is x402.
      ['x402Bare', { createdAt: minutes(6), rail: 'x402_base', purpose: 'Old x402 call' }],
    ];
    const inserted = await insertIntents(fixture.map(([, row]) => row));
    fixture.forEach(([name], index) => (ids[name] = inserted[index]!));
  });

  const named = (...names: string[]) => names.map((name) => ids[name]!);

  async function listed(query: string): Promise<IntentListView['intents']> {
    const response = await get(`/api/v1/intents?limit=100${query ? `&${query}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as IntentListView).intents;
  }

  it('names the protocol of each paid call, and none for any other payment', async () => {
    const intents = await listed('');
    expect(intents.map((intent) => [intent.id, intent.protocol])).toEqual([
      [ids.x402Bare, 'x402'],
      [ids.mppFailed, 'mpp'],
      [ids.lookalike, null],
      [ids.ledger, null],
      [ids.x402, 'x402'],
      [ids.mppOld, 'mpp'],
    ]);
  });

  it('filters paid calls by protocol, over REST and tRPC, leaving every other payment out', async () => {
    expect((await listed('protocol=mpp')).map((intent) => intent.id)).toEqual(named('mppFailed', 'mppOld'));
    expect((await listed('protocol=x402')).map((intent) => intent.id)).toEqual(named('x402Bare', 'x402'));
    expect((await caller().list({ protocol: 'mpp', status: 'settled' })).intents.map((intent) => intent.id)).toEqual(named('mppOld'));
    expect((await caller().list({ protocol: 'x402', rail: 'card' })).intents).toEqual([]);
  });

  it('pages a list filtered by protocol with the cursor', async () => {
    const first = await caller().list({ protocol: 'mpp', limit: 1 });
    expect(first.intents.map((intent) => intent.id)).toEqual(named('mppFailed'));
    const second = await caller().list({ protocol: 'mpp', limit: 1, cursor: first.nextCursor! });
    expect(second.intents.map((intent) => intent.id)).toEqual(named('mppOld'));
    expect(second.nextCursor).toBeNull();
  });

  it('refuses an unknown protocol with VALIDATION_FAILED, and documents the filter', async () => {
    const response = await get('/api/v1/intents?protocol=lightning');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'protocol must be one of x402, mpp' } });
    const document = (await get('/api/v1/openapi.json')).json() as { paths: Record<string, { get: { parameters: { name: string; in: string; schema?: { enum?: string[] } }[] } }> };
    const parameter = document.paths['/intents']!.get.parameters.find((candidate) => candidate.name === 'protocol');
    expect(parameter).toMatchObject({ in: 'query', schema: { enum: ['x402', 'mpp'] } });
  });
});

describe('one MPP payment in full', () => {
  const payer = privateKeyToAccount(generatePrivateKey());
  const transactionHash = `0x${'cd34'.repeat(16)}`;
  const receipt = { method: 'evm', status: 'success', reference: transactionHash, timestamp: '2026-12-06T07:40:00.000Z', confirmed: true };
  let challenge: MppChallenge;
  let credential: string;
  let mppId: string;
  let x402Id: string;

  beforeAll(async () => {
    challenge = sellerChallenge();
    credential = await signChargeCredential(payer, challenge, { name: 'USDC', version: '2', chainId: CHAIN_ID, currency: USDC });
    [mppId = '', x402Id = ''] = await insertIntents([
      { createdAt: new Date(), rail: 'x402_base', purpose: 'Headlines', metadata: paidCallMetadata(challenge) },
      { createdAt: new Date(), rail: 'x402_base', purpose: 'Weather', metadata: paidCallMetadata() },
    ]);
    const { authorization } = exactPayload(decodePaymentHeader(credential));
    // As the front keeps a settled MPP call: the credential sent and the seller's receipt, checked against the chain.
    await prisma.railOperation.create({
      data: {
        paymentIntentId: mppId,
        rail: 'x402_base',
        reference: authorization.nonce,
        status: 'settled',
        sandbox: true,
        settledAt: new Date(),
        details: { scheme: 'exact', network: 'eip155:84532', payer: payer.address, paymentHeader: credential, validBefore: authorization.validBefore, transactionHash, mppReceipt: receipt },
      },
    });
  });

  it('shows the protocol, the seller’s challenge, the credential sent, decoded, and the seller’s receipt', async () => {
    const response = await get(`/api/v1/intents/${mppId}/detail`);
    expect(response.statusCode, response.body).toBe(200);
    const { intent, rail } = response.json() as PaymentDetailView;
    const { authorization } = exactPayload(decodePaymentHeader(credential));
    expect(intent.protocol).toBe('mpp');
    expect(rail).toMatchObject({ rail: 'x402-base', protocol: 'mpp', transactionHash });
    expect(rail!.mpp).toEqual({
      challenge: {
        id: challenge.id,
        realm: 'headlines.seller.test',
        method: 'evm',
        intent: 'charge',
        expires: challenge.expires,
        request: { amount: '0.01', currency: USDC, recipient: SELLER, chainId: CHAIN_ID, description: 'Headlines' },
      },
      credential: {
        challengeId: challenge.id,
        from: payer.address,
        to: SELLER,
        value: '0.01',
        validAfter: new Date(0).toISOString(),
        // Valid until the challenge expires, to the second.
        validBefore: new Date(Math.floor(Date.parse(challenge.expires!) / 1000) * 1000).toISOString(),
        nonce: authorization.nonce,
      },
      receipt,
    });
    // The same authorisation as an x402 payment shows it, for whoever reads the rail without the protocol.
    expect(rail!.authorization).toMatchObject({ scheme: 'exact', from: payer.address, to: SELLER, value: '0.01', nonce: authorization.nonce });
  });

  it('never answers the credential or its signature', async () => {
    const text = (await get(`/api/v1/intents/${mppId}/detail`)).body;
    const { signature } = exactPayload(decodePaymentHeader(credential));
    expect(text).not.toContain(signature.slice(2));
    expect(text).not.toContain(credential.replace(/^Payment\s+/, ''));
    expect(text.replaceAll('"requestSignature"', '')).not.toMatch(/signature|paymentHeader|payload/i);
  });

  it('says x402 for an x402 payment, with no MPP part', async () => {
    const detail = await caller().detail({ intentId: x402Id });
    expect(detail.intent.protocol).toBe('x402');
    // No rail operation yet: the intent still names its protocol.
    expect(detail.rail).toBeNull();
  });
});

describe('payment webhooks', () => {
  it('carry the protocol a paid call was paid in, and null for any other payment', async () => {
    const endpoint = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: owner.headers, payload: { url: 'https://hooks.example.com/protocols' } });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const [mpp, x402, ledger] = await insertIntents([
      { createdAt: new Date(), rail: 'x402_base', purpose: 'Hooked MPP call', metadata: paidCallMetadata(sellerChallenge()), status: 'created' },
      { createdAt: new Date(), rail: 'x402_base', purpose: 'Hooked x402 call', metadata: paidCallMetadata(), status: 'created' },
      { createdAt: new Date(), rail: 'ledger', purpose: 'Hooked ledger payment', status: 'created' },
    ]);
    const sent: Record<string, unknown> = {};
    for (const intentId of [mpp!, x402!, ledger!]) {
      // As the payment's steps emit it: the intent as it is when the event happens.
      const intent = await getIntent(prisma, owner.userId, intentId);
      const { deliveryIds } = await prisma.$transaction((tx) => emitPaymentEvent(tx, { ownerId: owner.userId, intentId, type: 'intent.created', intent }));
      expect(deliveryIds).toHaveLength(1);
      const delivery = await get(`/api/v1/webhook-deliveries/${deliveryIds[0]}`);
      expect(delivery.statusCode, delivery.body).toBe(200);
      const { data } = (delivery.json() as WebhookDeliveryDetailView).payload;
      const sentIntent = data.intent as { id: string; protocol: unknown };
      expect(sentIntent.id).toBe(intentId);
      sent[intentId] = sentIntent.protocol;
    }
    expect(sent).toEqual({ [mpp!]: 'mpp', [x402!]: 'x402', [ledger!]: null });
  });
});
