/**
 * x402 against sellers that lie. A hand-written seller on 127.0.0.1 answers 402s no honest
 * seller would: two prices in one requirement, windows of centuries, schemes and transfer
 * methods Purser does not price exactly, redirects to the metadata address, names that
 * resolve there, oversized bodies. Where it is paid it redeems what it was given on the
 * sandbox chain, as a real seller would, so each test can check what was signed (decoded from
 * the header the seller received, or the rail's records) against the agent's rules, the hold,
 * the ledger and the chain.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { sandboxOutbound } from './support/test-app';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { AGENT_API, agentCall, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, signedOperations, type TestAgent } from './support/x402-fixtures';

const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const MAX_VALIDITY_S = 20;
const WEATHER = 10_000n; // $0.01

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let sellerUrl: string;
let payTo: `0x${string}`;

// ---------------------------------------------------------------- the hostile seller

interface Offer {
  x402Version: 1 | 2;
  accepts: Record<string, unknown>[];
}
/** Every request the seller saw, and every payment header it was sent, decoded. */
const seen: { path: string; payment: PaymentPayload | null }[] = [];
const offers = new Map<string, Offer | ((response: ServerResponse) => void)>();

function v2(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { scheme: 'exact', network: 'eip155:84532', amount: String(WEATHER), asset: USDC, payTo, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' }, ...overrides };
}
function v1(path: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    scheme: 'exact',
    network: 'base-sepolia',
    maxAmountRequired: String(WEATHER),
    resource: `${sellerUrl}${path}`,
    description: 'Weather',
    mimeType: 'application/json',
    asset: USDC,
    payTo,
    maxTimeoutSeconds: 60,
    extra: { name: 'USDC', version: '2' },
    ...overrides,
  };
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0]!;
  const header = (request.headers['payment-signature'] ?? request.headers['x-payment']) as string | undefined;
  const payment = header ? decodePaymentSignatureHeader(header) : null;
  seen.push({ path, payment });
  const offer = offers.get(path);
  if (!offer) return void response.writeHead(404).end();
  if (typeof offer === 'function') return offer(response);
  if (!payment) {
    if (offer.x402Version === 2) {
      const required = { x402Version: 2, resource: { url: `${sellerUrl}${path}`, description: 'Weather', mimeType: 'application/json' }, accepts: offer.accepts } as unknown as PaymentRequired;
      return void response.writeHead(402, { 'payment-required': encodePaymentRequiredHeader(required), 'content-type': 'application/json' }).end('{}');
    }
    return void response.writeHead(402, { 'content-type': 'application/json' }).end(JSON.stringify({ x402Version: 1, error: 'X-PAYMENT header is required', accepts: offer.accepts }));
  }
  // Paid: redeem whatever was signed, as much as the chain lets it take.
  const requirement = (payment.x402Version === 2 ? payment.accepted : offer.accepts[0]) as unknown as PaymentRequirements;
  const settled = await chain.facilitator.settle(payment, requirement);
  const name = payment.x402Version === 2 ? 'payment-response' : 'x-payment-response';
  response.writeHead(settled.success ? 200 : 402, { 'content-type': 'application/json', [name]: encodePaymentResponseHeader(settled) });
  response.end(JSON.stringify({ forecast: 'sunny' }));
}

// ---------------------------------------------------------------- set-up

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  payTo = chain.sandboxSeller!;
  const seller = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
  sellerUrl = `http://127.0.0.1:${(seller.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((resolve) => seller.close(() => resolve())));

  env = await startTemporalTestEnv({
    chain,
    agentRateLimitPerMinute: 10_000,
    x402MaxValiditySeconds: MAX_VALIDITY_S,
    // The sandbox's policy, with names this suite controls: one of them points at the metadata service.
    outbound: sandboxOutbound({
      resolve: async (hostname) =>
        hostname === 'metadata.seller.test' ? [{ address: '169.254.169.254', family: 4 }] : [{ address: '127.0.0.1', family: 4 }],
    }),
  });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 10_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

/** The agent's money everywhere, to compare before and after. */
async function balances(agent: TestAgent) {
  return { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(payTo) };
}

/** Nothing was signed, held or moved for this agent, and the seller was never sent a payment. */
async function expectUntouched(agent: TestAgent, before: Awaited<ReturnType<typeof balances>>, path: string) {
  expect(await signedOperations(prisma, agent.id)).toEqual([]);
  expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
  expect(await balances(agent)).toEqual(before);
  expect(seen.filter((entry) => entry.path === path && entry.payment !== null)).toEqual([]);
  await expectLedgerConsistent(prisma);
}

function run<T>(fn: () => Promise<T>): Promise<T> {
  return env.runWorker(fn);
}

describe('a seller naming two prices', () => {
  it('is refused on /x402/fetch in both versions: nothing is signed, held or moved, and the seller never sees a payment', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5, maxTransaction: 1 });
    offers.set('/two-prices-v1', { x402Version: 1, accepts: [v1('/two-prices-v1', { amount: '10000', maxAmountRequired: '1500000' })] });
    offers.set('/two-prices-v2', { x402Version: 2, accepts: [v2({ amount: '10000', maxAmountRequired: '1500000' })] });
    const before = await balances(agent);

    await run(async () => {
      for (const path of ['/two-prices-v1', '/two-prices-v2']) {
        const response = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}${path}` });
        expect(response.status, JSON.stringify(response.body)).toBe(422);
        expect(response.body.error).toMatchObject({ code: 'X402_REFUSED', message: expect.stringContaining('two prices') });
        await expectUntouched(agent, before, path);
      }
    });
  });

  it('is refused on /x402/sign-payment and the MCP tool, with the stable code and nothing signed', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5, maxTransaction: 1 });
    const before = await balances(agent);
    const requirement = { ...v1('/sign'), amount: '1', maxAmountRequired: '2500000' };

    await run(async () => {
      const rest = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement, x402_version: 1 });
      expect(rest.status).toBe(422);
      expect(rest.body.error?.code).toBe('X402_REFUSED');

      const mcp = new Client({ name: 'hostile-seller-test', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
      try {
        const result = (await mcp.callTool({ name: 'x402_sign_payment', arguments: { requirement, x402_version: 1 } })) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toContain('X402_REFUSED');
      } finally {
        await mcp.close();
      }
    });
    await expectUntouched(agent, before, '/sign');
  });
});

describe('a seller asking for a window of centuries', () => {
  it('gets an authorisation valid for the deployment\'s window at most, for exactly the priced amount, in both versions', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5, maxTransaction: 1 });
    offers.set('/centuries-v2', { x402Version: 2, accepts: [v2({ maxTimeoutSeconds: 1_000_000_000 })] });
    offers.set('/centuries-v1', { x402Version: 1, accepts: [v1('/centuries-v1', { maxTimeoutSeconds: 1_000_000_000 })] });
    const before = await balances(agent);

    await run(async () => {
      for (const path of ['/centuries-v2', '/centuries-v1']) {
        const started = Math.floor(Date.now() / 1000);
        const response = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}${path}` });
        const finished = Math.ceil(Date.now() / 1000);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        // The answer may find its settle still running or already done (a quick workflow beats it).
        expect(response.body).toMatchObject({ status: 200, payment: { status: expect.stringMatching(/^(processing|settled)$/) } });
        await intentReaches(prisma, (response.body as { payment: { intent_id: string } }).payment.intent_id, 'settled');

        const [received] = seen.filter((entry) => entry.path === path && entry.payment).map((entry) => entry.payment!);
        const { authorization } = received!.payload as { authorization: { from: string; to: string; value: string; validBefore: string } };
        expect(authorization).toMatchObject({ from: agent.address, to: payTo, value: String(WEATHER) });
        expect(Number(authorization.validBefore)).toBeGreaterThanOrEqual(started + MAX_VALIDITY_S);
        expect(Number(authorization.validBefore)).toBeLessThanOrEqual(finished + MAX_VALIDITY_S);
      }
    });

    // Two payments of exactly the priced amount: ledger and chain agree.
    expect(await balances(agent)).toEqual({ ledger: before.ledger - 2n * WEATHER, onChain: before.onChain - 2n * WEATHER, seller: before.seller + 2n * WEATHER });
    const operations = await signedOperations(prisma, agent.id);
    expect(operations.map((operation) => operation.status)).toEqual(['settled', 'settled']);
    await expectLedgerConsistent(prisma);
  });

  it('gets the same short window through /x402/sign-payment, where the agent hands in the requirement', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5, maxTransaction: 1 });
    await run(async () => {
      const started = Math.floor(Date.now() / 1000);
      const signed = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement: v2({ maxTimeoutSeconds: 86_400 }), x402_version: 2 });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const payment = decodePaymentSignatureHeader(signed.body.x_payment_header as string);
      const validBefore = Number((payment.payload as { authorization: { validBefore: string } }).authorization.validBefore);
      expect(validBefore).toBeGreaterThanOrEqual(started + MAX_VALIDITY_S);
      expect(validBefore).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + MAX_VALIDITY_S);
      expect(Date.parse(signed.body.valid_before as string) / 1000).toBe(validBefore);
    });
  });
});

describe('a seller offering what Purser does not price exactly', () => {
  it('is refused: another scheme, an upto offer naming no facilitator, an exact offer over permit2; nothing signed', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    offers.set('/stream', { x402Version: 2, accepts: [v2({ scheme: 'stream' })] });
    offers.set('/upto', { x402Version: 2, accepts: [v2({ scheme: 'upto', extra: { name: 'USDC', version: '2', assetTransferMethod: 'permit2' } })] });
    offers.set('/permit2', { x402Version: 2, accepts: [v2({ extra: { name: 'USDC', version: '2', assetTransferMethod: 'permit2' } })] });
    const before = await balances(agent);

    await run(async () => {
      const stream = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/stream` });
      expect(stream.status).toBe(422);
      expect(stream.body.error?.code).toBe('RAIL_UNAVAILABLE');
      const upto = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/upto` });
      expect(upto.status).toBe(422);
      expect(upto.body.error).toMatchObject({ code: 'X402_REFUSED', message: expect.stringContaining('facilitator') });
      const permit2 = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/permit2` });
      expect(permit2.status).toBe(422);
      expect(permit2.body.error).toMatchObject({ code: 'X402_REFUSED', message: expect.stringContaining('EIP-3009') });
      const signUpto = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement: v2({ scheme: 'upto' }), x402_version: 2 });
      expect(signUpto.status).toBe(422);
      expect(signUpto.body.error?.code).toBe('X402_REFUSED');
    });
    for (const path of ['/stream', '/upto', '/permit2']) await expectUntouched(agent, before, path);
  });
});

describe('a seller pointing inward', () => {
  it('has its redirect to the metadata address handed back unfollowed, and nothing is paid', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    offers.set('/redirect', (response) => void response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam' }).end());
    const before = await balances(agent);
    const response = await run(() => agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/redirect` }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 302, payment: null });
    await expectUntouched(agent, before, '/redirect');
  });

  it('cannot make Purser connect to link-local or metadata destinations, by address or by a name resolving there', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const port = new URL(sellerUrl).port;
    const inward = [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      `http://metadata.seller.test:${port}/two-prices-v2`,
      'http://10.0.0.1/',
    ];
    const requestsBefore = seen.length;
    for (const url of inward) {
      for (const path of ['/x402/fetch', '/x402/requirements', '/x402/proxy']) {
        const response = await agentCall(appUrl, agent, 'POST', path, { url });
        expect(response.status, `${path} ${url}`).toBe(400);
        expect(response.body.error?.code, `${path} ${url}`).toBe('URL_NOT_ALLOWED');
      }
    }
    // The name resolving to 169.254.169.254 shares the seller's port: had it connected, the seller would have seen it.
    expect(seen.length).toBe(requestsBefore);
    await expectUntouched(agent, before, '/two-prices-v2');
  });
});

describe('a seller answering too much', () => {
  it('has an oversized 402 refused before anything is priced or signed', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    offers.set('/oversized', (response) => {
      response.writeHead(402, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ x402Version: 1, accepts: [v1('/oversized')], padding: 'x'.repeat(2 * 1024 * 1024) }));
    });
    const before = await balances(agent);
    const response = await run(() => agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/oversized` }));
    expect(response.status).toBe(502);
    expect(response.body.error?.code).toBe('UPSTREAM_ERROR');
    await expectUntouched(agent, before, '/oversized');
  });
});

describe('merchant rules on where the money goes', () => {
  it('checks payTo against address rules on every path, and a host rule only where Purser fetched the URL itself', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    offers.set('/honest', { x402Version: 2, accepts: [v2()] });
    const sellerHost = new URL(sellerUrl).host;
    const policy = async (rules: Record<string, unknown>) => {
      const created = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/policies', { name: `Merchants ${Math.random()}`, agentId: agent.id, rules });
      expect(created.statusCode, created.body).toBe(201);
      return (created.json() as { id: string }).id;
    };
    const drop = (id: string) => ownerCall(env.testApp.app, owner, 'DELETE', `/api/v1/policies/${id}`);

    await run(async () => {
      // The host alone: the agent's word on sign-payment does not satisfy it, Purser's own fetch does.
      const hostOnly = await policy({ allowedMerchants: [sellerHost] });
      const claimed = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement: v2(), x402_version: 2, url: `${sellerUrl}/honest` });
      expect(claimed.status).toBe(422);
      expect(claimed.body.error?.message).toContain('MERCHANT_NOT_ALLOWED');
      const fetched = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/honest` });
      expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
      await drop(hostOnly);

      // The payee on a blocklist: refused even through a host the owner allows.
      const blocked = await policy({ allowedMerchants: [sellerHost], blockedMerchants: [payTo.toLowerCase()] });
      const refused = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/honest` });
      expect(refused.status).toBe(422);
      expect(refused.body.error?.message).toContain('MERCHANT_BLOCKED');
      await drop(blocked);

      // The payee on an allowlist: enough on sign-payment, whatever URL the agent names.
      const addressOnly = await policy({ allowedMerchants: [payTo] });
      const byAddress = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement: v2(), x402_version: 2, url: 'https://anything.example/' });
      expect(byAddress.status, JSON.stringify(byAddress.body)).toBe(200);
      await drop(addressOnly);
    });
    // Only what was allowed was signed: the fetch (settled) and the last signature.
    const operations = await signedOperations(prisma, agent.id);
    expect(operations).toHaveLength(2);
    await expectLedgerConsistent(prisma);
  });
});
