// Agents for the console journeys, made over the owner REST API with the owner's access token
// (not through the pages those journeys are not about), and their calls to the agent API.
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { TestOwner } from './owner';

export const AGENT_API = '/functions/v1/mcp-server';
export const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

export interface TestAgent {
  id: string;
  name: string;
  did: string;
  apiKey: string;
}

const bearer = (owner: TestOwner) => ({ Authorization: `Bearer ${owner.accessToken}` });

async function ok(response: APIResponse, what: string): Promise<unknown> {
  expect(response.ok(), `${what}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

/** An agent with its wallet funded from a top-up of the owner's wallet. */
export async function createFundedAgent(
  request: APIRequestContext,
  owner: TestOwner,
  options: {
    name: string;
    fund: number;
    /** The owner's top-up, when it should leave money in the owner's wallet; `fund` by default. */
    ownerTopUp?: number;
    maxTransaction?: number;
    dailyLimit?: number;
    approvalThreshold?: number | null;
  },
): Promise<TestAgent> {
  const created = (await ok(
    await request.post('/api/v1/agents', {
      headers: bearer(owner),
      data: { name: options.name, description: 'Made by a console journey', max_transaction_amount: options.maxTransaction ?? 100, max_daily_limit: options.dailyLimit ?? 1000 },
    }),
    'create agent',
  )) as { agent: { id: string; did: string }; api_key: { key: string } };
  const agent = { id: created.agent.id, name: options.name, did: created.agent.did, apiKey: created.api_key.key };
  if (options.approvalThreshold !== undefined) {
    await ok(
      await request.patch(`/api/v1/agents/${agent.id}/spending-rules`, { headers: bearer(owner), data: { approval_threshold: options.approvalThreshold } }),
      'set the approval threshold',
    );
  }
  const topUp = options.ownerTopUp ?? options.fund;
  if (topUp > 0) {
    await ok(await request.post('/api/v1/wallet/top-up', { headers: bearer(owner), data: { amount: topUp, currency: 'USDC' } }), 'top up');
  }
  if (options.fund > 0) {
    await ok(
      await request.post('/api/v1/wallet/fund-agent', { headers: bearer(owner), data: { agent_id: agent.id, amount: options.fund, currency: 'USDC' } }),
      'fund the agent',
    );
  }
  return agent;
}

export const agentHeaders = (agent: TestAgent, key = agent.apiKey) => ({ 'X-Agent-DID': agent.did, Authorization: `Bearer ${key}` });

/** POST /payment as the agent, with an Idempotency-Key so the call can be repeated. */
export function agentPay(
  request: APIRequestContext,
  agent: TestAgent,
  payment: { amount: number; description: string; idempotencyKey: string; metadata?: Record<string, unknown> },
): Promise<APIResponse> {
  return request.post(`${AGENT_API}/payment`, {
    headers: { ...agentHeaders(agent), 'Idempotency-Key': payment.idempotencyKey },
    data: { amount: payment.amount, currency: 'USDC', to_address: PAYEE, description: payment.description, category: 'data_api', metadata: payment.metadata ?? {} },
  });
}

/** The agent's USDC balance on the ledger, in atomic units (6 decimals), as the agent API reports it. */
export async function agentLedgerUsdc(request: APIRequestContext, agent: TestAgent): Promise<bigint> {
  const body = (await ok(await request.get(`${AGENT_API}/balance`, { headers: agentHeaders(agent) }), 'balance')) as { balances: { USDC: { ledger_exact: string } } };
  return atomicUsdc(body.balances.USDC.ledger_exact);
}

/** "12.340000" dollars as atomic units (6 decimals), exactly. */
export function atomicUsdc(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
}
