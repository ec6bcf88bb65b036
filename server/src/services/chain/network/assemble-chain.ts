/**
 * The EvmChain (evm-chain.ts) over a public client, for a real network and the sandbox alike: the
 * sandbox adds its token admin (the only minter), anvil's test actions and the demo seller, and
 * tops up the gas of the addresses it funds (ensureGas, which the sandbox's facilitator wallet gets
 * too).
 */
import { PERMIT2_ADDRESS } from '@x402/evm';
import {
  type Address,
  createWalletClient,
  type Hex,
  http,
  parseEther,
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
  /** A read at block `at`, or at the node's latest. */
  const atBlock = (at: bigint | undefined) => (at === undefined ? {} : { blockNumber: at });
  async function authorizationOutcome(authorizer: Address, nonce: Hex, fromBlock: bigint, toBlock?: bigint) {
    const search = { ...usdc, args: { authorizer, nonce }, fromBlock, toBlock: toBlock ?? 'latest' } as const;
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
    authorizationUsed: (authorizer, nonce, at) =>
      publicClient.readContract({ ...usdc, functionName: 'authorizationState', args: [authorizer, nonce], ...atBlock(at) }),
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
    async permit2NonceUsed(owner, nonce, at) {
      const { wordPosition, mask } = permit2NonceSlot(nonce);
      const word = await publicClient.readContract({ ...permit2, functionName: 'nonceBitmap', args: [owner, wordPosition], ...atBlock(at) });
      return (word & mask) !== 0n;
    },
    async permit2Allowance(owner, at) {
      const [allowance, permitNonce] = await Promise.all([
        publicClient.readContract({ ...usdc, functionName: 'allowance', args: [owner, PERMIT2_ADDRESS], ...atBlock(at) }),
        publicClient.readContract({ ...usdc, functionName: 'nonces', args: [owner], ...atBlock(at) }),
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
    async invalidatePermit2Nonce(account, nonce, sent) {
      const { wordPosition, mask } = permit2NonceSlot(nonce);
      const wallet = createWalletClient({ account, chain: publicClient.chain!, transport: http(rpcUrl) });
      const hash = await wallet.writeContract({ ...permit2, functionName: 'invalidateUnorderedNonces', args: [wordPosition, mask] });
      await sent?.(hash);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`Permit2 invalidateUnorderedNonces reverted (${hash})`);
      return hash;
    },
    async permit2InvalidationCost(account, nonce) {
      const { wordPosition, mask } = permit2NonceSlot(nonce);
      const balance = await publicClient.getBalance({ address: account });
      // Nothing to spend: no estimate needed (and none asked of a node for an empty account).
      if (balance === 0n) return { cost: 1n, balance };
      const [gas, fees] = await Promise.all([
        publicClient.estimateContractGas({ ...permit2, functionName: 'invalidateUnorderedNonces', args: [wordPosition, mask], account }),
        publicClient.estimateFeesPerGas(),
      ]);
      return { cost: gas * fees.maxFeePerGas, balance };
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
    async mineSandboxBlock() {
      if (!sandbox) throw new Error(`Mining a block on demand is only possible in the sandbox, not on ${info.displayName}`);
      await sandbox.testClient.mine({ blocks: 1 });
    },
    close: () => {
      reads.close();
      return (closed ??= close());
    },
  };
}


/** Sandbox addresses get ETH for gas, should they ever send a transaction themselves. */
export async function ensureGas(publicClient: PublicClient, testClient: TestClient, address: Address): Promise<void> {
  if ((await publicClient.getBalance({ address })) < GAS_MINIMUM) {
    await testClient.setBalance({ address, value: GAS_TOP_UP });
  }
}
