import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequirements, SupportedKind } from '@x402/core/types';
import { PERMIT2_ADDRESS, toClientEvmSigner, type UptoPermit2Payload, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import {
  type Address,
  createTestClient,
  createWalletClient,
  erc20Abi,
  hashDomain,
  type Hex,
  http,
  type LocalAccount,
  parseAbi,
  parseEther,
  parseEventLogs,
  parseSignature,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from '../evm-chain';
import { startChain } from '../start-chain';
import { canonicalPermit2Runtime } from './contracts/canonical-permit2';
import { x402UptoPermit2ProxyAbi } from './contracts/x402-upto-permit2-proxy';

const ONE_USDC = 1_000_000n;
const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/** What the tests use of USDC's EIP-2612 support (FiatTokenV2_2's permit also takes the signature as bytes). */
const usdcPermitAbi = parseAbi([
  'function nonces(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, bytes signature)',
]);

/** Permit2's reads and errors: with its errors in the ABI, viem names the reverts it passes up through the proxy. */
const permit2Abi = parseAbi([
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function nonceBitmap(address owner, uint256 wordPosition) view returns (uint256)',
  'error InvalidNonce()',
  'error InvalidSigner()',
  'error InvalidSignature()',
  'error SignatureExpired(uint256 signatureDeadline)',
]);

const proxy = { address: x402UptoPermit2ProxyAddress, abi: [...x402UptoPermit2ProxyAbi, ...permit2Abi] } as const;

// The sandbox's in-process facilitator settles from this account, which the tests also use to
// call the proxy directly, one call at a time (the facilitator's own sends are awaited first).
const facilitatorKey = generatePrivateKey();
const facilitatorAccount = privateKeyToAccount(facilitatorKey);

let chain: EvmChain;
/** Sends agents' EIP-2612 permits, so agents pay no gas; also the stranger who tries to settle. */
let relayer: Wallet;
let facilitatorWallet: Wallet;
let uptoKind: SupportedKind | undefined;
let facilitatorAddress: Address;

type Wallet = ReturnType<typeof walletOf>;
const walletOf = (account: LocalAccount) => createWalletClient({ account, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });

beforeAll(async () => {
  chain = await startChain({ facilitatorPrivateKey: facilitatorKey });
  relayer = walletOf(privateKeyToAccount(generatePrivateKey()));
  facilitatorWallet = walletOf(facilitatorAccount);
  await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address: relayer.account.address, value: parseEther('1') });
  // What a seller's resource server learns from the facilitator and puts in its requirements.
  const { kinds } = await chain.facilitator.getSupported();
  uptoKind = kinds.find((kind) => kind.scheme === 'upto' && kind.network === chain.info.network);
  facilitatorAddress = uptoKind?.extra?.facilitatorAddress as Address;
}, 30_000);
afterAll(() => chain?.close());

/**
 * A fresh agent holding 5 USDC whose Permit2 allowance is exactly 1.00 USDC, set by its EIP-2612
 * permit: the agent only signs; the relayer sends the transaction and pays its gas.
 */
async function agentWithPermit2Allowance(): Promise<LocalAccount> {
  const agent = privateKeyToAccount(generatePrivateKey());
  await chain.fundSandboxAddress(agent.address, 5n * ONE_USDC);
  const usdc = { address: chain.info.usdcAddress, abi: usdcPermitAbi } as const;
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
  const nonce = await chain.publicClient.readContract({ ...usdc, functionName: 'nonces', args: [agent.address] });
  const signature = await agent.signTypedData({
    domain: await chain.usdcDomain(),
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner: agent.address, spender: PERMIT2_ADDRESS, value: ONE_USDC, nonce, deadline },
  });
  const hash = await relayer.writeContract({ ...usdc, functionName: 'permit', args: [agent.address, PERMIT2_ADDRESS, ONE_USDC, deadline, signature] });
  expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
  return agent;
}

/**
 * The agent's upto payment of at most `max` to `payTo`, signed by @x402/evm's own client. With
 * `gasSponsoredApproval`, the seller offers EIP-2612 gas sponsoring, so an agent without a Permit2
 * allowance signs a USDC permit too, which the facilitator submits in its settlement.
 */
async function signUpto(agent: LocalAccount, payTo: Address, { max = ONE_USDC, gasSponsoredApproval = false } = {}) {
  const requirements: PaymentRequirements = {
    scheme: 'upto',
    network: chain.info.network,
    asset: chain.info.usdcAddress,
    amount: max.toString(),
    payTo,
    maxTimeoutSeconds: 300,
    extra: { name: 'USDC', version: '2', facilitatorAddress },
  };
  const signer = toClientEvmSigner(agent, chain.publicClient);
  const client = x402Client.fromConfig({ schemes: [{ network: chain.info.network, client: new UptoEvmScheme(signer) }] });
  const payload = await client.createPaymentPayload({
    x402Version: 2,
    resource: { url: 'http://127.0.0.1/metered', description: 'metered test resource', mimeType: 'application/json' },
    accepts: [requirements],
    ...(gasSponsoredApproval && { extensions: { eip2612GasSponsoring: {} } }),
  });
  return { requirements, payload };
}

/** The proxy's settle arguments for `payload`, as a facilitator would send them. */
function settleArgs(payload: PaymentPayload, amount: bigint) {
  const { permit2Authorization: auth, signature } = payload.payload as UptoPermit2Payload;
  return [
    { permitted: { token: auth.permitted.token as Address, amount: BigInt(auth.permitted.amount) }, nonce: BigInt(auth.nonce), deadline: BigInt(auth.deadline) },
    amount,
    auth.from as Address,
    { to: auth.witness.to as Address, facilitator: auth.witness.facilitator as Address, validAfter: BigInt(auth.witness.validAfter) },
    signature as Hex,
  ] as const;
}

/**
 * Calls the proxy's settle from `wallet`: the call reverts with `error` (viem names it from the
 * ABI), and the same call sent as a transaction is mined reverted.
 */
async function expectSettleReverts(wallet: Wallet, args: ReturnType<typeof settleArgs>, error: string) {
  const call = { ...proxy, functionName: 'settle', args } as const;
  await expect(chain.publicClient.simulateContract({ ...call, account: wallet.account })).rejects.toThrow(error);
  // A fixed gas limit skips estimation, which would refuse to send a transaction that reverts.
  const hash = await wallet.writeContract({ ...call, gas: 500_000n });
  expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted');
}

async function permit2NonceUsed(payload: PaymentPayload): Promise<boolean> {
  const { permit2Authorization: auth } = payload.payload as UptoPermit2Payload;
  const nonce = BigInt(auth.nonce);
  const word = await chain.publicClient.readContract({ address: PERMIT2_ADDRESS, abi: permit2Abi, functionName: 'nonceBitmap', args: [auth.from as Address, nonce >> 8n] });
  return ((word >> (nonce & 0xffn)) & 1n) === 1n;
}

const balancesOf = (...addresses: Address[]) => Promise.all(addresses.map((address) => chain.usdcBalanceOf(address)));

describe('Permit2 on the sandbox chain', () => {
  it("is Uniswap's canonical code at the canonical address", async () => {
    expect(await chain.publicClient.getCode({ address: PERMIT2_ADDRESS })).toBe(canonicalPermit2Runtime());
  });

  it('signs under the domain of chain 84532, although the code was deployed for another chain', async () => {
    // Permit2's domain has no version.
    const EIP712Domain = [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ] as const;
    const expected = hashDomain({ domain: { name: 'Permit2', chainId: 84532n, verifyingContract: PERMIT2_ADDRESS }, types: { EIP712Domain } });
    const onChain = await chain.publicClient.readContract({ address: PERMIT2_ADDRESS, abi: permit2Abi, functionName: 'DOMAIN_SEPARATOR' });
    expect(onChain).toBe(expected);
  });
});

describe('the x402 upto Permit2 proxy on the sandbox chain', () => {
  it('settles through the canonical Permit2 and the witness type that @x402/evm signs', async () => {
    expect(await chain.publicClient.readContract({ ...proxy, functionName: 'PERMIT2' })).toBe(PERMIT2_ADDRESS);
    expect(await chain.publicClient.readContract({ ...proxy, functionName: 'WITNESS_TYPE_STRING' })).toBe(
      'Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)',
    );
  });
});

describe('an upto payment through the sandbox facilitator', () => {
  it('is offered on the sandbox network in x402 v2, naming the facilitator wallet as the one that settles', () => {
    expect(uptoKind).toMatchObject({ x402Version: 2, scheme: 'upto', network: 'eip155:84532', extra: { facilitatorAddress: facilitatorAccount.address } });
  });

  it('settles 0.37 USDC of a signed 1.00 USDC maximum, after the agent approved Permit2 without paying gas', async () => {
    const agent = await agentWithPermit2Allowance();
    const payee = newAddress();
    const usdc = { address: chain.info.usdcAddress, abi: usdcPermitAbi } as const;
    expect(await chain.publicClient.readContract({ ...usdc, functionName: 'allowance', args: [agent.address, PERMIT2_ADDRESS] })).toBe(ONE_USDC);
    expect(await chain.publicClient.getTransactionCount({ address: agent.address })).toBe(0);

    const { requirements, payload } = await signUpto(agent, payee);
    expect(payload.payload).toMatchObject({ permit2Authorization: { from: agent.address, spender: x402UptoPermit2ProxyAddress, witness: { to: payee, facilitator: facilitatorAddress } } });
    expect(await chain.facilitator.verify(payload, requirements)).toMatchObject({ isValid: true, payer: agent.address });

    const [agentBefore, payeeBefore] = await balancesOf(agent.address, payee);
    const settled = await chain.facilitator.settle(payload, { ...requirements, amount: '370000' });
    expect(settled).toMatchObject({ success: true, network: 'eip155:84532', payer: agent.address, amount: '370000' });

    expect(await balancesOf(agent.address, payee)).toEqual([agentBefore! - 370_000n, payeeBefore! + 370_000n]);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: settled.transaction as Hex });
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfers.map(({ address, args }) => ({ address: address.toLowerCase(), ...args }))).toEqual([
      { address: chain.info.usdcAddress.toLowerCase(), from: agent.address, to: payee, value: 370_000n },
    ]);
    expect(await permit2NonceUsed(payload)).toBe(true);
    expect(await chain.publicClient.getTransactionCount({ address: agent.address })).toBe(0);
  });
});

describe('hostile upto settlements, which move no money', () => {
  it('refuses to settle 1.01 USDC of a signed 1.00, in the facilitator and on chain (AmountExceedsPermitted)', async () => {
    const agent = await agentWithPermit2Allowance();
    const payee = newAddress();
    const { requirements, payload } = await signUpto(agent, payee);
    const before = await balancesOf(agent.address, payee);

    const settled = await chain.facilitator.settle(payload, { ...requirements, amount: '1010000' });
    expect(settled).toMatchObject({ success: false, errorReason: 'invalid_upto_evm_payload_settlement_exceeds_amount' });
    await expectSettleReverts(facilitatorWallet, settleArgs(payload, 1_010_000n), 'AmountExceedsPermitted');

    expect(await balancesOf(agent.address, payee)).toEqual(before);
    expect(await permit2NonceUsed(payload)).toBe(false);
  });

  it('lets no one but the facilitator named in the witness settle (UnauthorizedFacilitator)', async () => {
    const agent = await agentWithPermit2Allowance();
    const payee = newAddress();
    const { payload } = await signUpto(agent, payee);
    const before = await balancesOf(agent.address, payee, relayer.account.address);

    await expectSettleReverts(relayer, settleArgs(payload, 370_000n), 'UnauthorizedFacilitator');

    expect(await balancesOf(agent.address, payee, relayer.account.address)).toEqual(before);
    expect(await permit2NonceUsed(payload)).toBe(false);
  });

  it('settles a signature once: the second settlement fails on the used Permit2 nonce', async () => {
    const agent = await agentWithPermit2Allowance();
    const payee = newAddress();
    const { requirements, payload } = await signUpto(agent, payee);
    expect(await chain.facilitator.settle(payload, { ...requirements, amount: '370000' })).toMatchObject({ success: true });
    const afterFirst = await balancesOf(agent.address, payee);

    // The facilitator's reason is its guess after a failed simulation (today "permit2_allowance_required",
    // as the allowance left is below the signed maximum); the chain says why.
    expect(await chain.facilitator.settle(payload, { ...requirements, amount: '370000' })).toMatchObject({ success: false });
    await expectSettleReverts(facilitatorWallet, settleArgs(payload, 370_000n), 'InvalidNonce');

    expect(await balancesOf(agent.address, payee)).toEqual(afterFirst);
  });

  it('refuses a payment whose payee was changed after signing: the signature no longer matches', async () => {
    const agent = await agentWithPermit2Allowance();
    const payee = newAddress();
    const thief = newAddress();
    const { requirements, payload } = await signUpto(agent, payee);
    const signed = payload.payload as UptoPermit2Payload;
    const forged: PaymentPayload = {
      ...payload,
      accepted: { ...payload.accepted, payTo: thief },
      payload: { ...signed, permit2Authorization: { ...signed.permit2Authorization, witness: { ...signed.permit2Authorization.witness, to: thief } } },
    };
    const thiefRequirements = { ...requirements, payTo: thief };
    const before = await balancesOf(agent.address, payee, thief);

    expect(await chain.facilitator.verify(forged, thiefRequirements)).toMatchObject({ isValid: false, invalidReason: 'invalid_permit2_signature' });
    expect(await chain.facilitator.settle(forged, { ...thiefRequirements, amount: '370000' })).toMatchObject({ success: false });
    await expectSettleReverts(facilitatorWallet, settleArgs(forged, 370_000n), 'InvalidSigner');

    expect(await balancesOf(agent.address, payee, thief)).toEqual(before);
    expect(await permit2NonceUsed(payload)).toBe(false);
  });
});

describe('an upto payment that approves Permit2 in its own settlement (EIP-2612 gas sponsoring)', () => {
  /** The agent's USDC permit for Permit2 that @x402/evm's client put in the payload. */
  const sponsoredPermit = (payload: PaymentPayload) => {
    const { info } = (payload.extensions as { eip2612GasSponsoring: { info: { amount: string; deadline: string; signature: Hex } } }).eip2612GasSponsoring;
    return { value: BigInt(info.amount), deadline: BigInt(info.deadline), signature: info.signature };
  };

  async function unapprovedAgent(): Promise<LocalAccount> {
    const agent = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(agent.address, 5n * ONE_USDC);
    return agent;
  }

  it('settles 0.25 USDC through settleWithPermit for an agent that never approved Permit2', async () => {
    const agent = await unapprovedAgent();
    const payee = newAddress();
    const { requirements, payload } = await signUpto(agent, payee, { gasSponsoredApproval: true });
    expect(sponsoredPermit(payload).value).toBe(ONE_USDC);
    expect(await chain.facilitator.verify(payload, requirements)).toMatchObject({ isValid: true });

    const [agentBefore, payeeBefore] = await balancesOf(agent.address, payee);
    const settled = await chain.facilitator.settle(payload, { ...requirements, amount: '250000' });
    expect(settled).toMatchObject({ success: true, amount: '250000' });

    expect(await balancesOf(agent.address, payee)).toEqual([agentBefore! - 250_000n, payeeBefore! + 250_000n]);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: settled.transaction as Hex });
    expect(parseEventLogs({ abi: x402UptoPermit2ProxyAbi, logs: receipt.logs }).map((log) => log.eventName)).toEqual(['SettledWithPermit']);
    const usdc = { address: chain.info.usdcAddress, abi: usdcPermitAbi } as const;
    expect(await chain.publicClient.readContract({ ...usdc, functionName: 'allowance', args: [agent.address, PERMIT2_ADDRESS] })).toBe(750_000n);
    expect(await chain.publicClient.getTransactionCount({ address: agent.address })).toBe(0);
  });

  it('still settles when someone submitted the agent\'s permit first', async () => {
    const agent = await unapprovedAgent();
    const payee = newAddress();
    const { requirements, payload } = await signUpto(agent, payee, { gasSponsoredApproval: true });
    const { value, deadline, signature } = sponsoredPermit(payload);
    const usdc = { address: chain.info.usdcAddress, abi: usdcPermitAbi } as const;
    const hash = await relayer.writeContract({ ...usdc, functionName: 'permit', args: [agent.address, PERMIT2_ADDRESS, value, deadline, signature] });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');

    const payeeBefore = await chain.usdcBalanceOf(payee);
    expect(await chain.facilitator.settle(payload, { ...requirements, amount: '250000' })).toMatchObject({ success: true });
    expect(await chain.usdcBalanceOf(payee)).toBe(payeeBefore + 250_000n);
  });

  it('refuses a permit that approves another amount than the signed maximum (Permit2612AmountMismatch)', async () => {
    const agent = await unapprovedAgent();
    const payee = newAddress();
    const { payload } = await signUpto(agent, payee, { gasSponsoredApproval: true });
    const { deadline, signature } = sponsoredPermit(payload);
    const { r, s, v } = parseSignature(signature);
    const permit2612 = { value: 2n * ONE_USDC, deadline, r, s, v: Number(v) };
    const before = await balancesOf(agent.address, payee);

    const call = { ...proxy, functionName: 'settleWithPermit', args: [permit2612, ...settleArgs(payload, 250_000n)] } as const;
    await expect(chain.publicClient.simulateContract({ ...call, account: facilitatorWallet.account })).rejects.toThrow('Permit2612AmountMismatch');

    expect(await balancesOf(agent.address, payee)).toEqual(before);
    expect(await permit2NonceUsed(payload)).toBe(false);
  });
});
