/**
 * GET /balance's on-chain figures, read from the chain once per block (chain-read-cache.ts):
 * an unchanged chain is read once however often an agent asks, and the figures are never older
 * than what the product has done (a funding's mint and gas, a settled x402 payment) or than a
 * block it has since seen (a transfer nobody here sent).
 *
 * A real anvil behind a relay that logs each JSON-RPC call the server makes, so the test counts
 * the balance reads that reach the node; a real database (PGlite or PostgreSQL).
 */
import type { AgentBalanceView } from '@purser/core';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createWalletClient, erc20Abi, http, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { type AnvilProcess, startAnvil } from '../src/services/chain/sandbox/sandbox-anvil';
import { ANVIL_MNEMONIC } from '../src/services/chain/sandbox/start-sandbox-chain';
import { startChain } from '../src/services/chain/start-chain';
import { readAgentEvmAccount } from '../src/services/identity/agent-keys';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startLoggingRpcRelay, type LoggingRpcRelay } from './support/logging-rpc-relay';
import { createTestApp, type TestApp } from './support/test-app';
import { AGENT_API, ownerCall, type TestAgent } from './support/x402-fixtures';

const ONE_USDC = 1_000_000n;

let anvil: AnvilProcess;
let relay: LoggingRpcRelay;
let chain: EvmChain;
let t: TestApp;
let baseUrl: string;
let owner: SignedUpOwner;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 84532, mnemonic: ANVIL_MNEMONIC });
  // HTTP only: the server's WebSocket head feed is refused, so it polls the head through the relay,
  // as it would a node without WebSockets (chain-head-feed.db.test.ts has the feed).
  relay = await startLoggingRpcRelay(anvil.rpcUrl, { webSockets: false });
  chain = await startChain({ sandboxRpcUrl: relay.url });
  t = await createTestApp({ chain, agentRateLimitPerMinute: 10_000 });
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(t.app, t.deps.db.prisma);
  expect((await ownerCall(t.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  await chain?.close();
  await relay?.close();
  await anvil?.stop();
});

async function newAgent(fund: number): Promise<TestAgent> {
  const created = await ownerCall(t.app, owner, 'POST', '/api/v1/agents', { name: `Agent ${Math.random().toString(36).slice(2, 8)}`, max_transaction_amount: 5, max_daily_limit: 50 });
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json() as { agent: { id: string; did: string; agent_wallets: { evm_wallet_address: Address } }; api_key: { key: string } };
  const agent = {
    id: body.agent.id,
    did: body.agent.did,
    key: body.api_key.key,
    address: body.agent.agent_wallets.evm_wallet_address,
    headers: { 'x-agent-did': body.agent.did, authorization: `Bearer ${body.api_key.key}` },
  };
  if (fund > 0) await fundAgent(agent, fund);
  return agent;
}

async function fundAgent(agent: TestAgent, amount: number): Promise<void> {
  const funded = await ownerCall(t.app, owner, 'POST', '/api/v1/wallet/fund-agent', { agent_id: agent.id, amount });
  expect(funded.statusCode, funded.body).toBe(200);
}

async function balance(agent: TestAgent): Promise<AgentBalanceView> {
  const response = await t.app.inject({ method: 'GET', url: `${AGENT_API}/balance`, headers: agent.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AgentBalanceView;
}

const onChain = (view: AgentBalanceView) => ({ usdc: view.balances.USDC.on_chain_exact, eth: view.eth_wei, error: view.on_chain_error });

/** Balance reads of `address` that reached the node. */
const balanceReadsOf = (address: Address) =>
  relay.calls.filter((call) => call.method === 'eth_getBalance' && String(call.params[0]).toLowerCase() === address.toLowerCase()).length;

describe('GET /balance on chain', () => {
  it('reads an unchanged chain once, however many times and however many at once an agent asks', async () => {
    const agent = await newAgent(2);
    const before = balanceReadsOf(agent.address);

    const inTurn: AgentBalanceView[] = [];
    for (let i = 0; i < 20; i++) inTurn.push(await balance(agent));
    const atOnce = await Promise.all(Array.from({ length: 20 }, () => balance(agent)));

    expect(new Set([...inTurn, ...atOnce].map((view) => JSON.stringify(onChain(view))))).toEqual(new Set([JSON.stringify({ usdc: '2', eth: parseEther('1').toString(), error: null })]));
    expect(balanceReadsOf(agent.address) - before).toBe(1);
  });

  it("shows a funding's mint and gas as soon as the funding is answered", async () => {
    const agent = await newAgent(0);
    expect(onChain(await balance(agent))).toEqual({ usdc: '0', eth: '0', error: null });

    await fundAgent(agent, 3);

    expect(onChain(await balance(agent))).toEqual({ usdc: '3', eth: parseEther('1').toString(), error: null });
  });

  it('shows an x402 payment settled by the sandbox seller as soon as the paid answer arrives', async () => {
    const agent = await newAgent(3);
    expect(onChain(await balance(agent)).usdc).toBe('3');
    const payer = await readAgentEvmAccount(t.deps.db.prisma, t.deps.masterKey, agent.id);
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(payer) }] });

    const paid = await wrapFetchWithPayment(fetch, client)(`${baseUrl}/sandbox/paid/weather?city=Lisbon`);
    expect(paid.status).toBe(200);

    expect(onChain(await balance(agent)).usdc).toBe('2.99');
  });

  it('shows a transfer nobody in this process sent once the server has seen its block', async () => {
    const agent = await newAgent(1);
    expect(onChain(await balance(agent)).usdc).toBe('1');
    // Another process on the same chain: its own wallet and connection, straight to anvil.
    const sender = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(sender.address, 5n * ONE_USDC);
    const wallet = createWalletClient({ account: sender, chain: chain.publicClient.chain!, transport: http(anvil.rpcUrl) });
    await wallet.writeContract({ address: chain.info.usdcAddress, abi: erc20Abi, functionName: 'transfer', args: [agent.address, 2n * ONE_USDC] });

    let shown = onChain(await balance(agent)).usdc;
    for (let tries = 0; shown !== '3' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      shown = onChain(await balance(agent)).usdc;
    }
    expect(shown).toBe('3');
  });
});
