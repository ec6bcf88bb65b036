// Two agents of one signed-up owner, the payer funded, made through the REST API as a client
// would; and an agent's USDC ledger balance read through the agent API. Shared by the tests
// that run clients (docs recipes, n8n) against a started product.
import type { FastifyInstance } from 'fastify';
import type { Address } from 'viem';
import { expect } from 'vitest';
import { parseAmount } from '@purser/core';
import { signUpTestOwner } from './owners';
import type { TemporalTestEnv } from './temporal-env';

export interface PayingAgent {
  id: string;
  did: string;
  key: string;
  walletAddress: string;
  evmAddress: Address;
}

/** An owner topped up with 1000, a payer funded with 50 and a payee, both capped at 25 / 100. */
export async function payerAndPayee(env: TemporalTestEnv, names: { payer: string; payee: string }): Promise<{ payer: PayingAgent; payee: PayingAgent }> {
  const { app, deps } = env.testApp;
  const owner = await signUpTestOwner(app, deps.db.prisma);
  const call = async (path: string, payload: object) => {
    const response = await app.inject({ method: 'POST', url: path, headers: owner.headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as unknown;
  };
  const createAgent = async (name: string): Promise<PayingAgent> => {
    const created = (await call('/api/v1/agents', { name, max_transaction_amount: 25, max_daily_limit: 100 })) as {
      agent: { id: string; did: string; agent_wallets: { wallet_address: string; evm_wallet_address: Address } };
      api_key: { key: string };
    };
    const wallet = created.agent.agent_wallets;
    return { id: created.agent.id, did: created.agent.did, key: created.api_key.key, walletAddress: wallet.wallet_address, evmAddress: wallet.evm_wallet_address };
  };
  await call('/api/v1/wallet/top-up', { amount: 1000 });
  const payer = await createAgent(names.payer);
  const payee = await createAgent(names.payee);
  // Funding mints the same test USDC to the payer's address, which x402 pays from.
  await env.runWorker(() => call('/api/v1/wallet/fund-agent', { agent_id: payer.id, amount: 50 }));
  return { payer, payee };
}

/** An exact dollar figure the API answers ("49.485", "0") in atomic units, so sums are exact. */
export function atomicDollars(text: string): bigint {
  return parseAmount(text, { allowZero: true });
}

/** The agent's USDC ledger balance in atomic units, read through the agent API as the agent would. */
export async function agentLedgerUsdc(app: FastifyInstance, agent: Pick<PayingAgent, 'did' | 'key'>): Promise<bigint> {
  const response = await app.inject({
    method: 'GET',
    url: '/functions/v1/mcp-server/balance',
    headers: { 'x-agent-did': agent.did, authorization: `Bearer ${agent.key}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return atomicDollars((response.json() as { balances: { USDC: { ledger_exact: string } } }).balances.USDC.ledger_exact);
}
