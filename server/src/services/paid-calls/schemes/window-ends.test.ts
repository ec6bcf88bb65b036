/**
 * Where an authorisation's window ends, on the chain itself: a block is mined at the exact
 * boundary timestamp (anvil's evm_setNextBlockTimestamp) and the seller's redemption sent into it.
 * EIP-3009's `validBefore` is exclusive (FiatTokenV2 requires `now < validBefore`); Permit2's
 * deadline is inclusive (SignatureTransfer reverts only when `block.timestamp > deadline`). The
 * schemes judge expiry by the same rules (eip3009Expired, permit2Expired), so no hold is released
 * at a block in which the authorisation could still move money.
 */
import type { PaymentRequirements } from '@x402/core/types';
import { eip3009ABI, x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { createTestClient, createWalletClient, encodeFunctionData, http, parseEther, type Address, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from '../../chain/evm-chain';
import { startChain } from '../../chain/start-chain';
import { eip3009Expired } from './exact/eip3009';
import { permit2Expired } from './upto/permit2';
import { setPermit2AllowanceOnChain } from './upto/permit2-allowance';

const AMOUNT = 10_000n;

let chain: EvmChain;
let anvil: ReturnType<typeof createTestClient>;
/** Sends the redemptions (anyone may send transferWithAuthorization), and is the upto permits' facilitator. */
let relayer: LocalAccount;
const payee = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  anvil = createTestClient({ mode: 'anvil', chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  relayer = privateKeyToAccount(generatePrivateKey());
  await anvil.setBalance({ address: relayer.address, value: parseEther('1') });
}, 60_000);
afterAll(() => chain?.close());

async function fundedPayer(): Promise<LocalAccount> {
  const payer = privateKeyToAccount(generatePrivateKey());
  await chain.fundSandboxAddress(payer.address, 1_000_000n);
  return payer;
}

async function requirements(scheme: 'exact' | 'upto', maxTimeoutSeconds: number): Promise<PaymentRequirements> {
  const { name, version } = await chain.usdcDomain();
  return {
    scheme,
    network: chain.info.network,
    asset: chain.info.usdcAddress,
    amount: AMOUNT.toString(),
    payTo: payee,
    maxTimeoutSeconds,
    extra: { name, version, ...(scheme === 'upto' ? { facilitatorAddress: relayer.address } : {}) },
  };
}

/** Mines `data` to `to`, sent by the relayer, in a block of timestamp `at`; its receipt's status. */
async function sendAt(at: bigint, to: Address, data: Hex): Promise<'success' | 'reverted'> {
  await anvil.setNextBlockTimestamp({ timestamp: at });
  const wallet = createWalletClient({ account: relayer, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  // A fixed gas limit: a revert is mined and seen, not refused by estimation.
  const hash = await wallet.sendTransaction({ to, data, gas: 300_000n });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect((await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp).toBe(at);
  return receipt.status;
}

/** An exact payment signed by the official client, and its transferWithAuthorization call. */
async function signedExact(payer: LocalAccount, maxTimeoutSeconds: number) {
  const { payload } = await new ExactEvmScheme(payer).createPaymentPayload(2, await requirements('exact', maxTimeoutSeconds));
  const { authorization: a, signature } = payload as unknown as { authorization: { from: Address; to: Address; value: string; validAfter: string; validBefore: string; nonce: Hex }; signature: Hex };
  const data = encode(eip3009ABI, 'transferWithAuthorization', [a.from, a.to, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce, signature]);
  return { validBefore: BigInt(a.validBefore), data };
}

/** An upto payment signed by the official client, and the proxy's settle of all of it. */
async function signedUpto(payer: LocalAccount, maxTimeoutSeconds: number) {
  const { payload } = await new UptoEvmScheme(payer).createPaymentPayload(2, await requirements('upto', maxTimeoutSeconds));
  const { permit2Authorization: p, signature } = payload as unknown as {
    permit2Authorization: { from: Address; permitted: { token: Address; amount: string }; nonce: string; deadline: string; witness: { to: Address; facilitator: Address; validAfter: string } };
    signature: Hex;
  };
  const permit = { permitted: { token: p.permitted.token, amount: BigInt(p.permitted.amount) }, nonce: BigInt(p.nonce), deadline: BigInt(p.deadline) };
  const witness = { to: p.witness.to, facilitator: p.witness.facilitator, validAfter: BigInt(p.witness.validAfter) };
  return { deadline: permit.deadline, data: encode(x402UptoPermit2ProxyABI, 'settle', [permit, AMOUNT, p.from, witness, signature]) };
}

/** The official packages' ABIs have overloads, which viem's inference does not pick between here. */
function encode(abi: readonly unknown[], functionName: string, args: readonly unknown[]): Hex {
  return encodeFunctionData({ abi, functionName, args } as unknown as Parameters<typeof encodeFunctionData>[0]);
}

describe('an EIP-3009 authorisation (exact) at the end of its window', () => {
  it('is still redeemable one second before validBefore, and no longer in a block at validBefore', async () => {
    const payer = await fundedPayer();
    const early = await signedExact(payer, 100);
    const late = await signedExact(payer, 200);

    expect(await sendAt(early.validBefore - 1n, chain.info.usdcAddress, early.data)).toBe('success');
    expect(eip3009Expired(early.validBefore - 1n, early.validBefore)).toBe(false);

    expect(await sendAt(late.validBefore, chain.info.usdcAddress, late.data)).toBe('reverted');
    expect(eip3009Expired(late.validBefore, late.validBefore)).toBe(true);
  });
});

describe('a Permit2 authorisation (upto) at the end of its window', () => {
  it('still settles in a block whose timestamp equals its deadline, and no longer one second later', async () => {
    const payer = await fundedPayer();
    await setPermit2AllowanceOnChain(chain, payer, 2n * AMOUNT);
    const atDeadline = await signedUpto(payer, 300);
    const pastDeadline = await signedUpto(payer, 400);

    expect(await sendAt(atDeadline.deadline, x402UptoPermit2ProxyAddress, atDeadline.data)).toBe('success');
    expect(permit2Expired(atDeadline.deadline, atDeadline.deadline)).toBe(false);

    expect(await sendAt(pastDeadline.deadline + 1n, x402UptoPermit2ProxyAddress, pastDeadline.data)).toBe('reverted');
    expect(permit2Expired(pastDeadline.deadline + 1n, pastDeadline.deadline)).toBe(true);
  });
});
