/**
 * GET /info: who the agent is and what it may do: DID, credential, wallet addresses, spending
 * rules with what is spent and left of them, and how it pays x402 sellers here (network,
 * scheme, asset, endpoints).
 */
import { AGENT_API_PREFIX, parseAmount, toDecimalString, toDollars, type AgentInfoView } from '@purser/core';
import { spentByAgent } from '../payments/gate-inputs';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { getAgent } from '../agents/get-agent';
import { networkView } from './network-view';
import { PAYABLE_SCHEMES } from '@purser/core';

export async function getAgentInfo(deps: Pick<AppDeps, 'db' | 'chain' | 'publicUrl'>, agent: AuthenticatedAgent): Promise<AgentInfoView> {
  const view = await getAgent(deps, agent.ownerId, agent.agentId);
  // The same figures the policy gate counts against the daily limit (a rolling 24 hours).
  const { spentInWindow, spentThisMonth } = await spentByAgent(deps.db.prisma, agent.agentId, new Date());
  const dailyLimit = view.spending_rules ? parseAmount(view.spending_rules.max_daily_limit_exact) : null;
  const remaining = dailyLimit === null ? null : dailyLimit > spentInWindow ? dailyLimit - spentInWindow : 0n;
  const wallet = view.agent_wallets;
  const base = `${deps.publicUrl}${AGENT_API_PREFIX}`;
  return {
    id: view.id,
    did: view.did,
    name: view.name,
    description: view.description,
    status: view.status,
    kya_tier: view.kya_tier,
    wallet_addresses: { base: wallet?.evm_wallet_address ?? null, legacy: wallet?.wallet_address ?? null },
    spending_rules: view.spending_rules,
    spending: {
      spent_last_24h: toDollars(spentInWindow),
      spent_last_24h_exact: toDecimalString(spentInWindow),
      remaining_daily: remaining === null ? null : toDollars(remaining),
      remaining_daily_exact: remaining === null ? null : toDecimalString(remaining),
      spent_this_month: toDollars(spentThisMonth),
      spent_this_month_exact: toDecimalString(spentThisMonth),
    },
    verifiable_credential: view.verifiable_credential,
    network: networkView(deps.chain),
    x402: {
      network: deps.chain.info.network,
      network_v1_name: deps.chain.info.v1Name,
      // exact in both versions; upto and batch-settlement (channels) in x402 v2.
      schemes: [...PAYABLE_SCHEMES],
      asset: deps.chain.info.usdcAddress,
      x402_versions: [2, 1],
      endpoints: {
        requirements: `${base}/x402/requirements`,
        sign_payment: `${base}/x402/sign-payment`,
        proxy: `${base}/x402/proxy`,
        fetch: `${base}/x402/fetch`,
      },
    },
  };
}
