/**
 * An owner signed up through the API (invited as an operator would), with agents created and
 * funded the way owners fund them, for suites that pay through the product's processes.
 */
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import type { PrismaClient } from '@purser/db';
import { createInvitation } from '../../src/services/invitations/create-invitation';
import type { ChainView, FundedAgent } from './fault-invariants';
import { waitFor } from './product-processes';
import type { ClientAgent } from './retrying-client';

export type PayingAgent = FundedAgent & ClientAgent;

export interface FundedOwner {
  /** The owner's access token, e.g. for a realtime subscription. */
  token: string;
  agents: PayingAgent[];
}

export interface FundedAgentsOptions {
  appUrl: string;
  prisma: PrismaClient;
  chain: ChainView;
  count: number;
  /** Each agent's funding, in whole USDC. */
  funding: number;
  label: string;
}

export async function createFundedAgents({ appUrl, prisma, chain, count, funding, label }: FundedAgentsOptions): Promise<FundedOwner> {
  const call = async (headers: Record<string, string>, url: string, body: object): Promise<Record<string, unknown>> => {
    const response = await fetch(`${appUrl}${url}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300) throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const invitation = await createInvitation(prisma, { maxUses: 1, expiresAt: new Date(Date.now() + 60_000) });
  const session = await call({}, '/auth/v1/signup', {
    email: `${randomUUID()}@example.test`,
    password: 'correct horse battery',
    data: { full_name: `${label} Owner`, invitation_code: invitation.code },
  });
  const token = session.access_token as string;
  const owner = { authorization: `Bearer ${token}` };
  await call(owner, '/api/v1/wallet/top-up', { amount: count * funding });
  const agents: PayingAgent[] = [];
  for (let i = 0; i < count; i++) {
    const created = (await call(owner, '/api/v1/agents', { name: `${label} agent ${i}`, max_transaction_amount: 5, max_daily_limit: 500 })) as {
      agent: { id: string; did: string; agent_wallets: { evm_wallet_address: Address } };
      api_key: { key: string };
    };
    await call(owner, '/api/v1/wallet/fund-agent', { agent_id: created.agent.id, amount: funding });
    agents.push({
      id: created.agent.id,
      address: created.agent.agent_wallets.evm_wallet_address,
      funded: BigInt(funding) * 1_000_000n,
      headers: { 'x-agent-did': created.agent.did, authorization: `Bearer ${created.api_key.key}` },
    });
  }
  // Funding mints the same USDC on chain, best effort after the ledger commit: wait for it.
  for (const agent of agents) {
    await waitFor(`agent ${agent.id}'s funding minted on chain`, async () => ((await chain.usdcBalanceOf(agent.address)) === agent.funded ? true : undefined), 15_000);
  }
  return { token, agents };
}
