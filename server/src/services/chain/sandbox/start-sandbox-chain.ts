/**
 * The sandbox chain: a local anvil with chain id 84532 (Base Sepolia's), Circle's USDC at Base
 * Sepolia's USDC address, Multicall3, and anvil's dev accounts as token admin, facilitator and demo
 * seller, so x402 payments work offline exactly as on Base Sepolia. Payments are verified and
 * settled by the in-process facilitator, or by an external one when its URL is configured.
 */
import { dirname, join } from 'node:path';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { type Chain, createPublicClient, createTestClient, defineChain, http, type PublicClient, type TestClient } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { supervise } from '../../../supervisor';
import type { EvmChain, EvmNetworkInfo } from '../evm-chain';
import { createLocalFacilitator } from '../facilitator/local-facilitator';
import { assembleChain, ensureGas } from '../network/assemble-chain';
import type { ChainConfig, ChainLogger } from '../network/chain-config';
import { createChainReadCache } from '../network/chain-read-cache';
import { webSocketHeadFeed, webSocketUrlOf } from '../network/head-feed';
import { BASE_SEPOLIA } from '../network/networks';
import { createSerialWallet, JournalGapError, type SerialWallet } from '../network/serial-wallet';
import { type AnvilProcess, findFreePort, startAnvil } from './sandbox-anvil';
import { initializeUsdc, installSandboxCode, installSandboxContracts, MULTICALL3_ADDRESS, usdcInitialized } from './sandbox-contracts';
import { openTransactionJournal, type TransactionJournal } from './transaction-journal';

/** Anvil's default dev mnemonic: account 0 administers the sandbox, account 1 is its demo seller. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * How often cached reads (network/chain-read-cache.ts) poll the head when anvil's newHeads feed
 * (over a WebSocket on its HTTP port) is not live: anvil mines on demand.
 */
const SANDBOX_HEAD_POLL_MS = 100;

const SANDBOX_INFO: EvmNetworkInfo = {
  ...BASE_SEPOLIA,
  displayName: 'Sandbox (local chain, Base Sepolia id)',
  sandbox: true,
  explorerUrl: null,
  faucetUrl: null,
};

export async function startSandboxChain(config: ChainConfig, logger?: ChainLogger): Promise<EvmChain> {
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
    reads.follow(webSocketHeadFeed(webSocketUrlOf(rpcUrl)));
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
