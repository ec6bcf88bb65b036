/**
 * The agent API end to end: a real Temporal dev server runs each payment's workflow, the
 * sandbox chain (anvil with Circle's USDC) carries the x402 payments, the demo paid API sits
 * behind the official x402 seller middleware, and the official MCP and x402 clients call in.
 * Every test that moves money checks the chain, the ledger balances and verifyLedger.
 */
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Client } from '@x402/core/client';
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createWalletClient, decodeFunctionData, erc20Abi, getAddress, http, parseAbi, parseEventLogs, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { X402RequirementsView, X402SignedPaymentView, X402UpstreamResponseView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { readAgentPrivateKey } from '../src/services/identity/agent-keys';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { createFundedAgent as createAgentWithFunds, intentReaches } from './support/x402-fixtures';

const BASE = '/functions/v1/mcp-server';
const WEATHER_PRICE = 10_000n; // $0.01
/** EIP-3009's two forms of the call that settles an x402 payment. */
const transferWithAuthorizationAbi = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
]);

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let seller: Address;

interface Agent {
  id: string;
  did: string;
  key: string;
  address: Address;
  headers: Record<string, string>;
}

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  seller = chain.sandboxSeller!;
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await owner_('POST', '/api/v1/wallet/top-up', { amount: 10_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

function owner_(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  return env.testApp.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
}

/** An agent made and funded the way owners do it; in the sandbox funding also mints its USDC on chain. */
function createFundedAgent(options: { fund: number; maxTransaction?: number; dailyLimit?: number; approvalThreshold?: number }): Promise<Agent> {
  return createAgentWithFunds(env.testApp.app, owner, options);
}

async function agentCall(agent: Agent, method: 'GET' | 'POST', path: string, payload?: object, headers: Record<string, string> = {}) {
  const response = await fetch(`${appUrl}${BASE}${path}`, {
    method,
    headers: { ...agent.headers, ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

async function ledgerBalance(agentId: string): Promise<bigint> {
  return (await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } })).balanceUsdc;
}

async function expectLedgerConsistent(): Promise<void> {
  expect((await verifyLedger(prisma)).problems).toEqual([]);
}

async function onChain(address: Address): Promise<bigint> {
  return chain.usdcBalanceOf(address);
}

/** The USDC Transfer of a settlement transaction, and the function it called. */
async function settlementOf(hash: Hex) {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash });
  const transaction = await chain.publicClient.getTransaction({ hash });
  const [transfer] = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
  return {
    status: receipt.status,
    to: transaction.to && getAddress(transaction.to),
    functionName: decodeFunctionData({ abi: transferWithAuthorizationAbi, data: transaction.input }).functionName,
    selector: transaction.input.slice(0, 10),
    transfer: transfer!.args,
  };
}

describe('MCP', () => {
  it('lists the tools to the official MCP client and pays through make_payment; the ledger shows it', async () => {
    const agent = await createFundedAgent({ fund: 20 });
    const client = new Client({ name: 'purser-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${BASE}/mcp`), { requestInit: { headers: agent.headers } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        ['get_balance', 'get_budget', 'get_info', 'list_transactions', 'make_payment', 'request_budget', 'x402_fetch', 'x402_proxy', 'x402_requirements', 'x402_sign_payment'].sort(),
      );
      for (const tool of tools) expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tools.find((tool) => tool.name === 'make_payment')?.inputSchema.required).toEqual(expect.arrayContaining(['amount', 'to_address']));

      const before = await ledgerBalance(agent.id);
      const paid = (await env.runWorker(() =>
        client.callTool({ name: 'make_payment', arguments: { amount: 1.5, to_address: 'merchant-42', description: 'Dataset licence', category: 'data' } }),
      )) as CallToolResult;
      expect(paid.isError, JSON.stringify(paid.content)).toBeFalsy();
      expect(paid.structuredContent).toMatchObject({ status: 'settled', amount: 1.5, to_address: 'merchant-42', rail: 'ledger' });
      expect(await ledgerBalance(agent.id)).toBe(before - 1_500_000n);

      // A refusal is a tool result the model can read, not a protocol error; nothing moves.
      const refused = (await env.runWorker(() => client.callTool({ name: 'make_payment', arguments: { amount: 6, to_address: 'merchant-42' } }))) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('POLICY_VIOLATION');
      expect(await ledgerBalance(agent.id)).toBe(before - 1_500_000n);

      // The agent can see what is left of its daily limit.
      const info = (await client.callTool({ name: 'get_info', arguments: {} })) as CallToolResult;
      expect(info.structuredContent).toMatchObject({ did: agent.did, spending: { spent_last_24h: 1.5, remaining_daily: 48.5 } });

      const listed = (await client.callTool({ name: 'list_transactions', arguments: {} })) as CallToolResult;
      const { transactions } = listed.structuredContent as { transactions: Array<{ type: string; amount: number; category: string; status: string }> };
      expect(transactions[0]).toMatchObject({ type: 'payment', amount: 1.5, category: 'data', status: 'completed' });

      const invalid = (await client.callTool({ name: 'make_payment', arguments: { amount: 'ten', to_address: 'x' } })) as CallToolResult;
      expect(invalid.isError).toBe(true);
      expect(invalid.content).toEqual([{ type: 'text', text: 'VALIDATION_FAILED: amount must be a positive number of dollars with at most 6 decimals' }]);
    } finally {
      await client.close();
    }
    await expectLedgerConsistent();
  });
});

describe('REST payments', () => {
  it('answers 200 once the payment settles, replays the same Idempotency-Key without paying twice, and 202 when the owner must approve', async () => {
    const agent = await createFundedAgent({ fund: 30, approvalThreshold: 3 });
    const before = await ledgerBalance(agent.id);
    await env.runWorker(async () => {
      const body = { amount: 2, to_address: 'api.example.com', description: 'Search calls', category: 'api', metadata: { order: 'A-1' } };
      const first = await agentCall(agent, 'POST', '/payment', body, { 'idempotency-key': 'order-A-1' });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ status: 'settled', amount: 2, currency: 'USDC' });
      const again = await agentCall(agent, 'POST', '/payment', body, { 'idempotency-key': 'order-A-1' });
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.intent_id).toBe(first.body.intent_id);
      const conflict = await agentCall(agent, 'POST', '/payment', { ...body, amount: 3 }, { 'idempotency-key': 'order-A-1' });
      expect(conflict.status).toBe(409);

      const waiting = await agentCall(agent, 'POST', '/payment', { amount: 4, to_address: 'gpu.example.com' });
      expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
      expect(waiting.body).toMatchObject({ status: 'pending_approval' });
    });
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id, status: 'settled' } })).toBe(1);
    expect(await ledgerBalance(agent.id)).toBe(before - 2_000_000n);
    await expectLedgerConsistent();
  });
});

describe('x402', () => {
  const weather = () => `${appUrl}/sandbox/paid/weather?city=Lisbon`;

  it('pays the sandbox paid API through /x402/fetch: USDC moves on chain from the agent to the seller, the ledger records it, and the header cannot be replayed', async () => {
    const agent = await createFundedAgent({ fund: 10 });
    const ledgerBefore = await ledgerBalance(agent.id);
    const chainBefore = { agent: await onChain(agent.address), seller: await onChain(seller) };
    expect(chainBefore.agent).toBe(10_000_000n); // minted when the owner funded the agent

    const fetched = await env.runWorker(async () => {
      const answer = await agentCall(agent, 'POST', '/x402/fetch', { url: weather(), category: 'weather' });
      // The agent hears back once the chain confirmed the payment; the workflow captures it next.
      await intentReaches(prisma, String((answer.body as unknown as X402UpstreamResponseView).payment?.intent_id), 'settled');
      return answer;
    });
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
    const view = fetched.body as unknown as X402UpstreamResponseView;
    expect(view.status).toBe(200);
    expect(JSON.parse(view.body)).toMatchObject({ city: 'Lisbon' });
    expect(view.payment).toMatchObject({ status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(fetched.headers.get('x-payment-response')).toBeTruthy();

    expect(await onChain(agent.address)).toBe(chainBefore.agent - WEATHER_PRICE);
    expect(await onChain(seller)).toBe(chainBefore.seller + WEATHER_PRICE);
    const settlement = await settlementOf(view.payment!.transaction_hash as Hex);
    expect(settlement.transfer).toEqual({ from: agent.address, to: seller, value: WEATHER_PRICE });

    expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - WEATHER_PRICE);
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: view.payment!.intent_id }, select: { status: true, rail: true, category: true } });
    expect(intent).toEqual({ status: 'settled', rail: 'x402_base', category: 'weather' });
    const transactions = await agentCall(agent, 'GET', '/transactions');
    expect((transactions.body.transactions as Array<Record<string, unknown>>)[0]).toMatchObject({
      type: 'payment',
      status: 'completed',
      category: 'weather',
      metadata: { url: weather(), network: 'eip155:84532', transaction_hash: view.payment!.transaction_hash },
    });

    // Replays: the same header through the proxy, and straight to the seller.
    const operation = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: view.payment!.intent_id }, select: { details: true } });
    const header = (operation.details as { paymentHeader: string }).paymentHeader;
    const proxied = await agentCall(agent, 'POST', '/x402/proxy', { url: weather(), payment_header: header });
    expect(proxied.status).toBe(409);
    expect(proxied.body).toMatchObject({ error: { code: 'CONFLICT', message: expect.stringContaining('already redeemed') } });
    const direct = await fetch(weather(), { headers: { 'payment-signature': header } });
    expect(direct.status).not.toBe(200);
    expect(await onChain(agent.address)).toBe(chainBefore.agent - WEATHER_PRICE);
    expect(await onChain(seller)).toBe(chainBefore.seller + WEATHER_PRICE);
    expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - WEATHER_PRICE);
    await expectLedgerConsistent();
  });

  it('answers /x402/fetch sent again with its Idempotency-Key with the seller\'s kept answer, paying once', async () => {
    const agent = await createFundedAgent({ fund: 10 });
    const ledgerBefore = await ledgerBalance(agent.id);
    const chainBefore = { agent: await onChain(agent.address), seller: await onChain(seller) };
    const key = { 'idempotency-key': `fetch-${randomUUID()}` };

    const [first, again] = await env.runWorker(async () => {
      const answer = await agentCall(agent, 'POST', '/x402/fetch', { url: weather() }, key);
      await intentReaches(prisma, String((answer.body as unknown as X402UpstreamResponseView).payment?.intent_id), 'settled');
      // As a client whose first answer was lost sends it again.
      return [answer, await agentCall(agent, 'POST', '/x402/fetch', { url: weather() }, key)];
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const [view, replayed] = [first.body, again.body] as unknown as X402UpstreamResponseView[];
    // The same answer; the payment has been captured since.
    expect(replayed).toEqual({ ...view, payment: { ...view!.payment, status: 'settled' } });
    expect(JSON.parse(replayed!.body)).toMatchObject({ city: 'Lisbon' });
    expect(replayed!.payment).toMatchObject({ status: 'settled', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(1);
    expect(await onChain(agent.address)).toBe(chainBefore.agent - WEATHER_PRICE);
    expect(await onChain(seller)).toBe(chainBefore.seller + WEATHER_PRICE);
    expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - WEATHER_PRICE);
    await expectLedgerConsistent();
  });

  it('pays through the three steps: requirements, sign-payment (the body is the requirement), proxy', async () => {
    const agent = await createFundedAgent({ fund: 10 });
    const ledgerBefore = await ledgerBalance(agent.id);
    const chainBefore = { agent: await onChain(agent.address), seller: await onChain(seller) };

    const requirements = await agentCall(agent, 'POST', '/x402/requirements', { url: weather() });
    expect(requirements.status).toBe(200);
    const read = requirements.body as unknown as X402RequirementsView;
    expect(read).toMatchObject({ payment_required: true, status: 402, x402_version: 2 });
    expect(read.recommended).toMatchObject({ scheme: 'exact', network: 'eip155:84532', amount: '10000', payTo: seller, asset: chain.info.usdcAddress });
    // Reading requirements pays nothing.
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);

    await env.runWorker(async () => {
      const signed = await agentCall(agent, 'POST', '/x402/sign-payment', read.recommended!, { 'idempotency-key': `weather-${agent.id}` });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const payment = signed.body as unknown as X402SignedPaymentView;
      // Asking again with the same key hands back the same header: one payment, signed once.
      const again = await agentCall(agent, 'POST', '/x402/sign-payment', read.recommended!, { 'idempotency-key': `weather-${agent.id}` });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toMatchObject({ intent_id: payment.intent_id, xPaymentHeader: payment.xPaymentHeader });
      expect(payment.xPaymentHeader).toBe(payment.x_payment_header);
      expect(payment).toMatchObject({ header_name: 'PAYMENT-SIGNATURE', amount: 0.01, pay_to: seller, status: 'processing' });
      // Signed, held, not yet moved on chain.
      expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - WEATHER_PRICE);
      expect(await onChain(agent.address)).toBe(chainBefore.agent);

      const proxied = await agentCall(agent, 'POST', '/x402/proxy', { url: weather(), payment_header: payment.xPaymentHeader });
      expect(proxied.status, JSON.stringify(proxied.body)).toBe(200);
      const view = proxied.body as unknown as X402UpstreamResponseView;
      expect(view.status).toBe(200);
      expect(view.payment_response).toMatchObject({ success: true, transaction: view.payment?.transaction_hash });
      expect(view.payment).toMatchObject({ intent_id: payment.intent_id, status: 'processing' });
      await intentReaches(prisma, payment.intent_id, 'settled');
    });
    expect(await onChain(agent.address)).toBe(chainBefore.agent - WEATHER_PRICE);
    expect(await onChain(seller)).toBe(chainBefore.seller + WEATHER_PRICE);
    expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - WEATHER_PRICE);
    await expectLedgerConsistent();
  });

  it('settles a payment whose redemption landed below the block recorded at signing, as on a sandbox chain rebuilt after a crash', async () => {
    const agent = await createFundedAgent({ fund: 10 });
    const ledgerBefore = await ledgerBalance(agent.id);
    const requirements = (await agentCall(agent, 'POST', '/x402/requirements', { url: weather() })).body as unknown as X402RequirementsView;
    await env.runWorker(async () => {
      const signed = await agentCall(agent, 'POST', '/x402/sign-payment', requirements.recommended!);
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const payment = signed.body as unknown as X402SignedPaymentView;
      // The chain the header was signed on had reached a block this one never will: its replay
      // after a restart puts the seller's redemption lower than the block the rail recorded.
      const operation = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: payment.intent_id }, select: { details: true } });
      const farAhead = (await chain.publicClient.getBlockNumber()) + 1_000_000n;
      await prisma.railOperation.update({ where: { paymentIntentId: payment.intent_id }, data: { details: { ...(operation.details as object), fromBlock: String(farAhead) } } });

      const proxied = await agentCall(agent, 'POST', '/x402/proxy', { url: weather(), payment_header: payment.xPaymentHeader });
      expect(proxied.status, JSON.stringify(proxied.body)).toBe(200);
      expect((proxied.body as unknown as X402UpstreamResponseView).payment).toMatchObject({ intent_id: payment.intent_id, status: 'processing' });
      await intentReaches(prisma, payment.intent_id, 'settled');
    });
    expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - WEATHER_PRICE);
    await expectLedgerConsistent();
  });

  it('waits a moment for on-chain USDC a sandbox chain gives back, and declines a shortfall that lasts: nothing signed, the hold returned', async () => {
    const agent = await createFundedAgent({ fund: 10 });
    const ledgerBefore = await ledgerBalance(agent.id);
    // The agent's USDC leaves its address (its own transfer, signed with its key), as if a
    // restarted sandbox chain had not replayed its mint yet.
    const key = await readAgentPrivateKey(prisma, env.testApp.deps.masterKey, agent.id, 'evm');
    const wallet = createWalletClient({ account: privateKeyToAccount(`0x${key.toString('hex')}`), chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
    const sink = privateKeyToAccount(generatePrivateKey()).address;
    const drain = await wallet.writeContract({ address: chain.info.usdcAddress, abi: erc20Abi, functionName: 'transfer', args: [sink, await onChain(agent.address)] });
    await chain.publicClient.waitForTransactionReceipt({ hash: drain });

    await env.runWorker(async () => {
      // Back on chain a second after the payment asks: it is signed and paid.
      setTimeout(() => void chain.fundSandboxAddress(agent.address, 10_000_000n), 1_000);
      const fetched = await agentCall(agent, 'POST', '/x402/fetch', { url: weather() });
      expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
      const paid = (fetched.body as unknown as X402UpstreamResponseView).payment;
      expect(paid).toMatchObject({ status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      await intentReaches(prisma, paid!.intent_id, 'settled');

      // Gone for good: declined with the reason, after the wait.
      const rest = await wallet.writeContract({ address: chain.info.usdcAddress, abi: erc20Abi, functionName: 'transfer', args: [sink, await onChain(agent.address)] });
      await chain.publicClient.waitForTransactionReceipt({ hash: rest });
      const declined = await agentCall(agent, 'POST', '/x402/fetch', { url: weather() });
      expect(declined.status, JSON.stringify(declined.body)).toBe(422);
      expect(JSON.stringify(declined.body)).toContain('fund the agent');
    });
    expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - WEATHER_PRICE);
    await expectLedgerConsistent();
  });

  it('refuses to sign above the per-transaction max or beyond the daily limit: nothing signed, nothing moved', async () => {
    const agent = await createFundedAgent({ fund: 10, maxTransaction: 1, dailyLimit: 1.5 });
    const requirement = { scheme: 'exact', network: 'eip155:84532', asset: chain.info.usdcAddress, payTo: seller, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } };

    await env.runWorker(async () => {
      const tooBig = await agentCall(agent, 'POST', '/x402/sign-payment', { ...requirement, amount: '1000001' });
      expect(tooBig.status, JSON.stringify(tooBig.body)).toBe(422);
      expect(tooBig.body).toMatchObject({ error: { code: 'POLICY_VIOLATION', message: expect.stringContaining('MAX_PER_TRANSACTION_EXCEEDED') } });

      const paid = await agentCall(agent, 'POST', '/payment', { amount: 1, to_address: 'merchant-1' });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const ledgerBefore = await ledgerBalance(agent.id);
      const chainBefore = await onChain(agent.address);

      const beyondDaily = await agentCall(agent, 'POST', '/x402/sign-payment', { requirement: { ...requirement, amount: '600000' }, url: weather() });
      expect(beyondDaily.status, JSON.stringify(beyondDaily.body)).toBe(422);
      expect(beyondDaily.body).toMatchObject({ error: { code: 'POLICY_VIOLATION', message: expect.stringContaining('DAILY_LIMIT_EXCEEDED') } });

      expect(await ledgerBalance(agent.id)).toBe(ledgerBefore);
      expect(await onChain(agent.address)).toBe(chainBefore);
    });
    // Nothing was signed: no x402 rail operation exists for this agent.
    expect(await prisma.railOperation.count({ where: { rail: 'x402_base', paymentIntent: { agentId: agent.id } } })).toBe(0);
    await expectLedgerConsistent();
  });

  it('returns the held funds when a signed payment expires unused, and refuses the expired header', async () => {
    const agent = await createFundedAgent({ fund: 2 });
    const ledgerBefore = await ledgerBalance(agent.id);
    const chainBefore = await onChain(agent.address);
    const requirement = { scheme: 'exact', network: 'eip155:84532', asset: chain.info.usdcAddress, payTo: seller, amount: '250000', maxTimeoutSeconds: 2, extra: { name: 'USDC', version: '2' } };

    await env.runWorker(async () => {
      const signed = await agentCall(agent, 'POST', '/x402/sign-payment', requirement);
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const payment = signed.body as unknown as X402SignedPaymentView;
      expect(await ledgerBalance(agent.id)).toBe(ledgerBefore - 250_000n);

      let status = '';
      for (let i = 0; i < 100 && status !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await prisma.paymentIntent.findUniqueOrThrow({ where: { id: payment.intent_id }, select: { status: true } })).status;
      }
      const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: payment.intent_id }, select: { status: true, failureCode: true, failureMessage: true } });
      expect(intent).toMatchObject({ status: 'failed', failureCode: 'PAYMENT_DECLINED', failureMessage: expect.stringContaining('expired') });

      const proxied = await agentCall(agent, 'POST', '/x402/proxy', { url: weather(), payment_header: payment.xPaymentHeader });
      expect(proxied.status).toBe(409);
      expect(proxied.body).toMatchObject({ error: { code: 'CONFLICT', message: expect.stringContaining('expired') } });
    });
    expect(await ledgerBalance(agent.id)).toBe(ledgerBefore);
    expect(await onChain(agent.address)).toBe(chainBefore);
    await expectLedgerConsistent();
  });

  it('gives the same on-chain result for the official @x402/fetch client paying directly and an agent paying through /x402/proxy', async () => {
    // Direct: a wallet of its own, paying with the official client.
    const buyer = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(buyer.address, 1_000_000n);
    const directSellerBefore = await onChain(seller);
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(buyer) }] });
    const direct = await wrapFetchWithPayment(fetch, client)(weather());
    expect(direct.status).toBe(200);
    const directHash = JSON.parse(Buffer.from(direct.headers.get('payment-response')!, 'base64').toString()).transaction as Hex;
    const directSellerGain = (await onChain(seller)) - directSellerBefore;

    // Through the agent API: the three steps.
    const agent = await createFundedAgent({ fund: 1 });
    const proxySellerBefore = await onChain(seller);
    const proxied = await env.runWorker(async () => {
      const read = (await agentCall(agent, 'POST', '/x402/requirements', { url: weather() })).body as unknown as X402RequirementsView;
      const signed = (await agentCall(agent, 'POST', '/x402/sign-payment', { requirement: read.recommended, url: weather() })).body as unknown as X402SignedPaymentView;
      return (await agentCall(agent, 'POST', '/x402/proxy', { url: weather(), payment_header: signed.xPaymentHeader })).body as unknown as X402UpstreamResponseView;
    });
    expect(proxied.status).toBe(200);
    const proxySellerGain = (await onChain(seller)) - proxySellerBefore;

    const [viaClient, viaProxy] = [await settlementOf(directHash), await settlementOf(proxied.payment!.transaction_hash as Hex)];
    expect(viaProxy).toEqual({ ...viaClient, transfer: { ...viaClient.transfer, from: agent.address } });
    expect(viaClient).toMatchObject({ status: 'success', to: chain.info.usdcAddress, functionName: 'transferWithAuthorization', transfer: { from: buyer.address, to: seller, value: WEATHER_PRICE } });
    expect(proxySellerGain).toBe(directSellerGain);
    expect(await onChain(buyer.address)).toBe(1_000_000n - WEATHER_PRICE);
    expect(await onChain(agent.address)).toBe(1_000_000n - WEATHER_PRICE);
    await expectLedgerConsistent();
  });

  it('speaks x402 v1 to a v1 seller: the 402 body, X-PAYMENT and X-PAYMENT-RESPONSE', async () => {
    // A v1 seller on the official facilitator: requirements in the 402 body, the payment in X-PAYMENT.
    const requirement = {
      scheme: 'exact',
      network: 'base-sepolia',
      maxAmountRequired: '20000',
      resource: '',
      description: 'A v1 report',
      mimeType: 'application/json',
      payTo: seller,
      maxTimeoutSeconds: 120,
      asset: chain.info.usdcAddress,
      extra: { name: 'USDC', version: '2' },
    };
    const answer = async (request: IncomingMessage, response: ServerResponse) => {
      const header = request.headers['x-payment'];
      const required = { ...requirement, resource: `http://${request.headers.host}${request.url}` };
      if (typeof header !== 'string') {
        response.writeHead(402, { 'content-type': 'application/json' }).end(JSON.stringify({ x402Version: 1, accepts: [required], error: 'X-PAYMENT header is required' }));
        return;
      }
      const payment = decodePaymentSignatureHeader(header);
      const verified = await chain.facilitator.verify(payment, required as never);
      if (!verified.isValid) {
        response.writeHead(402, { 'content-type': 'application/json' }).end(JSON.stringify({ x402Version: 1, accepts: [required], error: verified.invalidReason }));
        return;
      }
      const settled = await chain.facilitator.settle(payment, required as never);
      response.writeHead(200, { 'content-type': 'application/json', 'x-payment-response': encodePaymentResponseHeader(settled) }).end(JSON.stringify({ report: 'v1 paid' }));
    };
    const v1Seller = createServer((request, response) => void answer(request, response));
    await new Promise<void>((resolve) => v1Seller.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(v1Seller.address() as AddressInfo).port}/report`;
    try {
      const agent = await createFundedAgent({ fund: 1 });
      const chainBefore = { agent: await onChain(agent.address), seller: await onChain(seller) };
      const read = (await agentCall(agent, 'POST', '/x402/requirements', { url })).body as unknown as X402RequirementsView;
      expect(read).toMatchObject({ x402_version: 1, recommended: { network: 'base-sepolia', maxAmountRequired: '20000' } });

      const fetched = await env.runWorker(async () => {
        const answer = await agentCall(agent, 'POST', '/x402/fetch', { url });
        await intentReaches(prisma, String((answer.body as unknown as X402UpstreamResponseView).payment?.intent_id), 'settled');
        return answer;
      });
      expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
      const view = fetched.body as unknown as X402UpstreamResponseView;
      expect(JSON.parse(view.body)).toEqual({ report: 'v1 paid' });
      expect(view.payment).toMatchObject({ status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      expect(fetched.headers.get('x-payment-response')).toBeTruthy();
      expect(await onChain(agent.address)).toBe(chainBefore.agent - 20_000n);
      expect(await onChain(seller)).toBe(chainBefore.seller + 20_000n);
      expect(await ledgerBalance(agent.id)).toBe(1_000_000n - 20_000n);
    } finally {
      await new Promise((resolve) => v1Seller.close(resolve));
    }
    await expectLedgerConsistent();
  });

  it('reports the balance in the ledger and on chain with the network', async () => {
    const agent = await createFundedAgent({ fund: 3 });
    const balance = await agentCall(agent, 'GET', '/balance');
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({
      wallet_address: agent.address,
      balances: { USDC: { ledger: 3, on_chain: 3, on_chain_exact: '3' }, USDT: { ledger: 0, on_chain: null } },
      network: { network: 'eip155:84532', chain_id: 84532, sandbox: true, usdc_address: chain.info.usdcAddress },
      on_chain_error: null,
    });
    expect(BigInt(balance.body.eth_wei as string)).toBeGreaterThan(0n);
  });
});

