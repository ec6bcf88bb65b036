/**
 * The payer's way out of an x402 batch-settlement channel whose seller does not refund: ask the
 * channel contract for the unclaimed balance (initiateWithdraw), then take it once the channel's
 * withdraw delay has passed (finalizeWithdraw). The seller may still claim what its vouchers
 * allow during the delay; the contract pays the payer only what is unclaimed when it finalizes.
 * Both transactions are the payer's own (the agent's key pays their gas; the sandbox gives every
 * funded agent gas).
 */
import { BATCH_SETTLEMENT_ADDRESS, type ChannelConfig } from '@x402/evm';
import { createWalletClient, http, type Hex, type LocalAccount } from 'viem';
import type { EvmChain } from '../../../chain/evm-chain';
import { x402BatchSettlementAbi } from '../../../chain/sandbox/contracts/x402-batch-settlement';

const channels = { address: BATCH_SETTLEMENT_ADDRESS, abi: x402BatchSettlementAbi } as const;

/** The channel's pending withdrawal and when it can be finalized (unix seconds); null when none. */
export async function pendingChannelWithdrawal(chain: EvmChain, channelId: Hex, withdrawDelay: number): Promise<{ amount: bigint; finalizableAt: bigint } | null> {
  const [amount, initiatedAt] = await chain.publicClient.readContract({ ...channels, functionName: 'pendingWithdrawals', args: [channelId] });
  return initiatedAt === 0 ? null : { amount, finalizableAt: BigInt(initiatedAt) + BigInt(withdrawDelay) };
}

async function send(chain: EvmChain, account: LocalAccount, call: (wallet: ReturnType<typeof walletOf>) => Promise<Hex>, what: string): Promise<Hex> {
  const hash = await call(walletOf(chain, account));
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${what} reverted (${hash})`);
  return hash;
}

function walletOf(chain: EvmChain, account: LocalAccount) {
  return createWalletClient({ account, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
}

export function initiateChannelWithdrawal(chain: EvmChain, account: LocalAccount, config: ChannelConfig, amount: bigint): Promise<Hex> {
  return send(chain, account, (wallet) => wallet.writeContract({ ...channels, functionName: 'initiateWithdraw', args: [config, amount] }), 'initiateWithdraw');
}

export function finalizeChannelWithdrawal(chain: EvmChain, account: LocalAccount, config: ChannelConfig): Promise<Hex> {
  return send(chain, account, (wallet) => wallet.writeContract({ ...channels, functionName: 'finalizeWithdraw', args: [config] }), 'finalizeWithdraw');
}
