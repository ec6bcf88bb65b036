/**
 * Starts the EVM chain the server works with (see evm-chain.ts). Without an RPC URL it is the
 * sandbox: a local anvil with chain id 84532 (Base Sepolia's), Circle's USDC at Base Sepolia's
 * USDC address, Multicall3, and anvil's dev accounts as token admin, facilitator and demo
 * seller, so x402 payments work offline exactly as on Base Sepolia. With an RPC URL it connects
 * to Base Sepolia or Base. Either way payments are verified and settled by an in-process
 * facilitator, or by an external one when its URL is configured.
 */
import { dirname, join } from 'node:path';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { PERMIT2_ADDRESS, x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from '@x402/evm';
import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  defineChain,
  type Hex,
  isAddressEqual,
  http,
  parseEther,
  parseEventLogs,
  type PublicClient,
  type TestClient,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { base, baseSepolia } from 'viem/chains';
import type { Logger } from '../../logger';
import { supervise } from '../../supervisor';
import { type ChainReadCache, createChainReadCache } from './chain-read-cache';
import type { EvmChain, EvmNetwork, EvmNetworkInfo } from './evm-chain';
import { fiatTokenAbi } from './fiat-token-abi';
import { permit2Abi, permit2NonceSlot } from './permit2-abi';
import { createLocalFacilitator } from './local-facilitator';
import { type AnvilProcess, findFreePort, startAnvil } from './sandbox-anvil';
import { initializeUsdc, installSandboxCode, installSandboxContracts, MULTICALL3_ADDRESS, usdcInitialized } from './sandbox-contracts';
import { createSerialWallet, JournalGapError, type SerialWallet } from './serial-wallet';
import { openTransactionJournal, type TransactionJournal } from './transaction-journal';

export interface ChainConfig {
  /** Unset: start the sandbox (a local anvil). Set: that network's JSON-RPC URL. */
  rpcUrl?: string;
  /** CAIP-2 network of rpcUrl; default eip155:84532 (Base Sepolia). The sandbox is always eip155:84532. */
  network?: EvmNetwork;
  /** External facilitator URL. Unset: the in-process facilitator. */
  facilitatorUrl?: string;
  /** Pays gas for in-process settlement on a real network. Sandbox: an anvil dev account when unset. */
  facilitatorPrivateKey?: Hex;
  /**
   * Sandbox: an anvil another process started (server and worker in separate containers must
   * share one chain). Set: connect to it instead of starting one; its contracts are installed
   * when missing. It must run with the dev mnemonic, whose first account mints.
   */
  sandboxRpcUrl?: string;
  /** Sandbox: anvil's port (0 or unset: a free port). */
  sandboxPort?: number;
  /** Sandbox: anvil's state file, so balances survive restarts. */
  sandboxStateFile?: string;
}

export type ChainLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

/** Anvil's default dev mnemonic: account 0 administers the sandbox, account 1 is its demo seller. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** Gas money for sandbox addresses: topped up to GAS_TOP_UP when below GAS_MINIMUM. */
const GAS_MINIMUM = parseEther('0.1');
const GAS_TOP_UP = parseEther('1');

/** How often cached reads (chain-read-cache.ts) poll the head: anvil mines on demand; Base every 2 s. */
const SANDBOX_HEAD_POLL_MS = 100;
const NETWORK_HEAD_POLL_MS = 1_000;

const BASE_SEPOLIA: EvmNetworkInfo = {
  network: 'eip155:84532',
  v1Name: 'base-sepolia',
  displayName: 'Base Sepolia',
  chainId: 84532,
  sandbox: false,
  usdcAddress: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  explorerUrl: 'https://sepolia.basescan.org',
  faucetUrl: 'https://faucet.circle.com',
};

const BASE: EvmNetworkInfo = {
  network: 'eip155:8453',
  v1Name: 'base',
  displayName: 'Base',
  chainId: 8453,
  sandbox: false,
  usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  explorerUrl: 'https://basescan.org',
  faucetUrl: null,
};

const REAL_NETWORKS: Partial<Record<EvmNetwork, { info: EvmNetworkInfo; chain: Chain }>> = {
  [BASE_SEPOLIA.network]: { info: BASE_SEPOLIA, chain: baseSepolia },
  [BASE.network]: { info: BASE, chain: base },
};

const SANDBOX_INFO: EvmNetworkInfo = {
  ...BASE_SEPOLIA,
  displayName: 'Sandbox (local chain, Base Sepolia id)',
  sandbox: true,
  explorerUrl: null,
  faucetUrl: null,
};

export async function startChain(config: ChainConfig, logger?: ChainLogger): Promise<EvmChain> {
  return config.rpcUrl ? connectChain(config, config.rpcUrl, logger) : startSandboxChain(config, logger);
}

async function startSandboxChain(config: ChainConfig, logger?: ChainLogger): Promise<EvmChain> {
  const anvil = config.sandboxRpcUrl ? null : await superviseAnvil(config, logger);
  const rpcUrl = config.sandboxRpcUrl ?? anvil!.rpcUrl;
  try {
    const chain = defineChain({
      id: SANDBOX_INFO.chainId,
      name: 'Purser sandbox',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    });
    // Reads made together (a balance's USDC and ETH) go to the node as one JSON-RPC batch.
    // Both clients tell the read cache of the blocks they see and the state they change.
    const reads = createChainReadCache({ pollingIntervalMs: SANDBOX_HEAD_POLL_MS });
    const publicClient = createPublicClient({ chain, transport: reads.observe(http(rpcUrl, { batch: true })) });
    const testClient = createTestClient({ chain, mode: 'anvil', transport: reads.observe(http(rpcUrl)) });
    // Only an anvil this process runs from a state file comes back with an older state; its
    // journal, beside that file, gives back the transactions it lost (see setRestartSteps below).
    const journal = anvil && config.sandboxStateFile
      ? openTransactionJournal({ file: join(dirname(config.sandboxStateFile), 'sandbox-chain-journal.ndjson') })
      : undefined;
    const admin = createSerialWallet(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 }), chain, rpcUrl, { journal });
    const seller = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }).address;
    const contracts = { publicClient, testClient, admin, usdcAddress: SANDBOX_INFO.usdcAddress };
    await installSandboxContracts(contracts);
    const facilitatorWallet = sandboxFacilitatorWallet(config, { chain, rpcUrl, admin, journal });
    const wallets = [...new Set([admin, facilitatorWallet].filter((wallet) => wallet !== null))];
    // A restarted anvil is back on its state file, which it writes every few seconds. Until what it
    // lost is back, the wallets send nothing (a send would take a lost transaction's nonce). Then:
    // the contracts' code (anvil_setCode is no transaction, so no journal holds it); the lost
    // transactions, the admin's first, since the facilitator's settlements spend what it minted;
    // and USDC's initialisation if the journal did not bring it back.
    anvil?.setRestartSteps({
      onExit: () => wallets.forEach((wallet) => wallet.hold()),
      async afterRestart() {
        await installSandboxCode(contracts);
        for (const wallet of wallets) {
          try {
            const { replayed, reverted } = await wallet.replayJournal();
            if (replayed > 0) logger?.warn({ wallet: wallet.address, replayed, reverted }, 'Replayed transactions the restarted sandbox chain had lost');
          } catch (error) {
            // Another process sent from this account (a worker sharing the chain): its lost
            // transactions are not in this journal. The chain still serves; say what is lost.
            if (!(error instanceof JournalGapError)) throw error;
            logger?.error({ wallet: wallet.address, err: error }, 'The restarted sandbox chain lost transactions this journal cannot give back');
          }
        }
        wallets.forEach((wallet) => wallet.release());
        if (!(await usdcInitialized(contracts))) await initializeUsdc(contracts);
      },
    });

    const facilitator = await sandboxFacilitator(config, { publicClient, testClient, wallet: facilitatorWallet });
    logger?.info({ rpcUrl, usdc: SANDBOX_INFO.usdcAddress, seller }, 'Sandbox chain started');
    return assembleChain({
      info: SANDBOX_INFO,
      rpcUrl,
      publicClient,
      facilitator,
      reads,
      sandbox: { admin, testClient, seller },
      sandboxProcess: anvil?.supervisor ?? null,
      close: () => anvil?.supervisor.stop() ?? Promise.resolve(),
    });
  } catch (error) {
    await anvil?.supervisor.stop();
    throw error;
  }
}

/**
 * The sandbox's anvil, restarted by a supervisor on the same port and state file when it dies.
 * `setRestartSteps` names what happens the moment it dies and what runs on a restarted anvil
 * before it counts as running again.
 */
async function superviseAnvil(config: ChainConfig, logger?: ChainLogger) {
  const port = config.sandboxPort || (await findFreePort());
  let steps: { onExit(): void; afterRestart(): Promise<void> } = { onExit: () => {}, afterRestart: async () => {} };
  const supervisor = await supervise<AnvilProcess>({
    name: 'sandbox chain',
    logger: logger ?? silentLogger,
    start: () => startAnvil({ chainId: SANDBOX_INFO.chainId, mnemonic: ANVIL_MNEMONIC, port, stateFile: config.sandboxStateFile }),
    onExit: () => steps.onExit(),
    afterRestart: () => steps.afterRestart(),
  });
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    supervisor,
    setRestartSteps: (restartSteps: typeof steps) => (steps = restartSteps),
  };
}

const silentLogger: ChainLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** The wallet that settles in-process (null with an external facilitator). */
function sandboxFacilitatorWallet(
  config: ChainConfig,
  { chain, rpcUrl, admin, journal }: { chain: Chain; rpcUrl: string; admin: SerialWallet; journal?: TransactionJournal },
): SerialWallet | null {
  if (config.facilitatorUrl) return null;
  const configured = config.facilitatorPrivateKey && privateKeyToAccount(config.facilitatorPrivateKey);
  // One account must keep one wallet, or two queues would pick the same nonces.
  return configured && configured.address !== admin.address ? createSerialWallet(configured, chain, rpcUrl, { journal }) : admin;
}

async function sandboxFacilitator(
  config: ChainConfig,
  { publicClient, testClient, wallet }: { publicClient: PublicClient; testClient: TestClient; wallet: SerialWallet | null },
): Promise<EvmChain['facilitator']> {
  // No in-process wallet: a facilitator URL is configured.
  if (!wallet) return new HTTPFacilitatorClient({ url: config.facilitatorUrl });
  await ensureGas(publicClient, testClient, wallet.address);
  return createLocalFacilitator({ info: SANDBOX_INFO, publicClient, wallet });
}

async function connectChain(config: ChainConfig, rpcUrl: string, logger?: ChainLogger): Promise<EvmChain> {
  const network = config.network ?? 'eip155:84532';
  const known = REAL_NETWORKS[network];
  if (!known) throw new Error(`Unsupported EVM network ${network}: use one of ${Object.keys(REAL_NETWORKS).join(', ')}`);
  const { info, chain } = known;
  // Reads made together (a balance's USDC and ETH) go to the node as one JSON-RPC batch.
  const reads = createChainReadCache({ pollingIntervalMs: NETWORK_HEAD_POLL_MS });
  const publicClient = createPublicClient({ chain, transport: reads.observe(http(rpcUrl, { batch: true })) });
  const chainId = await publicClient.getChainId();
  if (chainId !== info.chainId) throw new Error(`The RPC URL serves chain ${chainId}, not ${info.displayName} (${info.chainId})`);

  let facilitator: EvmChain['facilitator'];
  let gasPayer: SerialWallet | null = null;
  if (config.facilitatorUrl) {
    facilitator = new HTTPFacilitatorClient({ url: config.facilitatorUrl });
  } else if (config.facilitatorPrivateKey) {
    gasPayer = createSerialWallet(privateKeyToAccount(config.facilitatorPrivateKey), chain, rpcUrl);
    facilitator = createLocalFacilitator({ info, publicClient, wallet: gasPayer });
  } else {
    throw new Error(
      `Settling x402 payments on ${info.displayName} needs a facilitator: configure a facilitator URL, ` +
        'or a facilitator private key whose account pays the gas',
    );
  }
  logger?.info({ network: info.network, usdc: info.usdcAddress }, `Connected to ${info.displayName}`);
  return assembleChain({ info, rpcUrl, publicClient, facilitator, reads, sandbox: null, gasPayer, close: async () => {} });
}

interface ChainParts {
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

function assembleChain({ info, rpcUrl, publicClient, facilitator, reads, sandbox, gasPayer = sandbox?.admin ?? null, sandboxProcess = null, close }: ChainParts): EvmChain {
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
async function ensureGas(publicClient: PublicClient, testClient: TestClient, address: Address): Promise<void> {
  if ((await publicClient.getBalance({ address })) < GAS_MINIMUM) {
    await testClient.setBalance({ address, value: GAS_TOP_UP });
  }
}
