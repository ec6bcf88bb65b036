/**
 * The EvmChain (evm-chain.ts) over a public client, for a real network and the sandbox alike: the
 * sandbox adds its token admin (the only minter), anvil's test actions and the demo seller, and
 * tops up the gas of the addresses it funds (ensureGas, which the sandbox's facilitator wallet gets
 * too). Beside it, the reads that find an `upto` settlement on chain, which EvmChain.uptoSettlement
 * and uptoSettlementIn answer with.
 */
import { PERMIT2_ADDRESS, x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from '@x402/evm';
import {
  type Address,
  createWalletClient,
  decodeFunctionData,
  type Hex,
  isAddressEqual,
  http,
  parseEther,
  parseEventLogs,
  type PublicClient,
  type TestClient,
} from 'viem';
import type { EvmChain, EvmNetworkInfo } from '../evm-chain';
import type { ChainReadCache } from './chain-read-cache';
import { fiatTokenAbi } from './fiat-token-abi';
import { permit2Abi, permit2NonceSlot } from './permit2-abi';
import type { SerialWallet } from './serial-wallet';

/** Gas money for sandbox addresses: topped up to GAS_TOP_UP when below GAS_MINIMUM. */
const GAS_MINIMUM = parseEther('0.1');
const GAS_TOP_UP = parseEther('1');

export interface ChainParts {
  info: EvmNetworkInfo;
  rpcUrl: string;
  publicClient: PublicClient;
  facilitator: EvmChain['facilitator'];
  /** Caches balancesOf; publicClient's transport reports to it. */
  reads: ChainReadCache;
  /** The sandbox's token admin (the only minter), anvil's test actions and the demo seller. */
  sandbox: { admin: SerialWallet; testClient: TestClient; seller: Address } | null;
  /** Pays the gas of cancelAuthorization: the sandbox admin, or the in-process facilitator's account. */
  gasPayer?: SerialWallet | null;
  /** The anvil this server started and supervises. */
  sandboxProcess?: EvmChain['sandboxProcess'];
  close: () => Promise<void>;
}

export function assembleChain({ info, rpcUrl, publicClient, facilitator, reads, sandbox, gasPayer = sandbox?.admin ?? null, sandboxProcess = null, close }: ChainParts): EvmChain {
  const usdc = { address: info.usdcAddress, abi: fiatTokenAbi } as const;
  const usdcBalanceOf = (address: Address) => publicClient.readContract({ ...usdc, functionName: 'balanceOf', args: [address] });
  const ethBalanceOf = (address: Address) => publicClient.getBalance({ address });
  reads.watch(publicClient);
  const permit2 = { address: PERMIT2_ADDRESS, abi: permit2Abi } as const;
  let closed: Promise<void> | undefined;
  let domain: Promise<{ name: string; version: string; chainId: number; verifyingContract: Address }> | undefined;
  async function authorizationOutcome(authorizer: Address, nonce: Hex, fromBlock: bigint) {
    const search = { ...usdc, args: { authorizer, nonce }, fromBlock, toBlock: 'latest' } as const;
    const [used, cancelled] = await Promise.all([
      publicClient.getContractEvents({ ...search, eventName: 'AuthorizationUsed' }),
      publicClient.getContractEvents({ ...search, eventName: 'AuthorizationCanceled' }),
    ]);
    return { used: used[0]?.transactionHash ?? null, cancelled: cancelled[0]?.transactionHash ?? null };
  }
  return {
    info,
    rpcUrl,
    publicClient,
    facilitator,
    sandboxSeller: sandbox?.seller ?? null,
    sandboxProcess,
    usdcBalanceOf,
    ethBalanceOf,
    balancesOf: (address) =>
      reads.read(`balances:${address.toLowerCase()}`, async () => {
        const [usdcBalance, eth] = await Promise.all([usdcBalanceOf(address), ethBalanceOf(address)]);
        return { usdc: usdcBalance, eth };
      }),
    async fundSandboxAddress(address, amount) {
      if (!sandbox) throw new Error(`Minting test USDC is only possible in the sandbox, not on ${info.displayName}`);
      const transactionHash = await sandbox.admin.send((wallet) =>
        wallet.writeContract({ ...usdc, functionName: 'mint', args: [address, amount] }),
      );
      const receipt = await publicClient.waitForTransactionReceipt({ hash: transactionHash });
      if (receipt.status !== 'success') throw new Error(`Minting sandbox USDC to ${address} reverted (${transactionHash})`);
      await ensureGas(publicClient, sandbox.testClient, address);
      return { transactionHash };
    },
    authorizationUsed: (authorizer, nonce) =>
      publicClient.readContract({ ...usdc, functionName: 'authorizationState', args: [authorizer, nonce] }),
    authorizationOutcome,
    async cancelAuthorization({ authorizer, nonce, signature, sender }) {
      const args = [authorizer, nonce, signature] as const;
      let hash: Hex;
      if (gasPayer) {
        hash = await gasPayer.send((wallet) => wallet.writeContract({ ...usdc, functionName: 'cancelAuthorization', args }));
      } else if (sender) {
        const wallet = createWalletClient({ account: sender, chain: publicClient.chain!, transport: http(rpcUrl) });
        hash = await wallet.writeContract({ ...usdc, functionName: 'cancelAuthorization', args });
      } else {
        throw new Error(`No account pays gas for cancelling authorisations on ${info.displayName}`);
      }
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`cancelAuthorization reverted (${hash})`);
      return hash;
    },
    async permit2NonceUsed(owner, nonce) {
      const { wordPosition, mask } = permit2NonceSlot(nonce);
      const word = await publicClient.readContract({ ...permit2, functionName: 'nonceBitmap', args: [owner, wordPosition] });
      return (word & mask) !== 0n;
    },
    uptoSettlement: (request) => findUptoSettlement(publicClient, info.usdcAddress, request),
    uptoSettlementIn: (transactionHash, request) => uptoSettlementIn(publicClient, info.usdcAddress, transactionHash, request),
    async permit2Allowance(owner) {
      const [allowance, permitNonce] = await Promise.all([
        publicClient.readContract({ ...usdc, functionName: 'allowance', args: [owner, PERMIT2_ADDRESS] }),
        publicClient.readContract({ ...usdc, functionName: 'nonces', args: [owner] }),
      ]);
      return { allowance, permitNonce };
    },
    async submitPermit2Allowance({ owner, value, deadline, signature, sender }) {
      const args = [owner, PERMIT2_ADDRESS, value, deadline, signature] as const;
      let hash: Hex;
      if (gasPayer) {
        hash = await gasPayer.send((wallet) => wallet.writeContract({ ...usdc, functionName: 'permit', args }));
      } else if (sender) {
        const wallet = createWalletClient({ account: sender, chain: publicClient.chain!, transport: http(rpcUrl) });
        hash = await wallet.writeContract({ ...usdc, functionName: 'permit', args });
      } else {
        throw new Error(`No account pays gas for Permit2 allowances on ${info.displayName}`);
      }
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`USDC permit for Permit2 reverted (${hash})`);
      return hash;
    },
    async invalidatePermit2Nonce(account, nonce) {
      const { wordPosition, mask } = permit2NonceSlot(nonce);
      const wallet = createWalletClient({ account, chain: publicClient.chain!, transport: http(rpcUrl) });
      const hash = await wallet.writeContract({ ...permit2, functionName: 'invalidateUnorderedNonces', args: [wordPosition, mask] });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`Permit2 invalidateUnorderedNonces reverted (${hash})`);
      return hash;
    },
    async usdcDomain() {
      domain ??= Promise.all([
        publicClient.readContract({ ...usdc, functionName: 'name' }),
        publicClient.readContract({ ...usdc, functionName: 'version' }),
      ]).then(([name, version]) => ({ name, version, chainId: info.chainId, verifyingContract: info.usdcAddress }));
      // A failed read (RPC down) is not remembered: the next call asks again.
      domain.catch(() => (domain = undefined));
      return domain;
    },
    async latestBlock() {
      const block = await publicClient.getBlock({ blockTag: 'latest' });
      return { number: block.number, timestamp: block.timestamp };
    },
    close: () => {
      reads.close();
      return (closed ??= close());
    },
  };
}

/**
 * The transaction that used an `upto` authorisation, and what it moved. The chain is the witness,
 * not the seller: candidates are the token's Transfer logs from the owner to the payee; the one
 * whose transaction called x402's upto proxy with this Permit2 nonce is it, and the amount is the
 * sum of that transaction's Transfer logs from the owner to the payee. A transaction the proxy
 * was reached through indirectly (a batching contract) is recognised instead by the nonce's bit
 * flipping in that transaction's block.
 */
async function findUptoSettlement(
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

/** One transaction a seller named, read as an `upto` settlement (EvmChain.uptoSettlementIn). */
async function uptoSettlementIn(
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

/** Sandbox addresses get ETH for gas, should they ever send a transaction themselves. */
export async function ensureGas(publicClient: PublicClient, testClient: TestClient, address: Address): Promise<void> {
  if ((await publicClient.getBalance({ address })) < GAS_MINIMUM) {
    await testClient.setBalance({ address, value: GAS_TOP_UP });
  }
}
