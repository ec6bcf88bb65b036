/**
 * The `upto` scheme's chain reads: which transaction settled an authorisation and how much USDC
 * the upto proxy moved for it (the capture's amount), and whether the agent's own cancel is what
 * used its nonce. The chain is the witness, not the seller.
 *
 * x402's upto proxy logs `Settled()` (or `SettledWithPermit()`) right after Permit2's transfer, and
 * names nothing in it: the log just before it, in the same transaction, is the USDC Transfer that
 * Permit2 made (FiatToken's transferFrom logs nothing else), from the permit's owner to the
 * witness's payee, of the amount settled. That pair is a settlement, and nothing else is: not any
 * other transfer from the payer to the payee, in the same transaction or block. Which permit a pair
 * settled: a transaction that calls the proxy itself names the permit in its calldata; one that
 * reached the proxy through another contract (a batch) settled this permit only if its nonce was
 * used in that block and the block holds no other settlement from this owner to this payee that it
 * could be. Two or more such are ambiguous (the logs cannot tell their amounts apart): a reading an
 * operator must resolve, never a guess.
 */
import { PERMIT2_ADDRESS, x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { decodeFunctionData, isAddressEqual, parseEventLogs, type Address, type Hex, type PublicClient } from 'viem';
import { fiatTokenAbi } from '../../../chain/network/fiat-token-abi';
import { permit2Abi, permit2NonceSlot } from '../../../chain/network/permit2-abi';

/** An `upto` authorisation as the chain knows it: the permit's owner and nonce, and the witness's payee. */
export interface UptoPermit {
  owner: Address;
  payTo: Address;
  nonce: bigint;
}

/** What the chain says settled a permit: one transaction and what the proxy moved, or several it cannot tell apart. */
export type UptoSettlement = { kind: 'settled'; transactionHash: Hex; amount: bigint } | { kind: 'ambiguous'; transactionHashes: Hex[] };

/** One settlement by the upto proxy from the owner to the payee, as a block's logs show it. */
interface ProxySettlement {
  transactionHash: Hex;
  transactionIndex: number;
  amount: bigint;
  /** The permit's nonce when the transaction called the proxy itself; null when it reached it through another contract. */
  nonce: bigint | null;
}

/**
 * The settlement of `permit` between `fromBlock` and `toBlock` (the decision's block: nothing later
 * is read); null while none is visible. Candidates are the blocks with a USDC Transfer from the
 * owner to the payee; in each, only the proxy's own settlements count.
 */
export async function findUptoSettlement(
  publicClient: PublicClient,
  usdcAddress: Address,
  { fromBlock, toBlock, ...permit }: UptoPermit & { fromBlock: bigint; toBlock: bigint },
): Promise<UptoSettlement | null> {
  const transfers = await publicClient.getContractEvents({
    address: usdcAddress,
    abi: fiatTokenAbi,
    eventName: 'Transfer',
    args: { from: permit.owner, to: permit.payTo },
    fromBlock,
    toBlock,
  });
  const blocks = new Map(transfers.map((log) => [log.blockHash, log.blockNumber]));
  for (const [blockHash, blockNumber] of blocks) {
    const found = await settlementInBlock(publicClient, usdcAddress, permit, blockHash, blockNumber);
    if (found) return found;
  }
  return null;
}

/**
 * The same reading of one transaction a seller named: its settlement of `permit`, when it is one
 * (a direct call of the proxy with this permit, or a batch whose settlement the block shows is
 * this permit's); null otherwise (another transaction, reverted, not mined yet).
 */
export async function uptoSettlementIn(publicClient: PublicClient, usdcAddress: Address, transactionHash: Hex, permit: UptoPermit): Promise<UptoSettlement | null> {
  const receipt = await publicClient.getTransactionReceipt({ hash: transactionHash }).catch(() => null);
  if (receipt?.status !== 'success') return null;
  const found = await settlementInBlock(publicClient, usdcAddress, permit, receipt.blockHash, receipt.blockNumber);
  return found?.kind === 'settled' && found.transactionHash === transactionHash ? found : null;
}

/**
 * True when the agent's cancel `cancelTransactionHash` is what used the permit's nonce: it
 * succeeded by block `atBlock` and logged Permit2's UnorderedNonceInvalidation of this owner's
 * word with the nonce's bit, the nonce was unused in the block before it, and no settlement by the
 * proxy from this owner to this payee came before it in its own block. A nonce used by a seller's
 * settlement racing the cancel is that settlement's (found and captured), never a cancel.
 */
export async function cancelUsedNonce(publicClient: PublicClient, usdcAddress: Address, permit: UptoPermit, cancelTransactionHash: Hex, atBlock: bigint): Promise<boolean> {
  const receipt = await publicClient.getTransactionReceipt({ hash: cancelTransactionHash }).catch(() => null);
  if (receipt?.status !== 'success' || receipt.blockNumber > atBlock) return false;
  const { wordPosition, mask } = permit2NonceSlot(permit.nonce);
  const invalidated = parseEventLogs({ abi: permit2Abi, eventName: 'UnorderedNonceInvalidation', logs: receipt.logs }).some(
    (log) => isAddressEqual(log.address, PERMIT2_ADDRESS) && isAddressEqual(log.args.owner, permit.owner) && log.args.word === wordPosition && (log.args.mask & mask) !== 0n,
  );
  if (!invalidated || (await nonceUsedAt(publicClient, permit, receipt.blockNumber - 1n))) return false;
  const before = (await proxySettlementsIn(publicClient, usdcAddress, permit, receipt.blockHash)).filter(
    (settlement) => settlement.transactionIndex < receipt.transactionIndex && (settlement.nonce === null || settlement.nonce === permit.nonce),
  );
  return before.length === 0;
}

/** The settlement of `permit` in one block, by the rules above; null when the block holds none. */
async function settlementInBlock(publicClient: PublicClient, usdcAddress: Address, permit: UptoPermit, blockHash: Hex, blockNumber: bigint): Promise<UptoSettlement | null> {
  const settlements = await proxySettlementsIn(publicClient, usdcAddress, permit, blockHash);
  const direct = settlements.find((settlement) => settlement.nonce === permit.nonce);
  if (direct) return { kind: 'settled', transactionHash: direct.transactionHash, amount: direct.amount };
  const throughOthers = settlements.filter((settlement) => settlement.nonce === null);
  if (throughOthers.length === 0 || !(await usedInBlock(publicClient, permit, blockNumber))) return null;
  if (throughOthers.length > 1) return { kind: 'ambiguous', transactionHashes: [...new Set(throughOthers.map((settlement) => settlement.transactionHash))] };
  const [only] = throughOthers;
  return { kind: 'settled', transactionHash: only!.transactionHash, amount: only!.amount };
}

/**
 * The upto proxy's settlements from the permit's owner to its payee in one block (read by its hash:
 * a node that does not have the block refuses, it does not answer "nothing"): each proxy log paired
 * with the USDC Transfer logged just before it in the same transaction.
 */
async function proxySettlementsIn(publicClient: PublicClient, usdcAddress: Address, permit: UptoPermit, blockHash: Hex): Promise<ProxySettlement[]> {
  const [transfers, proxyLogs] = await Promise.all([
    publicClient.getContractEvents({ address: usdcAddress, abi: fiatTokenAbi, eventName: 'Transfer', args: { from: permit.owner, to: permit.payTo }, blockHash }),
    publicClient.getContractEvents({ address: x402UptoPermit2ProxyAddress, abi: x402UptoPermit2ProxyABI, blockHash }),
  ]);
  const settlements: ProxySettlement[] = [];
  for (const log of proxyLogs) {
    if (log.eventName !== 'Settled' && log.eventName !== 'SettledWithPermit') continue;
    const transfer = transfers.find((candidate) => candidate.transactionHash === log.transactionHash && candidate.logIndex === log.logIndex - 1);
    if (!transfer) continue;
    const transaction = await publicClient.getTransaction({ hash: log.transactionHash });
    const called = uptoPermitIn(transaction);
    settlements.push({
      transactionHash: log.transactionHash,
      transactionIndex: log.transactionIndex,
      amount: transfer.args.value!,
      nonce: called && isAddressEqual(called.owner, permit.owner) ? called.nonce : null,
    });
  }
  return settlements;
}

/** The permit a call of the upto proxy settles (its nonce and owner); null for any other transaction. */
function uptoPermitIn(transaction: { to: Address | null; input: Hex }): { nonce: bigint; owner: Address } | null {
  if (!transaction.to || !isAddressEqual(transaction.to, x402UptoPermit2ProxyAddress)) return null;
  let call;
  try {
    call = decodeFunctionData({ abi: x402UptoPermit2ProxyABI, data: transaction.input });
  } catch {
    return null;
  }
  if (call.functionName !== 'settle' && call.functionName !== 'settleWithPermit') return null;
  // settle(permit, amount, owner, …) or settleWithPermit(permit2612, permit, amount, owner, …)
  const [permit, owner] = (call.functionName === 'settle' ? [call.args[0], call.args[2]] : [call.args[1], call.args[3]]) as [{ nonce: bigint }, Address];
  return { nonce: permit.nonce, owner };
}

/** Whether the permit's nonce was first used in block `blockNumber`: unused at the block before, used at it. */
async function usedInBlock(publicClient: PublicClient, permit: UptoPermit, blockNumber: bigint): Promise<boolean> {
  return (await nonceUsedAt(publicClient, permit, blockNumber)) && !(await nonceUsedAt(publicClient, permit, blockNumber - 1n));
}

async function nonceUsedAt(publicClient: PublicClient, { owner, nonce }: UptoPermit, blockNumber: bigint): Promise<boolean> {
  if (blockNumber < 0n) return false;
  const { wordPosition, mask } = permit2NonceSlot(nonce);
  const word = await publicClient.readContract({ address: PERMIT2_ADDRESS, abi: permit2Abi, functionName: 'nonceBitmap', args: [owner, wordPosition], blockNumber });
  return (word & mask) !== 0n;
}
