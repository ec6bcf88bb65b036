/**
 * GET /balance: the agent's USDC and USDT, as the ledger holds them (what the agent may spend
 * through the payment workflow) and as its EVM address holds them on the configured network
 * (what x402 sellers are paid from). The ledger figures are exact and always there; when the
 * chain cannot be read, its figures are null and `on_chain_error` says why.
 */
import { toDecimalString, toDollars, type AgentBalanceView } from '@purser/core';
import type { Address } from 'viem';
import type { AppDeps } from '../../deps';
import type { AgentWalletSnapshot, AuthenticatedAgent } from '../agents/authenticate-agent';
import { networkView } from './network-view';

interface WalletRow {
  balance_usdc: bigint;
  balance_usdt: bigint;
  evm_wallet_address: string | null;
}

/**
 * `wallet`: the wallet as the request's authentication read it (GET /balance, which does nothing
 * else, answers it and sends no statement of its own). Without it the wallet is read here, as the
 * MCP tool must: a batch may have paid before it asks.
 */
export async function getAgentBalance(
  deps: Pick<AppDeps, 'db' | 'chain' | 'logger'>,
  agent: AuthenticatedAgent,
  wallet?: AgentWalletSnapshot,
): Promise<AgentBalanceView> {
  const { balanceUsdc, balanceUsdt, evmAddress } = wallet ?? (await readWallet(deps, agent));
  const address = evmAddress as Address | null;

  let usdc: bigint | null = null;
  let eth: bigint | null = null;
  let onChainError: string | null = null;
  if (address) {
    try {
      ({ usdc, eth } = await deps.chain.balancesOf(address));
    } catch (error) {
      deps.logger.warn({ err: error, agentId: agent.agentId }, 'could not read on-chain balances');
      onChainError = `The ${deps.chain.info.displayName} node could not be reached; on-chain balances are unknown`;
    }
  }

  return {
    agent_id: agent.agentId,
    did: agent.did,
    wallet_address: address,
    balances: {
      USDC: {
        ledger: toDollars(balanceUsdc),
        ledger_exact: toDecimalString(balanceUsdc),
        on_chain: usdc === null ? null : toDollars(usdc),
        on_chain_exact: usdc === null ? null : toDecimalString(usdc),
      },
      // No USDT contract is deployed on the sandbox or Base Sepolia: USDT lives in the ledger.
      USDT: { ledger: toDollars(balanceUsdt), ledger_exact: toDecimalString(balanceUsdt), on_chain: null, on_chain_exact: null },
    },
    eth_wei: eth === null ? null : eth.toString(),
    network: networkView(deps.chain),
    on_chain_error: onChainError,
  };
}

async function readWallet(deps: Pick<AppDeps, 'db'>, agent: AuthenticatedAgent): Promise<AgentWalletSnapshot> {
  // The wallet alone, in one statement: the key's check has already found the agent live and its
  // owner's. Plain SQL: on this hot path a Prisma model query costs about twice the CPU.
  const [row] = await deps.db.prisma.$queryRaw<WalletRow[]>`
    SELECT w.balance_usdc, w.balance_usdt, w.evm_wallet_address
      FROM agent_wallets w JOIN agents a ON a.id = w.agent_id
     WHERE w.agent_id = ${agent.agentId}::uuid AND a.owner_id = ${agent.ownerId}::uuid AND a.status <> 'deleted'`;
  return { balanceUsdc: row?.balance_usdc ?? 0n, balanceUsdt: row?.balance_usdt ?? 0n, evmAddress: row?.evm_wallet_address ?? null };
}
