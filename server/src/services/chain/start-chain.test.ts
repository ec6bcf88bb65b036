import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/client';
import { type Address, domainSeparator, encodeFunctionData, erc20Abi, type Hex, parseAbi, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from './evm-chain';
import { fiatTokenAbi } from './network/fiat-token-abi';
import { multicall3Abi } from './sandbox/contracts/multicall3';
import { MULTICALL3_ADDRESS } from './sandbox/sandbox-contracts';
import { startChain } from './start-chain';

const BASE_SEPOLIA_USDC: Address = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const randomNonce = (): Hex => generatePrivateKey();

/** A payer funded with 50,000 atomic USDC and its signed x402 v1 payment of 20,000 to the demo seller. */
async function fundedV1Payment(chain: EvmChain) {
  const payer = privateKeyToAccount(generatePrivateKey());
  const seller = chain.sandboxSeller!;
  await chain.fundSandboxAddress(payer.address, 50_000n);
  const requirements = v1Requirements(seller, '20000');
  const payment = await new ExactEvmSchemeV1(payer).createPaymentPayload(1, requirements);
  const payload = { ...payment, accepted: requirements } as unknown as PaymentPayload;
  return { payer, seller, requirements, payload, sellerBefore: await chain.usdcBalanceOf(seller) };
}

/** An x402 v1 requirement to pay `seller` in sandbox USDC. */
function v1Requirements(seller: Address, amount: string): PaymentRequirements {
  return {
    scheme: 'exact',
    network: 'base-sepolia',
    maxAmountRequired: amount,
    resource: 'http://127.0.0.1/v1-resource',
    description: 'v1 test',
    mimeType: 'application/json',
    payTo: seller,
    maxTimeoutSeconds: 300,
    asset: BASE_SEPOLIA_USDC,
    extra: { name: 'USDC', version: '2' },
  } as unknown as PaymentRequirements;
}

describe('the sandbox chain', () => {
  let chain: EvmChain;
  beforeAll(async () => {
    chain = await startChain({});
  }, 30_000);
  afterAll(() => chain?.close());

  it('answers as Base Sepolia (chain id 84532) on 127.0.0.1 and says it is the sandbox', async () => {
    expect(await chain.publicClient.getChainId()).toBe(84532);
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.info).toMatchObject({ network: 'eip155:84532', v1Name: 'base-sepolia', sandbox: true, usdcAddress: BASE_SEPOLIA_USDC });
    expect(chain.sandboxSeller).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("has USDC at Base Sepolia's address with the EIP-712 domain x402 signs for: name USDC, version 2, 6 decimals", async () => {
    const usdc = { address: BASE_SEPOLIA_USDC, abi: fiatTokenAbi } as const;
    expect(await chain.publicClient.readContract({ ...usdc, functionName: 'name' })).toBe('USDC');
    expect(await chain.publicClient.readContract({ ...usdc, functionName: 'version' })).toBe('2');
    expect(await chain.publicClient.readContract({ ...usdc, functionName: 'decimals' })).toBe(6);
    const onChain = await chain.publicClient.readContract({
      address: BASE_SEPOLIA_USDC,
      abi: parseAbi(['function DOMAIN_SEPARATOR() view returns (bytes32)']),
      functionName: 'DOMAIN_SEPARATOR',
    });
    expect(onChain).toBe(domainSeparator({ domain: { name: 'USDC', version: '2', chainId: 84532, verifyingContract: BASE_SEPOLIA_USDC } }));
  });

  it('mints exactly the funded amount and gives the address gas money', async () => {
    const address = newAddress();
    const before = await chain.usdcBalanceOf(address);
    const { transactionHash } = await chain.fundSandboxAddress(address, 2_500_000n);
    expect(await chain.usdcBalanceOf(address)).toBe(before + 2_500_000n);
    expect(await chain.ethBalanceOf(address)).toBe(parseEther('1'));
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: transactionHash });
    expect(receipt.status).toBe('success');
  });

  it('lands every one of several concurrent fundings', async () => {
    const address = newAddress();
    const results = await Promise.all([1n, 2n, 3n, 4n, 5n].map((amount) => chain.fundSandboxAddress(address, amount * 1_000n)));
    expect(new Set(results.map((r) => r.transactionHash)).size).toBe(5);
    expect(await chain.usdcBalanceOf(address)).toBe(15_000n);
  });

  it('runs Multicall3 tryAggregate and aggregate3 at the canonical address', async () => {
    const address = newAddress();
    await chain.fundSandboxAddress(address, 777n);
    const balanceCall = { target: BASE_SEPOLIA_USDC, callData: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address] }) };
    const failingCall = { target: BASE_SEPOLIA_USDC, callData: '0xdeadbeef' as Hex };
    const { result } = await chain.publicClient.simulateContract({
      address: MULTICALL3_ADDRESS,
      abi: multicall3Abi,
      functionName: 'tryAggregate',
      args: [false, [balanceCall, failingCall]],
    });
    expect(result[0]).toEqual({ success: true, returnData: `0x${(777).toString(16).padStart(64, '0')}` });
    expect(result[1]?.success).toBe(false);

    const viaViem = await chain.publicClient.multicall({
      contracts: [{ address: BASE_SEPOLIA_USDC, abi: erc20Abi, functionName: 'balanceOf', args: [address] }],
    });
    expect(viaViem).toEqual([{ status: 'success', result: 777n }]);
  });

  it('reports an authorisation nobody used as unused, with no transaction', async () => {
    const authorizer = newAddress();
    const nonce = randomNonce();
    expect(await chain.authorizationUsed(authorizer, nonce)).toBe(false);
    expect((await chain.authorizationOutcome(authorizer, nonce, 0n)).used).toBeNull();
  });

  it('gives the latest block with a current timestamp', async () => {
    const block = await chain.latestBlock();
    expect(block.number).toBeGreaterThanOrEqual(0n);
    expect(Number(block.timestamp)).toBeGreaterThan(Date.now() / 1000 - 3600);
  });

  it('verifies and settles an x402 v1 payment in its in-process facilitator', async () => {
    const { payer, seller, requirements, payload, sellerBefore } = await fundedV1Payment(chain);

    expect(await chain.facilitator.verify(payload, requirements)).toMatchObject({ isValid: true });
    const settled = await chain.facilitator.settle(payload, requirements);
    expect(settled).toMatchObject({ success: true, network: 'base-sepolia' });
    expect(await chain.usdcBalanceOf(payer.address)).toBe(30_000n);
    expect(await chain.usdcBalanceOf(seller)).toBe(sellerBefore + 20_000n);
  });
});

describe('the sandbox chain with a state file', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'purser-chain-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('keeps minted balances across a restart', async () => {
    const stateFile = join(directory, 'anvil-state.json');
    const address = newAddress();
    const first = await startChain({ sandboxStateFile: stateFile });
    try {
      await first.fundSandboxAddress(address, 4_200_000n);
    } finally {
      await first.close();
    }
    const second = await startChain({ sandboxStateFile: stateFile });
    try {
      expect(await second.usdcBalanceOf(address)).toBe(4_200_000n);
      await second.fundSandboxAddress(address, 1n);
      expect(await second.usdcBalanceOf(address)).toBe(4_200_001n);
    } finally {
      await second.close();
    }
  }, 30_000);

  it('is restarted on the same port after a SIGKILL with every mint and settlement it lost, and holds sends until then', async () => {
    // Killed before its first state write (every 10 s): the restarted anvil starts from nothing,
    // so the contracts and every transaction come back from the code and the journal.
    const chain = await startChain({ sandboxStateFile: join(directory, 'sandbox-chain.json') });
    try {
      const holder = newAddress();
      await chain.fundSandboxAddress(holder, 1_000n);
      const { payer, seller, requirements, payload, sellerBefore } = await fundedV1Payment(chain);
      expect(await chain.facilitator.settle(payload, requirements)).toMatchObject({ success: true });
      const nonce = (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;

      const rpcUrl = chain.rpcUrl;
      process.kill(anvilPid(rpcUrl), 'SIGKILL');
      await until(() => chain.sandboxProcess!.state() === 'restarting');
      // Sent while the chain is down: held, not failed, and sent after the lost ones are back.
      const late = newAddress();
      const lateFunding = chain.fundSandboxAddress(late, 7n);
      await until(() => chain.sandboxProcess!.state() === 'running');

      expect(chain.rpcUrl).toBe(rpcUrl);
      expect(chain.sandboxProcess!.restarts()).toBe(1);
      await lateFunding;
      expect(await chain.usdcBalanceOf(holder)).toBe(1_000n);
      expect(await chain.usdcBalanceOf(payer.address)).toBe(30_000n);
      expect(await chain.usdcBalanceOf(seller)).toBe(sellerBefore + 20_000n);
      expect(await chain.authorizationUsed(payer.address, nonce)).toBe(true);
      expect(await chain.usdcBalanceOf(late)).toBe(7n);
    } finally {
      await chain.close();
    }
  }, 60_000);
});

/** The PID of the anvil listening on `rpcUrl`'s port, read from /proc. */
function anvilPid(rpcUrl: string): number {
  const port = new URL(rpcUrl).port;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    if (args[0]?.endsWith('/anvil') && args[args.indexOf('--port') + 1] === port) return Number(entry);
  }
  throw new Error(`no anvil on port ${port}`);
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a chain on a real network', () => {
  let sandbox: EvmChain;
  beforeAll(async () => {
    sandbox = await startChain({});
  }, 30_000);
  afterAll(() => sandbox?.close());

  it('refuses to mint, because only the sandbox can', async () => {
    const chain = await startChain({ rpcUrl: sandbox.rpcUrl, network: 'eip155:84532', facilitatorPrivateKey: generatePrivateKey() });
    expect(chain.info).toMatchObject({ sandbox: false, displayName: 'Base Sepolia', explorerUrl: 'https://sepolia.basescan.org' });
    expect(chain.sandboxSeller).toBeNull();
    await expect(chain.fundSandboxAddress(newAddress(), 1n)).rejects.toThrow(/only possible in the sandbox/);
    await chain.close();
  });

  it('needs a facilitator URL or a facilitator key to start', async () => {
    await expect(startChain({ rpcUrl: sandbox.rpcUrl })).rejects.toThrow(/needs a facilitator/);
  });

  it('refuses an RPC URL that serves another chain than the configured network', async () => {
    await expect(
      startChain({ rpcUrl: sandbox.rpcUrl, network: 'eip155:8453', facilitatorPrivateKey: generatePrivateKey() }),
    ).rejects.toThrow(/serves chain 84532, not Base/);
  });

  it('refuses a network it does not know', async () => {
    await expect(startChain({ rpcUrl: sandbox.rpcUrl, network: 'eip155:1' })).rejects.toThrow(/Unsupported EVM network eip155:1/);
  });
});
