/**
 * The SDK against a started product: the API on a real port, payments run by a worker on a real
 * Temporal dev server, PostgreSQL, the sandbox chain and its paid x402 API (the server's own
 * test support starts them). An owner signs up with an invitation as the docs describe and
 * drives every owner operation through PurserOwnerClient; an agent drives every agent
 * operation through PurserAgentClient. Every call goes through one recording fetch, and the last
 * test checks that every operation of the OpenAPI document the product serves was called.
 * Money is counted as it moves: the owner's wallet and the agent's balance after each step
 * are what the steps add up to, and the ledger verifies at the end. wrapFetch pays the sandbox
 * seller with fetch semantics, and above its default cap signs nothing and moves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAmount, toDecimalString } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { startChain, type EvmChain } from '@purser/server';
import { createInvitation, startTemporalTestEnv, verifyAuditExport, verifyLedger, type TemporalTestEnv } from '@purser/server/testing';
import {
  OPERATIONS,
  PurserAgentClient,
  PurserApiError,
  PurserOwnerClient,
  refreshSession,
  signIn,
  signUp,
  verifyWebhook,
  WebhookVerificationError,
  wrapFetch,
  x402PaymentInfo,
  X402PriceCapError,
  type AuditExportLine,
  type AuthSession,
  type CreateAgentResult,
  type Intent,
  type WebhookEndpointWithSecret,
} from '../src/index';
import { operationAt, sdkSurfaceOperations, type DocumentedOperation } from './support/openapi-operations';
import { startBytesServer, startFlakyProxy, startWebhookReceiver, type ReceivedWebhook } from './support/local-servers';

const PASSWORD = 'correct horse battery';
const DEAD = '0x000000000000000000000000000000000000dEaD';

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let appUrl: string;
let stopWorker: () => void;
let worker: Promise<void>;

/** Every request any client of this suite sent: method and path. */
const sent: Array<{ method: string; path: string }> = [];
const recordingFetch: typeof fetch = (input, init) => {
  sent.push({ method: init?.method ?? 'GET', path: new URL(String(input)).pathname });
  return fetch(input, init);
};

let session: AuthSession;
let owner: PurserOwnerClient;
let email: string;
/** What the owner's wallet and agent A hold, in atomic USDC units, as the steps add up. */
const expected = { wallet: 0n, agentA: 0n };
let agentA: CreateAgentResult;
let agentB: CreateAgentResult;
let agentClientA: PurserAgentClient;

const units = (exact: string) => parseAmount(exact, { allowZero: true });

async function walletUnits(): Promise<bigint> {
  return units((await owner.wallet.get()).balance_usdc_exact);
}

async function agentUnits(agentId: string): Promise<bigint> {
  return units((await owner.agents.get(agentId)).agent_wallets!.balance_usdc_exact);
}

async function expectBalances(): Promise<void> {
  expect(await walletUnits()).toBe(expected.wallet);
  expect(await agentUnits(agentA.agent.id)).toBe(expected.agentA);
  expect(units((await agentClientA.balance()).balances.USDC.ledger_exact)).toBe(expected.agentA);
}

function agentClient(created: { agent: { did: string }; api_key: { key: string } }, baseUrl = appUrl): PurserAgentClient {
  return new PurserAgentClient({ baseUrl, did: created.agent.did, apiKey: created.api_key.key, fetch: recordingFetch });
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const intentReaches = (intentId: string, status: Intent['status']) =>
  until(`intent ${intentId} to be ${status}`, () => owner.intents.get(intentId), (intent) => intent.status === status);

async function apiError(promise: Promise<unknown>): Promise<PurserApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PurserApiError);
  return error as PurserApiError;
}

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  // One worker for the whole suite: payments and webhook deliveries run while the tests call in.
  worker = env.runWorker(() => new Promise<void>((resolve) => (stopWorker = resolve)));
}, 300_000);

afterAll(async () => {
  stopWorker?.();
  await worker;
  await env?.close();
  await chain?.close();
});

describe('the OpenAPI document the product serves', () => {
  it('has exactly the operations of the SDK, money-moving where the SDK sends a key', async () => {
    const response = await fetch(`${appUrl}/api/v1/openapi.json`);
    const documented = sdkSurfaceOperations(await response.json());
    const sdk = Object.values(OPERATIONS).filter((operation) => operation.surface !== 'auth');
    const describeOne = (operation: { operationId: string; method: string; path: string; idempotencyKey?: boolean }) =>
      `${operation.operationId} ${operation.method} ${operation.path} ${operation.idempotencyKey === true ? 'keyed' : ''}`;
    const base = { owner: '/api/v1', agent: '/functions/v1/mcp-server', auth: '/auth/v1' } as const;
    expect(sdk.map((operation) => describeOne({ ...operation, path: `${base[operation.surface]}${operation.path}` })).sort()).toEqual(documented.map(describeOne).sort());
  });
});

describe('sessions', () => {
  it('signs up with an invitation code, signs in and refreshes, each answer a session for the owner API', async () => {
    const invitation = await createInvitation(prisma, { maxUses: 1, expiresAt: new Date(Date.now() + 3_600_000) });
    email = `sdk-${Date.now()}@example.test`;
    const connection = { baseUrl: appUrl, fetch: recordingFetch };
    const signedUp = await signUp(connection, { email, password: PASSWORD, data: { full_name: 'SDK Owner', invitation_code: invitation.code } });
    expect(signedUp).toMatchObject({ token_type: 'bearer', user: { email, user_metadata: { full_name: 'SDK Owner' } } });

    const refused = await apiError(signIn(connection, { email, password: 'wrong password' }));
    expect(refused).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const signedIn = await signIn(connection, { email, password: PASSWORD });
    expect(signedIn.user.id).toBe(signedUp.user.id);
    session = await refreshSession(connection, signedIn.refresh_token);
    expect(session.access_token).not.toBe(signedIn.access_token);
    // A function token: the client asks for it before every call, so a refreshed one is used.
    owner = new PurserOwnerClient({ baseUrl: appUrl, token: () => session.access_token, fetch: recordingFetch });
    expect(await owner.wallet.get()).toMatchObject({ user_id: session.user.id, balance_usdc: 0 });
  });
});

describe('owner API keys', () => {
  it('creates a key from the session, uses it, cannot manage keys with it, and revokes it', async () => {
    const created = await owner.apiKeys.create({ name: 'sdk test', scopes: ['read'], expires_in_days: 30 });
    expect(created.scopes).toEqual(['read']);
    expect(created.key).toMatch(/^psk_/);
    const byKey = new PurserOwnerClient({ baseUrl: appUrl, token: created.key, fetch: recordingFetch });
    expect((await byKey.wallet.get()).user_id).toBe(session.user.id);
    expect(await apiError(byKey.apiKeys.create({ name: 'from a key', scopes: ['read'], expires_in_days: 30 }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    // A read-only key: no writes (403 with the scope it lacks), and the code is one the SDK types.
    expect(await apiError(byKey.agents.pauseAll())).toMatchObject({ status: 403, code: 'API_KEY_SCOPE_MISSING' });

    const listed = await owner.apiKeys.list();
    expect(listed.api_keys.map((key) => key.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    expect((await owner.apiKeys.revoke(created.id)).revoked_at).not.toBeNull();
    const refused = await apiError(byKey.wallet.get());
    expect(refused).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(refused.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('wallet and agents', () => {
  it('tops up the wallet once per idempotency key, however often the call is sent', async () => {
    const first = await owner.wallet.topUp({ amount: 1000, currency: 'USDC' }, { idempotencyKey: 'sdk-top-up-1' });
    expect(first).toMatchObject({ funding_source: 'sandbox', transaction: { amount: 1000, currency: 'USDC' } });
    const replay = await owner.wallet.topUp({ amount: 1000, currency: 'USDC' }, { idempotencyKey: 'sdk-top-up-1' });
    expect(replay.ledger_transaction_id).toBe(first.ledger_transaction_id);
    const { data: again, response: replayed } = await owner.wallet.topUp({ amount: 1000, currency: 'USDC' }, { idempotencyKey: 'sdk-top-up-1' }).withResponse();
    expect(again.ledger_transaction_id).toBe(first.ledger_transaction_id);
    expect(replayed).toMatchObject({ status: 200, idempotentReplayed: true, idempotencyKey: 'sdk-top-up-1', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), attempts: 1 });
    expect(await apiError(owner.wallet.topUp({ amount: 5 }, { idempotencyKey: 'sdk-top-up-1' }))).toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
    await owner.wallet.topUp({ amount: '0.5' });
    expected.wallet = 1_000_500_000n;
    expect(await walletUnits()).toBe(expected.wallet);
    const transactions = await owner.wallet.transactions();
    expect(transactions.filter((transaction) => transaction.amount === 1000)).toHaveLength(1);
    expect(transactions).toHaveLength(2);
  });

  it('creates agents, lists and reads them, and funds one from the wallet', async () => {
    agentA = await owner.agents.create({ name: 'SDK agent A', description: 'Buys data', max_transaction_amount: 25, max_daily_limit: 200 });
    agentB = await owner.agents.create({ name: 'SDK agent B' });
    expect(agentA.api_key.key).toMatch(/^pak_/);
    expect(agentA.agent).toMatchObject({ status: 'active', kya_tier: 'basic', spending_rules: { max_transaction_amount: 25, max_daily_limit: 200 } });
    expect((await owner.agents.list()).map((agent) => agent.id).sort()).toEqual([agentA.agent.id, agentB.agent.id].sort());
    expect((await owner.agents.get(agentB.agent.id)).spending_rules).toMatchObject({ max_transaction_amount: 100, max_daily_limit: 1000 });

    const funded = await owner.wallet.fundAgent({ agent_id: agentA.agent.id, amount: 100 });
    expect(funded.agent_wallet).toMatchObject({ agent_id: agentA.agent.id, balance_usdc: 100 });
    expected.wallet -= 100_000_000n;
    expected.agentA = 100_000_000n;
    agentClientA = agentClient(agentA);
    await expectBalances();
    expect((await owner.agents.transactions(agentA.agent.id, { limit: 5 }))[0]).toMatchObject({ type: 'deposit', amount: 100 });
  });

  it('changes spending rules, raises the KYA tier with evidence, and verifies the credential', async () => {
    const changed = await owner.agents.updateSpendingRules(agentA.agent.id, { approval_threshold: 5 });
    expect(changed.spending_rules).toMatchObject({ approval_threshold: 5, max_transaction_amount: 25 });

    const escalated = await owner.agents.requestKyaEscalation(agentA.agent.id, {
      tier: 'moderate',
      evidence: { legal_name: 'SDK Research Ltd', contact_email: 'ops@example.test', country: 'DE', registration_number: 'HRB 12345' },
    });
    expect(escalated).toMatchObject({ verification: { status: 'verified', from_tier: 'basic', to_tier: 'moderate' }, agent: { kya_tier: 'moderate' } });
    expect((await owner.agents.kyaVerifications(agentA.agent.id)).map((verification) => verification.id)).toEqual([escalated.verification.id]);

    const credential = escalated.agent.verifiable_credential!.credential;
    expect(await owner.credentials.verify({ credential })).toMatchObject({ valid: true, revoked: false, claims: { kya_tier: 'moderate' } });
  });

  it("reads an agent's request-signing identity, changes which requests are signed, and rotates and revokes its signing key", async () => {
    const identity = await owner.agents.identity(agentB.agent.id);
    expect(identity).toMatchObject({ agent_id: agentB.agent.id, did: agentB.agent.did, request_signing: 'always', keys: [{ current: true, retires_at: null }] });
    const first = identity.keys[0]!.keyid;
    expect((await owner.agents.updateIdentity(agentB.agent.id, { request_signing: 'paid_only' })).request_signing).toBe('paid_only');
    expect(await apiError(owner.agents.updateIdentity(agentB.agent.id, { request_signing: 'sometimes' as never }))).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });

    const rotated = await owner.agents.rotateSigningKey(agentB.agent.id);
    expect(rotated.keys.map((key) => [key.current, key.keyid === first])).toEqual([[true, false], [false, true]]);
    const revoked = await owner.agents.revokeSigningKey(agentB.agent.id);
    expect(revoked.keys).toHaveLength(1);
    expect([first, rotated.keys[0]!.keyid]).not.toContain(revoked.keys[0]!.keyid);
    // The public directory the product serves now lists only the new key.
    const directory = (await (await fetch(`${appUrl}${new URL(revoked.directory_url).pathname}`)).json()) as { keys: Array<{ kid: string }> };
    expect(directory.keys.map((key) => key.kid)).toEqual([revoked.keys[0]!.keyid]);
  });

  it('suspends, reactivates, rotates the key of and deletes an agent, and its calls follow', async () => {
    const clientB = agentClient(agentB);
    expect((await clientB.info()).status).toBe('active');

    await owner.agents.suspend(agentB.agent.id);
    expect(await apiError(clientB.balance())).toMatchObject({ status: 403, code: 'AGENT_SUSPENDED' });
    expect((await owner.agents.reactivate(agentB.agent.id)).status).toBe('active');
    expect((await clientB.balance()).agent_id).toBe(agentB.agent.id);

    const rotated = await owner.agents.rotateApiKey(agentB.agent.id);
    expect(await apiError(clientB.balance())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const rotatedClient = agentClient({ agent: agentB.agent, api_key: rotated.api_key });
    expect((await rotatedClient.balance()).agent_id).toBe(agentB.agent.id);

    expect(await owner.agents.delete(agentB.agent.id)).toEqual({ id: agentB.agent.id, did: agentB.agent.did, status: 'deleted' });
    expect(await apiError(rotatedClient.balance())).toMatchObject({ status: 403, code: 'AGENT_SUSPENDED' });
    await expectBalances();
  });
});

describe('agent API', () => {
  it('reads balance and info, pays, and lists the payment among its transactions', async () => {
    const { response: metadata } = await agentClientA.info().withResponse();
    expect(metadata.rateLimit).toMatchObject({ limit: 10_000, remaining: expect.any(Number), resetSeconds: expect.any(Number) });
    expect(metadata.idempotentReplayed).toBe(false);
    const info = await agentClientA.info();
    expect(info).toMatchObject({ id: agentA.agent.id, did: agentA.agent.did, kya_tier: 'moderate', spending_rules: { approval_threshold: 5 } });
    const balance = await agentClientA.balance();
    expect(balance.balances.USDC).toMatchObject({ ledger: 100, on_chain: 100 });

    const paid = await agentClientA.pay({ amount: 1.5, to_address: DEAD, description: 'Dataset licence', category: 'data', metadata: { order: 'A-1001' } });
    expect(paid).toMatchObject({ status: 'settled', amount: 1.5, amount_exact: '1.5', rail: 'ledger' });
    expected.agentA -= 1_500_000n;
    await expectBalances();
    const { transactions, next_cursor } = await agentClientA.transactions();
    expect(transactions[0]).toMatchObject({ type: 'payment', amount: 1.5, category: 'data', metadata: { order: 'A-1001', payment_intent_id: paid.intent_id } });
    // A page at a time, with the cursor: the same transactions, newest first.
    const walked = [];
    for await (const transaction of agentClientA.transactions({ limit: 1 })) walked.push(transaction.id);
    expect(walked).toEqual(transactions.map((transaction) => transaction.id));
    expect(next_cursor).toBeNull();

    // Read back, by id and by key, without paying again.
    expect(await agentClientA.payment(paid.intent_id)).toEqual(paid);
    // Its receipt, signed by the deployment: the same bytes through the agent's and the owner's client.
    const receipt = await agentClientA.paymentReceipt(paid.intent_id);
    expect(receipt).toMatchObject({ receipt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), jwks_url: expect.stringMatching(/\/\.well-known\/jwks\.json$/) });
    expect(await owner.intents.receipt(paid.intent_id)).toEqual(receipt);
    const keyed = await agentClientA.pay({ amount: 0.25, to_address: DEAD, idempotency_key: 'sdk-read-back' });
    expected.agentA -= 250_000n;
    expect(await agentClientA.paymentByKey('sdk-read-back')).toMatchObject({ intent_id: keyed.intent_id, status: 'settled' });

    const refused = await apiError(agentClientA.pay({ amount: 30, to_address: DEAD }));
    expect(refused).toMatchObject({ status: 422, code: 'POLICY_VIOLATION' });
    expect(refused.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    // A refused payment reads back as refused: its status and failure, not an error.
    expect(await agentClientA.paymentByKey(refused.idempotencyKey!)).toMatchObject({ status: 'blocked', failure_code: expect.any(String) });
    await expectBalances();
  });

  it('pays the sandbox paid API with x402 fetch, never above max_amount', async () => {
    const weather = `${appUrl}/sandbox/paid/weather?city=Lisbon`;
    const tooCheap = await apiError(agentClientA.x402.fetch({ url: weather, max_amount: 0.001 }));
    expect(tooCheap).toMatchObject({ status: 422, code: 'POLICY_VIOLATION' });
    await expectBalances();

    const fetched = await agentClientA.x402.fetch({ url: weather, max_amount: 0.02, category: 'research' });
    expect(fetched.kind).toBe('response');
    if (fetched.kind !== 'response') return;
    expect(fetched.response.status).toBe(200);
    expect(JSON.parse(fetched.response.body)).toMatchObject({ city: 'Lisbon' });
    expect(fetched.response.payment).toMatchObject({ status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expected.agentA -= 10_000n;
    await expectBalances();
  });

  it('pays the sandbox seller through wrapFetch: a Response with the seller’s bytes, the payment behind it, and the call’s metadata', async () => {
    const fetchWithPayment = wrapFetch(recordingFetch, { agent: agentClientA, category: 'research' });
    const response = await fetchWithPayment(`${appUrl}/sandbox/paid/weather?city=Porto`);
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.url, response.headers.get('content-type')]).toEqual([200, `${appUrl}/sandbox/paid/weather?city=Porto`, expect.stringContaining('application/json')]);
    expect(await response.json()).toMatchObject({ city: 'Porto' });
    const paid = x402PaymentInfo(response)!;
    expect(paid.payment).toMatchObject({ status: 'processing', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(paid.purser).toMatchObject({ status: 200, requestId: expect.any(String), idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await prisma.paymentIntent.findUniqueOrThrow({ where: { id: paid.payment!.intentId }, select: { category: true, amount: true } })).amount).toBe(10_000n);
    expected.agentA -= 10_000n;
    await expectBalances();
  });

  it('refuses the $0.25 report above wrapFetch’s default cap of $0.10: nothing is signed, nothing moves', async () => {
    const before = {
      intents: await prisma.paymentIntent.count({ where: { agentId: agentA.agent.id } }),
      operations: await prisma.railOperation.count({ where: { paymentIntent: { agentId: agentA.agent.id } } }),
      onChain: (await agentClientA.balance()).balances.USDC.on_chain_exact,
    };
    const fetchWithPayment = wrapFetch(recordingFetch, { agent: agentClientA });
    const refused = await fetchWithPayment(`${appUrl}/sandbox/paid/report`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(X402PriceCapError);
    expect(refused).toMatchObject({ status: 422, code: 'POLICY_VIOLATION', maxAmount: '0.10', price: '0.25' });
    expect(await prisma.paymentIntent.count({ where: { agentId: agentA.agent.id } })).toBe(before.intents);
    expect(await prisma.railOperation.count({ where: { paymentIntent: { agentId: agentA.agent.id } } })).toBe(before.operations);
    expect((await agentClientA.balance()).balances.USDC.on_chain_exact).toBe(before.onChain);
    await expectBalances();
  });

  it('hands back a binary body byte for byte through the product, and pays nothing for a free one', async () => {
    const image = Uint8Array.from({ length: 4096 }, (_, index) => (index * 131 + 7) % 256);
    const server = await startBytesServer(image, 'image/png');
    try {
      const response = await wrapFetch(recordingFetch, { agent: agentClientA })(`${server.url}/chart.png`);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(image);
      expect(x402PaymentInfo(response)!.payment).toBeNull();
    } finally {
      await server.close();
    }
    await expectBalances();
  });

  it('lists the agent\'s payment channels: none until a seller asks for one, and an unknown one is not found', async () => {
    expect(await agentClientA.x402.channels()).toMatchObject({ channels: [] });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await apiError(agentClientA.x402.channel(unknown))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await apiError(agentClientA.x402.closeChannel(unknown))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('pays in three steps: requirements, sign-payment, proxy', async () => {
    const quote = `${appUrl}/sandbox/paid/quote`;
    const requirements = await agentClientA.x402.requirements({ url: quote });
    expect(requirements).toMatchObject({ payment_required: true, status: 402 });
    expect(requirements.recommended).not.toBeNull();
    await expectBalances();

    const signed = await agentClientA.x402.signPayment({ requirement: requirements.recommended!, x402_version: requirements.x402_version === 1 ? 1 : 2, url: quote, description: 'A quote' });
    expect(signed).toMatchObject({ amount: 0.005, header_name: expect.any(String), xPaymentHeader: expect.any(String) });

    const proxied = await agentClientA.x402.proxy({ url: quote, payment_header: signed.xPaymentHeader! });
    expect(proxied.status).toBe(200);
    expect(proxied.payment).toMatchObject({ intent_id: signed.intent_id, status: 'processing' });
    expected.agentA -= 5_000n;
    await expectBalances();

    // A payment header pays once.
    expect(await apiError(agentClientA.x402.proxy({ url: quote, payment_header: signed.xPaymentHeader! }))).toMatchObject({ status: 409, code: 'CONFLICT' });
  });
});

describe('policies', () => {
  it('creates, reads, lists, changes and deletes a policy, and an enforced one refuses a payment', async () => {
    const policy = await owner.policies.create({ name: 'No gambling', agentId: agentA.agent.id, rules: { blockedCategories: ['gambling'] } });
    expect(policy).toMatchObject({ agentId: agentA.agent.id, version: 1, shadow: false, enabled: true });
    expect((await owner.policies.get(policy.id)).name).toBe('No gambling');
    expect((await owner.policies.list({ agentId: agentA.agent.id })).map((listed) => listed.id)).toContain(policy.id);

    const refused = await apiError(agentClientA.pay({ amount: 1, to_address: DEAD, category: 'gambling' }));
    expect(refused).toMatchObject({ status: 422, code: 'POLICY_VIOLATION' });
    await expectBalances();

    const disabled = await owner.policies.update(policy.id, { enabled: false });
    expect(disabled).toMatchObject({ id: policy.id, enabled: false });
    const versioned = await owner.policies.update(policy.id, { rules: { blockedCategories: ['gambling', 'betting'] } });
    expect(versioned.version).toBe(2);
    expect((await owner.policies.list({ includeSuperseded: true })).map((listed) => listed.id)).toEqual(expect.arrayContaining([policy.id, versioned.id]));
    expect((await owner.policies.delete(versioned.id)).supersededAt).not.toBeNull();
    expect((await owner.policies.list()).map((listed) => listed.id)).not.toContain(versioned.id);
  });
});

describe('payment intents', () => {
  it('settles an intent under the approval threshold at once', async () => {
    const intent = await owner.intents.create({ agentId: agentA.agent.id, amount: 1, toAddress: DEAD, purpose: 'Small purchase', category: 'data' });
    expect(intent).toMatchObject({ createdBy: 'owner', amount: 1, rail: 'ledger' });
    const settled = await intentReaches(intent.id, 'settled');
    expect(settled.settledAt).not.toBeNull();
    expect((await owner.intents.progress(intent.id)).steps.map((step) => step.step)).toContain('settlement.completed');
    expected.agentA -= 1_000_000n;
    await expectBalances();
  });

  it('holds intents above the threshold for the owner: one gets a policy and is approved, one rejected, one cancelled', async () => {
    const create = () => owner.intents.create({ agentId: agentA.agent.id, amount: 6, toAddress: DEAD, merchant: 'GPU Cloud', category: 'compute' });
    const [approved, rejected, cancelled] = [await create(), await create(), await create()];
    for (const intent of [approved, rejected, cancelled]) await intentReaches(intent.id, 'pending_approval');
    await expectBalances();

    const firstDecision = (await owner.intents.get(approved.id)).policyDecision!.evaluatedAt;
    const withPolicy = await owner.intents.attachPolicy(approved.id, { policy: { maxPerTransaction: 10 }, shadow: false });
    expect(withPolicy.id).toBe(approved.id);
    // The gate decides again with the attached policy, which allows it: it still waits for approval.
    await until(
      'the gate to decide again',
      () => owner.intents.get(approved.id),
      (intent) => intent.status === 'pending_approval' && intent.policyDecision!.evaluatedAt !== firstDecision,
    );
    await owner.intents.approve(approved.id, { reason: 'Budgeted' });
    await intentReaches(approved.id, 'settled');
    expected.agentA -= 6_000_000n;

    expect((await owner.intents.reject(rejected.id, { reason: 'Not now' })).id).toBe(rejected.id);
    await intentReaches(rejected.id, 'rejected');
    expect((await owner.intents.cancel(cancelled.id)).status).toBe('cancelled');
    await expectBalances();

    // Iterated, the list follows nextCursor through every page: the same intents, in the same order, as one large page.
    const iterated: string[] = [];
    for await (const intent of owner.intents.list({ agentId: agentA.agent.id, limit: 2 })) iterated.push(intent.id);
    const onePage = await owner.intents.list({ agentId: agentA.agent.id, limit: 100 });
    expect(onePage.nextCursor).toBeNull();
    expect(iterated).toEqual(onePage.intents.map((intent) => intent.id));
    expect(iterated.length).toBeGreaterThanOrEqual(5);
    let pages = 0;
    for await (const listed of owner.intents.list({ agentId: agentA.agent.id, limit: 2 }).pages()) pages += listed.intents.length > 0 ? 1 : 0;
    expect(pages).toBe(Math.ceil(iterated.length / 2));

    const page = await owner.intents.list({ agentId: agentA.agent.id, limit: 2 });
    expect(page.intents).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const next = await owner.intents.list({ agentId: agentA.agent.id, limit: 100, cursor: page.nextCursor! });
    expect([...page.intents, ...next.intents].map((intent) => intent.id)).toEqual(expect.arrayContaining([approved.id, rejected.id, cancelled.id]));
    expect((await owner.intents.list({ status: 'rejected' })).intents.map((intent) => intent.id)).toEqual([rejected.id]);

    // The console's filters together: several statuses, rail, agent, time and amount range, text.
    const filtered = await owner.intents.list({
      status: ['rejected', 'cancelled'],
      rail: 'ledger',
      agentId: agentA.agent.id,
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
      minAmount: 6,
      maxAmount: '6',
      search: 'gpu cloud',
    });
    expect(filtered.intents.map((intent) => intent.id).sort()).toEqual([rejected.id, cancelled.id].sort());
    expect((await owner.intents.list({ status: ['settled'], search: 'GPU CLOUD' })).intents.map((intent) => intent.id)).toEqual([approved.id]);

    const detail = await owner.intents.detail(approved.id);
    expect(detail).toMatchObject({ intent: { id: approved.id, status: 'settled' }, agent: { id: agentA.agent.id, status: 'active' }, rail: { rail: 'ledger' } });
    expect(new Set(detail.ledgerEntries.map((entry) => entry.type))).toEqual(new Set(['payment_hold', 'payment_capture']));
    expect(detail.auditEntries.map((entry) => entry.action)).toEqual(expect.arrayContaining(['payment_intent.created', 'payment_intent.approved', 'payment_intent.settled']));
    expect(detail.workflow.workflowId).not.toBe('');
  });

  it('creates an intent once per idempotency key', async () => {
    const body = { agentId: agentA.agent.id, amount: 0.25, toAddress: DEAD };
    const first = await owner.intents.create(body, { idempotencyKey: 'sdk-intent-1' });
    const again = await owner.intents.create(body, { idempotencyKey: 'sdk-intent-1' });
    expect(again.id).toBe(first.id);
    await intentReaches(first.id, 'settled');
    expected.agentA -= 250_000n;
    await expectBalances();
  });
});

describe('retries and idempotency through a gateway that loses an answer', () => {
  it('pays once when the first answer to a payment is a 503 sent after the payment ran', async () => {
    const proxy = await startFlakyProxy(appUrl, (method, path, seen) => method === 'POST' && path.endsWith('/payment') && seen.length === 0);
    try {
      const client = agentClient(agentA, proxy.url);
      const paid = await client.pay({ amount: 2, to_address: DEAD, description: 'Through a flaky gateway' });
      expect(paid).toMatchObject({ status: 'settled', amount: 2 });

      expect(proxy.calls.map((call) => [call.upstreamStatus, call.answeredStatus, call.upstreamReplayed])).toEqual([
        [200, 503, false],
        [200, 200, true],
      ]);
      const [first, second] = proxy.calls;
      expect(first!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
      expect(await prisma.paymentIntent.count({ where: { agentId: agentA.agent.id, idempotencyKey: first!.idempotencyKey! } })).toBe(1);
      expected.agentA -= 2_000_000n;
      await expectBalances();
    } finally {
      await proxy.close();
    }
  });
});

describe('retries and idempotency of wrapFetch through a gateway that loses an answer', () => {
  it('pays the seller once when the first answer to a paid fetch is a 503 sent after the payment ran', async () => {
    const proxy = await startFlakyProxy(appUrl, (method, path, seen) => method === 'POST' && path.endsWith('/pay/fetch') && seen.length === 0);
    try {
      const fetchWithPayment = wrapFetch(recordingFetch, { agent: { baseUrl: proxy.url, did: agentA.agent.did, apiKey: agentA.api_key.key } });
      const response = await fetchWithPayment(`${appUrl}/sandbox/paid/quote`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ quote: expect.any(String) });

      expect(proxy.calls.map((call) => [call.upstreamStatus, call.answeredStatus])).toEqual([
        [200, 503],
        [200, 200],
      ]);
      const [first, second] = proxy.calls;
      expect(first!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
      expect(x402PaymentInfo(response)!.purser).toMatchObject({ idempotencyKey: first!.idempotencyKey, attempts: 2 });
      expect(await prisma.paymentIntent.count({ where: { agentId: agentA.agent.id, idempotencyKey: first!.idempotencyKey! } })).toBe(1);
      expected.agentA -= 5_000n;
      await expectBalances();
    } finally {
      await proxy.close();
    }
  });
});

describe('webhooks', () => {
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let endpoint: WebhookEndpointWithSecret;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  const settlementOf = (intentId: string) => (webhook: ReceivedWebhook) => {
    const event = JSON.parse(webhook.body) as { type: string; data: { intent: { id: string } } };
    return event.type === 'settlement.completed' && event.data.intent.id === intentId;
  };

  it('delivers a signed event that verifyWebhook accepts, and refuses it tampered or late', async () => {
    endpoint = await owner.webhooks.create({ url: `${receiver.url}/purser`, description: 'SDK test' });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await owner.webhooks.list()).endpoints.map((listed) => listed.id)).toEqual([endpoint.endpoint.id]);
    expect((await owner.webhooks.get(endpoint.endpoint.id)).url).toBe(`${receiver.url}/purser`);

    const paid = await agentClientA.pay({ amount: 0.75, to_address: DEAD, description: 'Webhook trigger' });
    expected.agentA -= 750_000n;
    const delivered = await until('the settlement webhook', async () => receiver.received.find(settlementOf(paid.intent_id)), (found) => found !== undefined);

    const event = verifyWebhook({ payload: delivered!.body, headers: delivered!.headers, secret: endpoint.secret });
    expect(event).toMatchObject({ type: 'settlement.completed', data: { intent: { id: paid.intent_id, status: 'settled', amount: 0.75 } } });
    expect(delivered!.headers['webhook-id']).toBe(event.id);
    for (const webhook of receiver.received) expect(() => verifyWebhook({ payload: webhook.body, headers: webhook.headers, secret: endpoint.secret })).not.toThrow();

    const tampered = delivered!.body.replace('"amount":0.75', '"amount":75');
    expect(tampered).not.toBe(delivered!.body);
    expect(() => verifyWebhook({ payload: tampered, headers: delivered!.headers, secret: endpoint.secret })).toThrow(WebhookVerificationError);
    const tenMinutesLater = new Date(Number(delivered!.headers['webhook-timestamp']) * 1000 + 10 * 60_000);
    expect(() => verifyWebhook({ payload: delivered!.body, headers: delivered!.headers, secret: endpoint.secret, now: tenMinutesLater })).toThrow(
      expect.objectContaining({ reason: 'timestamp_too_old' }),
    );
    await expectBalances();
  });

  it('lists and reads deliveries, redelivers under a rotated secret, changes and deletes the endpoint', async () => {
    const { deliveries } = await owner.webhooks.deliveries(endpoint.endpoint.id, { status: 'succeeded' });
    expect(deliveries.length).toBeGreaterThan(0);
    const everyDelivery: string[] = [];
    for await (const delivery of owner.webhooks.deliveries(endpoint.endpoint.id, { status: 'succeeded', limit: 1 })) everyDelivery.push(delivery.id);
    expect(everyDelivery).toEqual(deliveries.map((delivery) => delivery.id));
    const settlement = deliveries.find((delivery) => delivery.eventType === 'settlement.completed')!;
    const detail = await owner.webhooks.getDelivery(settlement.id);
    expect(detail.attemptLog[0]).toMatchObject({ succeeded: true, statusCode: 200 });

    // Rotated by default, the old secret keeps signing beside the new one for a day.
    const overlapping = await owner.webhooks.rotateSecret(endpoint.endpoint.id);
    expect(overlapping.secret).not.toBe(endpoint.secret);
    expect(overlapping.previousSecretExpiresAt).toEqual(expect.any(String));
    // Rotated again at once (the secret leaked): only the newest signs.
    const rotated = await owner.webhooks.rotateSecret(endpoint.endpoint.id, { overlapSeconds: 0 });
    expect(rotated.previousSecretExpiresAt).toBeNull();
    const before = receiver.received.length;
    expect((await owner.webhooks.redeliver(settlement.id)).id).toBe(settlement.id);
    const redelivered = await until('the redelivery', async () => receiver.received.slice(before), (found) => found.length > 0);
    expect(redelivered[0]!.headers['webhook-id']).toBe(detail.eventId);
    expect(verifyWebhook({ payload: redelivered[0]!.body, headers: redelivered[0]!.headers, secret: [endpoint.secret, rotated.secret] }).id).toBe(detail.eventId);
    expect(() => verifyWebhook({ payload: redelivered[0]!.body, headers: redelivered[0]!.headers, secret: endpoint.secret })).toThrow(
      expect.objectContaining({ reason: 'invalid_signature' }),
    );

    expect(await owner.webhooks.update(endpoint.endpoint.id, { events: ['settlement.completed'], enabled: false })).toMatchObject({ events: ['settlement.completed'], enabled: false });
    expect(await owner.webhooks.delete(endpoint.endpoint.id)).toMatchObject({ id: endpoint.endpoint.id, deleted: true });
    expect((await owner.webhooks.list()).endpoints).toEqual([]);
  });
});

describe('the kill switch, budget alerts and the audit log', () => {
  it('pauses every active agent at once, its calls are refused, and resume brings back exactly those', async () => {
    expect(await owner.agents.killSwitch()).toEqual({ paused: false, pausedCount: 0, pausedAt: null });
    // Agent B is deleted: A is the one active agent.
    expect(await owner.agents.pauseAll()).toEqual({ paused: 1 });
    expect(await owner.agents.killSwitch()).toMatchObject({ paused: true, pausedCount: 1, pausedAt: expect.any(String) });
    expect((await owner.agents.get(agentA.agent.id)).status).toBe('suspended');
    expect(await apiError(agentClientA.balance())).toMatchObject({ status: 403, code: 'AGENT_SUSPENDED' });

    expect(await owner.agents.resumeAll()).toEqual({ resumed: 1 });
    expect((await owner.agents.killSwitch()).paused).toBe(false);
    await expectBalances();
  });

  it('alerts once when a payment takes the agent past 80 % of its daily limit', async () => {
    // All agent A spent, it spent in the last minutes: its rolling 24 hours. A limit 2.50 above
    // that, and a payment of 0.50, cross 80 % and stay under 100 %.
    const spent = 100_000_000n - expected.agentA;
    await owner.agents.updateSpendingRules(agentA.agent.id, { max_daily_limit: toDecimalString(spent + 2_500_000n) });
    const paid = await agentClientA.pay({ amount: 0.5, to_address: DEAD, description: 'Budget alert trigger' });
    expect(paid.status).toBe('settled');
    expected.agentA -= 500_000n;
    await expectBalances();

    const { alerts } = await owner.budgetAlerts.list({ agentId: agentA.agent.id });
    expect(alerts).toEqual([
      expect.objectContaining({ agentId: agentA.agent.id, scope: 'daily_limit', policyId: null, threshold: 80, intentId: paid.intent_id, limitExact: toDecimalString(spent + 2_500_000n) }),
    ]);
    expect((await owner.budgetAlerts.list({ limit: 1 })).alerts.map((alert) => alert.id)).toEqual([alerts[0]!.id]);
  });

  it('lists the audit log a page at a time, verifies its chain, and exports JSON Lines that the audit:verify check accepts', async () => {
    const chainId = `owner:${session.user.id}`;
    const paused = await owner.audit.list({ subject: `agent:${agentA.agent.id}`, action: 'agent.kill_switch_paused' });
    expect(paused.entries).toEqual([expect.objectContaining({ chainId, actor: `owner:${session.user.id}`, action: 'agent.kill_switch_paused' })]);

    const first = await owner.audit.list({ subject: 'payment_intent:*', limit: 2 });
    expect(first.entries).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await owner.audit.list({ subject: 'payment_intent:*', limit: 2, cursor: first.nextCursor!, to: new Date(Date.now() + 60_000).toISOString() });
    expect(BigInt(second.entries[0]!.seq)).toBeLessThan(BigInt(first.entries[1]!.seq));

    // Iterated, the audit log follows the cursor: the first five entries are the first page of five.
    const firstFive: string[] = [];
    for await (const entry of owner.audit.list({ subject: 'payment_intent:*', limit: 2 })) {
      firstFive.push(entry.seq);
      if (firstFive.length === 5) break;
    }
    expect(firstFive).toEqual((await owner.audit.list({ subject: 'payment_intent:*', limit: 5 })).entries.map((entry) => entry.seq));

    const verification = await owner.audit.verify();
    expect(verification).toMatchObject({ status: 'verified', brokenAt: null, reason: null });
    // Exported after the check, so it holds at least the entries checked.
    const lines = (await owner.audit.export()).split('\n').filter((line) => line !== '');
    const ownChain = lines.map((line) => JSON.parse(line) as AuditExportLine).filter((line) => line.chainId === chainId);
    expect(BigInt(ownChain.at(-1)!.chainSeq)).toBeGreaterThanOrEqual(BigInt(verification.verifiedThrough!));
    expect(await verifyAuditExport(lines)).toMatchObject({ ok: true });
  });
});

describe('payment sessions', () => {
  it('lets the agent ask for a budget and the owner grant it for less, open one and revoke it', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const asked = await agentClientA.requestBudget({ total: 5, expires_at: expiresAt, reason: 'One research run', scope: { categories: ['data'] } });
    expect(asked).toMatchObject({ status: 'requested', total: 5 });
    expect(await agentClientA.budget(asked.session_id)).toMatchObject({ session_id: asked.session_id, status: 'requested' });
    expect((await agentClientA.budgets()).budgets.map((budget) => budget.session_id)).toContain(asked.session_id);

    const granted = await owner.paymentSessions.decide(asked.session_id, { approve: true, totalUsd: 3, note: 'Three is enough' });
    expect(granted).toMatchObject({ id: asked.session_id, status: 'open', total: 3, decisionNote: 'Three is enough' });
    expect(await apiError(owner.paymentSessions.decide(asked.session_id, { approve: false }))).toMatchObject({ status: 409, code: 'CONFLICT' });

    const opened = await owner.paymentSessions.open({ agentId: agentA.agent.id, totalUsd: 2, expiresAt });
    expect(opened).toMatchObject({ status: 'open', requestedBy: 'owner', total: 2 });
    expect((await owner.paymentSessions.list({ agentId: agentA.agent.id })).sessions.map((listed) => listed.id)).toEqual(expect.arrayContaining([asked.session_id, opened.id]));
    expect(await owner.paymentSessions.get(opened.id)).toMatchObject({ id: opened.id, spent: 0, remaining: 2 });
    expect(await owner.paymentSessions.revoke(opened.id)).toMatchObject({ status: 'closed', closedReason: 'revoked' });
    expect(await owner.paymentSessions.revoke(asked.session_id)).toMatchObject({ status: 'closed', closedReason: 'revoked' });
  });
});

describe('coverage and the ledger', () => {
  it('called every operation of the OpenAPI document, and the session calls, against the product', async () => {
    const documented: DocumentedOperation[] = sdkSurfaceOperations(await (await fetch(`${appUrl}/api/v1/openapi.json`)).json());
    const called = new Set(sent.map(({ method, path }) => operationAt(documented, method, path)?.operationId));
    expect(documented.filter((operation) => !called.has(operation.operationId)).map((operation) => operation.operationId)).toEqual([]);
    expect(sent.filter(({ path }) => path.startsWith('/auth/v1/')).map(({ path }) => path)).toEqual(expect.arrayContaining(['/auth/v1/signup', '/auth/v1/token']));
  });

  it('adds up: the wallet and the agent hold what the steps moved, and the ledger verifies', async () => {
    await expectBalances();
    expect(expected).toEqual({
      wallet: 900_500_000n,
      // Payment, the payment read back by key, x402 fetch, wrapFetch, three steps, intents, the flaky gateway, wrapFetch through it, webhook trigger, budget alert.
      agentA: 100_000_000n - 1_500_000n - 250_000n - 10_000n - 10_000n - 5_000n - 1_000_000n - 6_000_000n - 250_000n - 2_000_000n - 5_000n - 750_000n - 500_000n,
    });
    expect((await verifyLedger(prisma)).problems).toEqual([]);
  });
});
