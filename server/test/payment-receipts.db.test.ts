/**
 * Payment receipts on a real database (both engines): a settled payment's receipt, read by its
 * owner (GET /api/v1/intents/{id}/receipt, intents.receipt) and by the agent that paid
 * (GET /functions/v1/mcp-server/payment/{id}/receipt), verifies with jose against the keys the
 * app publishes at /.well-known/jwt-vc-issuer, and states the payment's facts; a changed claim
 * or another key fails; an unsettled payment has none; nobody else's payment is found. No
 * workflow runs: the ledger payment is taken through the engine's own steps.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_NOT_SETTLED_MESSAGE, PAYMENT_RECEIPT_TYP, paymentReceiptClaims, type PaymentReceiptView } from '@purser/core';
import type { Prisma, PrismaClient } from '@purser/db';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { authorizePayment } from '../src/services/payments/authorize-payment';
import { issuePaymentReceipt } from '../src/services/payments/issue-payment-receipt';
import { executeOnRail } from '../src/services/payments/rail-steps';
import { capturePayment } from '../src/services/payments/settle-payment';
import { createRails } from '../src/services/rails/create-rails';
import { intentsRouter } from '../src/trpc/intents/router';
import { agentLedgerUsdc } from './support/paying-agents';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

const PAYEE = `0x${'5e11e7'.repeat(6)}abcd`;
const TRANSACTION_HASH = `0x${'ab12'.repeat(16)}`;
const RESOURCE = 'https://api.example.com/weather';

interface TestAgent {
  id: string;
  did: string;
  key: string;
}

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let stranger: SignedUpOwner;
let payer: TestAgent;
let sibling: TestAgent;
/** The JWKS as the app publishes it, read over HTTP: never taken from the service. */
let jwks: ReturnType<typeof createLocalJWKSet>;
let issuer: string;

let ledgerPaymentId: string;
let x402PaymentId: string;
let ownerPaymentId: string;
let processingId: string;

async function createAgent(name: string): Promise<TestAgent> {
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name } });
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json() as { agent: { id: string; did: string }; api_key: { key: string } };
  return { id: body.agent.id, did: body.agent.did, key: body.api_key.key };
}

async function insertIntent(row: {
  agentId: string;
  createdBy: 'owner' | 'agent';
  status: 'created' | 'processing' | 'settled';
  rail?: 'ledger' | 'x402_base';
  amount: bigint;
  merchant?: string;
  metadata?: Prisma.InputJsonObject;
  settledAt?: Date;
}): Promise<string> {
  const id = randomUUID();
  await prisma.paymentIntent.create({
    data: {
      id,
      ownerId: owner.userId,
      agentId: row.agentId,
      createdBy: row.createdBy,
      amount: row.amount,
      currency: 'USDC',
      purpose: 'Receipt test',
      merchant: row.merchant ?? null,
      toAddress: PAYEE,
      metadata: row.metadata ?? {},
      status: row.status,
      rail: row.rail ?? 'ledger',
      settledAt: row.settledAt ?? null,
      workflowId: `payment-${id}`,
      idempotencyKey: `auto:${id}`,
      requestHash: 'test',
    },
  });
  return id;
}

const ownerReceipt = (intentId: string, as: SignedUpOwner = owner) =>
  t.app.inject({ method: 'GET', url: `/api/v1/intents/${intentId}/receipt`, headers: as.headers });

const agentReceipt = (intentId: string, as: TestAgent = payer) =>
  t.app.inject({ method: 'GET', url: `/functions/v1/mcp-server/payment/${intentId}/receipt`, headers: { 'x-agent-did': as.did, authorization: `Bearer ${as.key}` } });

function intentsCaller(as: SignedUpOwner) {
  return intentsRouter.createCaller({ ...t.deps, requestId: 'test', owner: { userId: as.userId, via: 'session' } });
}

async function receiptOf(intentId: string): Promise<PaymentReceiptView> {
  const response = await ownerReceipt(intentId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as PaymentReceiptView;
}

function verify(receipt: string) {
  return jwtVerify(receipt, jwks, { issuer, typ: PAYMENT_RECEIPT_TYP, algorithms: ['EdDSA'] });
}

/** The receipt with its payload replaced, the original signature kept. */
function withPayload(receipt: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = receipt.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Receipt Owner');
  stranger = await signUpTestOwner(t.app, prisma, 'Stranger');

  const metadata = await t.app.inject({ method: 'GET', url: '/.well-known/jwt-vc-issuer' });
  expect(metadata.statusCode, metadata.body).toBe(200);
  const published = metadata.json() as { issuer: string; jwks: JSONWebKeySet };
  issuer = published.issuer;
  jwks = createLocalJWKSet(published.jwks);

  const topUp = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/top-up', headers: owner.headers, payload: { amount: 100 } });
  expect(topUp.statusCode, topUp.body).toBe(200);
  payer = await createAgent('Receipt payer');
  sibling = await createAgent('Sibling');
  const funded = await t.app.inject({ method: 'POST', url: '/api/v1/wallet/fund-agent', headers: owner.headers, payload: { agent_id: payer.id, amount: 20 } });
  expect(funded.statusCode, funded.body).toBe(200);

  // A ledger payment the agent made, taken through the engine's steps: hold, rail, capture.
  ledgerPaymentId = await insertIntent({ agentId: payer.id, createdBy: 'agent', status: 'created', amount: 2_500_000n, merchant: 'Weather Co' });
  const rails = createRails({ prisma });
  await authorizePayment({ prisma, rails, startDeliveries: async () => {}, log: () => {} }, ledgerPaymentId);
  await executeOnRail(prisma, rails, ledgerPaymentId);
  await capturePayment(prisma, ledgerPaymentId);

  // An x402 payment redeemed on chain, its operation as the rail records it (no money moves here).
  x402PaymentId = await insertIntent({
    agentId: payer.id,
    createdBy: 'agent',
    status: 'settled',
    rail: 'x402_base',
    amount: 10_000n,
    merchant: 'api.example.com',
    settledAt: new Date('2026-03-01T12:00:00.123Z'),
    metadata: {
      url: RESOURCE,
      network: 'eip155:84532',
      x402: { x402_version: 1, requirement: { scheme: 'exact', network: 'base-sepolia', resource: RESOURCE, payTo: PAYEE }, resource: { url: RESOURCE } },
    },
  });
  await prisma.railOperation.create({
    data: {
      paymentIntentId: x402PaymentId,
      rail: 'x402_base',
      reference: `0x${'cd34'.repeat(16)}`,
      status: 'settled',
      sandbox: true,
      settledAt: new Date('2026-03-01T12:00:00.000Z'),
      details: { network: 'eip155:84532', transactionHash: TRANSACTION_HASH, paymentHeader: 'not read by receipts' },
    },
  });

  ownerPaymentId = await insertIntent({ agentId: payer.id, createdBy: 'owner', status: 'settled', amount: 1_000_000n, settledAt: new Date() });
  processingId = await insertIntent({ agentId: payer.id, createdBy: 'agent', status: 'processing', amount: 1_000_000n });
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

describe('a settled payment’s receipt', () => {
  it('moved the money it attests: the agent paid exactly 2.5 and the ledger balances', async () => {
    expect(await agentLedgerUsdc(t.app, payer)).toBe(17_500_000n);
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });

  it('verifies with jose against the published keys and states the payment’s facts', async () => {
    const view = await receiptOf(ledgerPaymentId);
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: ledgerPaymentId }, select: { settledAt: true, status: true } });
    expect(intent.status).toBe('settled');
    const settledAt = intent.settledAt!;

    const { payload, protectedHeader } = await verify(view.receipt);
    expect(protectedHeader).toEqual({ alg: 'EdDSA', typ: PAYMENT_RECEIPT_TYP, kid: view.kid });
    expect(paymentReceiptClaims.parse(payload)).toEqual({
      iss: t.deps.publicUrl,
      sub: payer.did,
      jti: ledgerPaymentId,
      iat: Math.floor(settledAt.getTime() / 1000),
      receipt: {
        intent_id: ledgerPaymentId,
        amount: '2.5',
        amount_atomic: '2500000',
        currency: 'USDC',
        rail: 'ledger',
        sandbox: false,
        to_address: PAYEE,
        merchant: 'Weather Co',
        settlement_reference: `ledger_${ledgerPaymentId}`,
        settled_at: settledAt.toISOString(),
      },
    });
    expect(view).toEqual({
      receipt: view.receipt,
      issuer: t.deps.publicUrl,
      kid: expect.any(String),
      jwks_url: `${t.deps.publicUrl}/.well-known/jwks.json`,
      issuer_metadata_url: `${t.deps.publicUrl}/.well-known/jwt-vc-issuer`,
    });
  });

  it('verifies as a third party would: jose fetching the JSON Web Key Set the deployment publishes', async () => {
    const view = await receiptOf(ledgerPaymentId);
    const served = await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const remote = createRemoteJWKSet(new URL(new URL(view.jwks_url).pathname, served));
      const { payload } = await jwtVerify(view.receipt, remote, { issuer: t.deps.publicUrl, typ: PAYMENT_RECEIPT_TYP, algorithms: ['EdDSA'] });
      expect(payload.jti).toBe(ledgerPaymentId);
      const [header, claims, signature] = view.receipt.split('.') as [string, string, string];
      const tampered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString()), receipt: { amount: '0.01' } })).toString('base64url');
      await expect(jwtVerify(`${header}.${tampered}.${signature}`, remote, { issuer: t.deps.publicUrl })).rejects.toThrow();
    } finally {
      await t.app.server.close();
    }
  });

  it('names the key it was signed with, as published at the URL it gives', async () => {
    const view = await receiptOf(ledgerPaymentId);
    const published = await t.app.inject({ method: 'GET', url: new URL(view.issuer_metadata_url).pathname });
    const keys = (published.json() as { jwks: JSONWebKeySet }).jwks.keys;
    expect(keys.map((key) => key.kid)).toContain(view.kid);
    expect(decodeProtectedHeader(view.receipt).kid).toBe(view.kid);
  });

  it('states an x402 payment’s on-chain transaction, network, resource and scheme', async () => {
    const { payload } = await verify((await receiptOf(x402PaymentId)).receipt);
    expect(paymentReceiptClaims.parse(payload)).toEqual({
      iss: t.deps.publicUrl,
      sub: payer.did,
      jti: x402PaymentId,
      iat: Math.floor(Date.parse('2026-03-01T12:00:00.123Z') / 1000),
      receipt: {
        intent_id: x402PaymentId,
        amount: '0.01',
        amount_atomic: '10000',
        currency: 'USDC',
        rail: 'x402-base',
        sandbox: true,
        to_address: PAYEE,
        merchant: 'api.example.com',
        settlement_reference: TRANSACTION_HASH,
        settled_at: '2026-03-01T12:00:00.123Z',
        x402: { resource_url: RESOURCE, scheme: 'exact', network: 'eip155:84532' },
      },
    });
    expect(JSON.stringify(payload)).not.toContain('not read by receipts');
  });

  it('is the same receipt every time and on every surface: owner REST, tRPC and the agent API', async () => {
    const first = await receiptOf(ledgerPaymentId);
    expect(await receiptOf(ledgerPaymentId)).toEqual(first);
    expect(await intentsCaller(owner).receipt({ intentId: ledgerPaymentId })).toEqual(first);
    const viaAgent = await agentReceipt(ledgerPaymentId);
    expect(viaAgent.statusCode, viaAgent.body).toBe(200);
    expect(viaAgent.json()).toEqual(first);
  });

  it('fails verification once any claim is changed', async () => {
    const { receipt } = await receiptOf(ledgerPaymentId);
    const tampered = [
      withPayload(receipt, (claims) => ((claims.receipt as Record<string, unknown>).amount = '25')),
      withPayload(receipt, (claims) => ((claims.receipt as Record<string, unknown>).to_address = `0x${'66'.repeat(20)}`)),
      withPayload(receipt, (claims) => (claims.sub = sibling.did)),
    ];
    for (const forged of tampered) {
      await expect(verify(forged)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
    }
  });

  it('fails verification when signed by another key, under the issuer’s kid or as another deployment', async () => {
    const view = await receiptOf(ledgerPaymentId);
    const { payload } = await verify(view.receipt);
    const { privateKey } = await generateKeyPair('EdDSA');
    const impostor = await new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: PAYMENT_RECEIPT_TYP, kid: view.kid }).sign(privateKey);
    await expect(verify(impostor)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });

    const elsewhere = await issuePaymentReceipt({ db: t.deps.db, masterKey: randomBytes(32), publicUrl: t.deps.publicUrl }, { ownerId: owner.userId }, ledgerPaymentId);
    expect(elsewhere.kid).not.toBe(view.kid);
    await expect(verify(elsewhere.receipt)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
  });
});

describe('who gets a receipt, and when', () => {
  it('answers CONFLICT with a stable message for a payment that has not settled, on every surface', async () => {
    const expected = { error: { code: 'CONFLICT', message: PAYMENT_NOT_SETTLED_MESSAGE } };
    for (const response of [await ownerReceipt(processingId), await agentReceipt(processingId)]) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(expected);
    }
    await expect(intentsCaller(owner).receipt({ intentId: processingId })).rejects.toMatchObject({ code: 'CONFLICT', message: PAYMENT_NOT_SETTLED_MESSAGE });
  });

  it("answers NOT_FOUND for another owner's payment, as for one that does not exist", async () => {
    for (const response of [await ownerReceipt(ledgerPaymentId, stranger), await ownerReceipt(randomUUID())]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Payment intent not found' } });
    }
    await expect(intentsCaller(stranger).receipt({ intentId: ledgerPaymentId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("answers NOT_FOUND to an agent for another agent's payment, and for one its owner made on its behalf", async () => {
    const expected = { error: { code: 'NOT_FOUND', message: 'This agent has no such payment' } };
    for (const response of [await agentReceipt(ledgerPaymentId, sibling), await agentReceipt(ownerPaymentId), await agentReceipt(randomUUID())]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(expected);
    }
    // The owner sees the receipt of a payment they made for the agent.
    await verify((await receiptOf(ownerPaymentId)).receipt);
  });

  it('documents both routes in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(document.paths['/intents/{intentId}/receipt']?.get?.operationId).toBe('getPaymentReceipt');
    expect(document.paths['/functions/v1/mcp-server/payment/{intentId}/receipt']?.get?.operationId).toBe('agentPaymentReceipt');
  });
});
