/**
 * The `upto` scheme's chain reads: which transaction settled an authorisation and how much USDC it
 * moved to the payee (the capture's amount). The chain is the witness, not the seller.
 */
import { PERMIT2_ADDRESS, x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { decodeFunctionData, isAddressEqual, parseEventLogs, type Address, type Hex, type PublicClient } from 'viem';
import { fiatTokenAbi } from '../../../chain/network/fiat-token-abi';
import { permit2Abi, permit2NonceSlot } from '../../../chain/network/permit2-abi';

/**
 * The transaction that used an `upto` authorisation, and what it moved. The chain is the witness,
 * not the seller: candidates are the token's Transfer logs from the owner to the payee; the one
 * whose transaction called x402's upto proxy with this Permit2 nonce is it, and the amount is the
 * sum of that transaction's Transfer logs from the owner to the payee. A transaction the proxy
 * was reached through indirectly (a batching contract) is recognised instead by the nonce's bit
 * flipping in that transaction's block.
 */
export async function findUptoSettlement(
  publicClient: PublicClient,
  usdcAddress: Address,
  { owner, payTo, nonce, fromBlock }: { owner: Address; payTo: Address; nonce: bigint; fromBlock: bigint },
): Promise<{ transactionHash: Hex; amount: bigint } | null> {
  const transfers = await publicClient.getContractEvents({ address: usdcAddress, abi: fiatTokenAbi, eventName: 'Transfer', args: { from: owner, to: payTo }, fromBlock, toBlock: 'latest' });
  const byTransaction = new Map<Hex, { amount: bigint; blockNumber: bigint }>();
  for (const log of transfers) {
    const seen = byTransaction.get(log.transactionHash) ?? { amount: 0n, blockNumber: log.blockNumber };
    byTransaction.set(log.transactionHash, { ...seen, amount: seen.amount + log.args.value! });
  }
  const { wordPosition, mask } = permit2NonceSlot(nonce);
  const nonceSetAt = async (blockNumber: bigint) =>
    ((await publicClient.readContract({ address: PERMIT2_ADDRESS, abi: permit2Abi, functionName: 'nonceBitmap', args: [owner, wordPosition], blockNumber })) & mask) !== 0n;
  for (const [transactionHash, { amount, blockNumber }] of byTransaction) {
    const transaction = await publicClient.getTransaction({ hash: transactionHash });
    const permit = uptoPermitIn(transaction);
    if (permit) {
      if (permit.nonce === nonce) return { transactionHash, amount };
      continue;
    }
    if ((await nonceSetAt(blockNumber)) && !(await nonceSetAt(blockNumber - 1n))) return { transactionHash, amount };
  }
  return null;
}

/** The permit a call of the upto proxy settles (its nonce and owner); null for any other transaction. */
function uptoPermitIn(transaction: { to: Address | null; input: Hex }): { nonce: bigint; owner: Address } | null {
  if (!transaction.to || !isAddressEqual(transaction.to, x402UptoPermit2ProxyAddress)) return null;
  const call = decodeFunctionData({ abi: x402UptoPermit2ProxyABI, data: transaction.input });
  // settle(permit, amount, owner, …) or settleWithPermit(permit2612, permit, amount, owner, …)
  const [permit, owner] = (call.functionName === 'settle' ? [call.args[0], call.args[2]] : [call.args[1], call.args[3]]) as [{ nonce: bigint }, Address];
  return { nonce: permit.nonce, owner };
}

/**
 * The same settlement read from one transaction a seller named: the USDC it moved from `owner` to
 * `payTo`, when it succeeded and called the upto proxy with `owner`'s permit of nonce `nonce`;
 * null otherwise (another transaction, reverted, not mined yet).
 */
export async function uptoSettlementIn(
  publicClient: PublicClient,
  usdcAddress: Address,
  transactionHash: Hex,
  { owner, payTo, nonce }: { owner: Address; payTo: Address; nonce: bigint },
): Promise<{ transactionHash: Hex; amount: bigint } | null> {
  const [transaction, receipt] = await Promise.all([publicClient.getTransaction({ hash: transactionHash }), publicClient.getTransactionReceipt({ hash: transactionHash })]).catch(() => [null, null]);
  if (!transaction || receipt?.status !== 'success') return null;
  const permit = uptoPermitIn(transaction);
  if (!permit || permit.nonce !== nonce || !isAddressEqual(permit.owner, owner)) return null;
  const amount = parseEventLogs({ abi: fiatTokenAbi, eventName: 'Transfer', logs: receipt.logs })
    .filter((log) => isAddressEqual(log.address, usdcAddress) && isAddressEqual(log.args.from, owner) && isAddressEqual(log.args.to, payTo))
    .reduce((sum, log) => sum + log.args.value, 0n);
  return amount > 0n ? { transactionHash, amount } : null;
}
