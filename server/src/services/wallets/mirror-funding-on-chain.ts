/**
 * Sandbox only: when an owner funds an agent in the ledger, the same amount of test USDC is
 * minted to the agent's EVM address (with gas ETH), so the agent's x402 payments settle on the
 * sandbox chain as they would on a real one. On a real network nothing is minted: there the
 * owner sends USDC to the agent's address.
 *
 * It runs after the funding committed and never undoes it: the ledger is the record. A mint
 * that fails is logged (x402 payments then fail with "fund the agent" until it is funded
 * again); a replayed funding mints nothing.
 */
import type { Currency } from '@purser/core';
import type { Address } from 'viem';
import type { AppDeps } from '../../deps';

export async function mirrorFundingOnChain(
  deps: Pick<AppDeps, 'db' | 'chain' | 'logger'>,
  funding: { agentId: string; amount: bigint; currency: Currency; replayed: boolean },
): Promise<void> {
  if (!deps.chain.info.sandbox || funding.replayed || funding.currency !== 'USDC') return;
  const wallet = await deps.db.prisma.agentWallet.findUnique({ where: { agentId: funding.agentId }, select: { evmWalletAddress: true } });
  if (!wallet?.evmWalletAddress) return;
  try {
    await deps.chain.fundSandboxAddress(wallet.evmWalletAddress as Address, funding.amount);
  } catch (error) {
    deps.logger.error({ err: error, agentId: funding.agentId }, 'could not mint sandbox USDC for an agent funding');
  }
}
