/**
 * GET /balance: the agent's USDC and USDT, as the ledger holds them (what the agent may spend
 * through the payment workflow) and as its EVM address holds them on the configured network
 * (what x402 sellers are paid from). The ledger figures are exact and always there; when the
 * chain cannot be read, its figures are null and `on_chain_error` says why.
 */
import { toDecimalString, toDollars, type AgentBalanceView } from '@purser/core';
import type { Address } from 'viem';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { networkView } from './network-view';

export async function getAgentBalance(deps: Pick<AppDeps, 'db' | 'chain' | 'logger'>, agent: AuthenticatedAgent): Promise<AgentBalanceView> {
  // The wallet alone, in one statement: the key's check has already found the agent live and its owner's.
  const wallet = await deps.db.prisma.agentWallet.findFirst({
    where: { agentId: agent.agentId, agent: { ownerId: agent.ownerId, status: { not: 'deleted' } } },
    select: { balanceUsdc: true, balanceUsdt: true, evmWalletAddress: true },
  });
  const address = wallet?.evmWalletAddress as Address | null | undefined;

  let usdc: bigint | null = null;
  let eth: bigint | null = null;
  let onChainError: string | null = null;
  if (address) {
    try {
      [usdc, eth] = await Promise.all([deps.chain.usdcBalanceOf(address), deps.chain.ethBalanceOf(address)]);
    } catch (error) {
      deps.logger.warn({ err: error, agentId: agent.agentId }, 'could not read on-chain balances');
      onChainError = `The ${deps.chain.info.displayName} node could not be reached; on-chain balances are unknown`;
    }
  }

  return {
    agent_id: agent.agentId,
    did: agent.did,
    wallet_address: address ?? null,
    balances: {
      USDC: {
        ledger: toDollars(wallet?.balanceUsdc ?? 0n),
        ledger_exact: toDecimalString(wallet?.balanceUsdc ?? 0n),
        on_chain: usdc === null ? null : toDollars(usdc),
        on_chain_exact: usdc === null ? null : toDecimalString(usdc),
      },
      // No USDT contract is deployed on the sandbox or Base Sepolia: USDT lives in the ledger.
      USDT: { ledger: toDollars(wallet?.balanceUsdt ?? 0n), ledger_exact: toDecimalString(wallet?.balanceUsdt ?? 0n), on_chain: null, on_chain_exact: null },
    },
    eth_wei: eth === null ? null : eth.toString(),
    network: networkView(deps.chain),
    on_chain_error: onChainError,
  };
}
