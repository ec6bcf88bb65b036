/**
 * GET /info: who the agent is and what it may do: DID, credential, wallet addresses, spending
 * rules, and how it pays x402 sellers here (network, scheme, asset, endpoints).
 */
import { AGENT_API_PREFIX, type AgentInfoView } from '@purser/core';
import type { AppDeps } from '../../trpc/context';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { getAgent } from '../agents/get-agent';
import { networkView } from './network-view';

export async function getAgentInfo(deps: Pick<AppDeps, 'db' | 'chain' | 'publicUrl'>, agent: AuthenticatedAgent): Promise<AgentInfoView> {
  const view = await getAgent(deps, agent.ownerId, agent.agentId);
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
    verifiable_credential: view.verifiable_credential,
    network: networkView(deps.chain),
    x402: {
      network: deps.chain.info.network,
      network_v1_name: deps.chain.info.v1Name,
      schemes: ['exact'],
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
