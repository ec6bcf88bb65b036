/**
 * x402's `batch-settlement` scheme (payment channels) on the sandbox chain, with the official
 * packages only: @x402/evm's batch-settlement client behind @x402/fetch, its server scheme in
 * @x402/hono's middleware on a small seller served over node:http, and the sandbox's in-process
 * facilitator (@x402/core's x402Facilitator with @x402/evm's batch-settlement facilitator scheme,
 * settling from its own account) over the contracts compiled from contracts/X402BatchSettlement.sol
 * and its deposit collectors. Then hostile claims and deposits, sent straight to the contracts,
 * which must revert and move nothing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import {
  BATCH_SETTLEMENT_DOMAIN,
  type BatchSettlementDepositPayload,
  type ChannelConfig,
  claimBatchTypes,
  PERMIT2_ADDRESS,
  refundTypes,
  toClientEvmSigner,
} from '@x402/evm';
import { BatchSettlementEvmScheme as BatchSettlementClient, computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client';
import { BatchSettlementEvmScheme as BatchSettlementServer, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { wrapFetchWithPayment } from '@x402/fetch';
import { paymentMiddleware, x402ResourceServer } from '@x402/hono';
import { Hono } from 'hono';
import {
  type Address,
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  encodeAbiParameters,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  isAddressEqual,
  type LocalAccount,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from '../evm-chain';
import { startChain } from '../start-chain';
import { x402BatchSettlementAbi } from './contracts/x402-batch-settlement';
import { x402Erc3009DepositCollectorAbi } from './contracts/x402-erc3009-deposit-collector';
import { X402_BATCH_SETTLEMENT_ADDRESS, X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS, X402_PERMIT2_DEPOSIT_COLLECTOR_ADDRESS } from './sandbox-contracts';

const ONE_USDC = 1_000_000n;
const PRICE = 10_000n; // $0.01 a call
const DEPOSIT = 500_000n; // $0.50, the deposit the seller asks for (extra.minDeposit)
const CALLS = 20;

/** FiatTokenV2_2's revert reasons, so viem names them in the hostile deposit. */
const fiatTokenErrors = parseAbi(['error Error(string reason)']);
const channels = { address: X402_BATCH_SETTLEMENT_ADDRESS, abi: x402BatchSettlementAbi } as const;

// The sandbox's in-process facilitator settles from this account.
const facilitatorKey = generatePrivateKey();
const facilitatorAddress = privateKeyToAccount(facilitatorKey).address;
/** The seller's own key for its claims and refunds: the sandbox facilitator offers none. */
const receiverAuthorizer = privateKeyToAccount(generatePrivateKey());
/** The seller's payee, fresh so its balance is what the channels paid it. */
const payTo = privateKeyToAccount(generatePrivateKey()).address;

let chain: EvmChain;
let usdc: Address;
let sellerUrl: string;
let sellerScheme: BatchSettlementServer;
/** Calls the seller's handler ran: a refused payment never reaches it. */
let served = 0;
/** Sends the hostile transactions; pays its own gas. */
let relayer: ReturnType<typeof walletOf>;

const walletOf = (account: LocalAccount) => createWalletClient({ account, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });

// ---------------------------------------------------------------- the seller

/** A forecast at $0.01 a call, paid through a channel; /forecast-permit2 asks for Permit2 deposits. */
function seller(): Hono {
  sellerScheme = new BatchSettlementServer(payTo, { receiverAuthorizerSigner: receiverAuthorizer, storage: new InMemoryChannelStorage() });
  const server = new x402ResourceServer(chain.facilitator).register(chain.info.network, sellerScheme);
  const option = { scheme: 'batch-settlement', network: chain.info.network, payTo, extra: { minDeposit: DEPOSIT.toString() } };
  const api = new Hono();
  api.use(
    paymentMiddleware(
      {
        'GET /forecast': { accepts: { ...option, price: '$0.01' }, description: 'Forecast', mimeType: 'application/json' },
        'GET /forecast-permit2': {
          accepts: { ...option, price: { amount: PRICE.toString(), asset: usdc, extra: { name: 'USDC', version: '2', assetTransferMethod: 'permit2' } } },
          description: 'Forecast, deposits through Permit2',
          mimeType: 'application/json',
        },
      },
      server,
    ),
  );
  const forecast = () => {
    served += 1;
    return { forecast: 'sunny' };
  };
  api.get('/forecast', (c) => c.json(forecast()));
  api.get('/forecast-permit2', (c) => c.json(forecast()));
  return api;
}

async function serveHono(api: Hono, request: IncomingMessage, response: ServerResponse) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
  const answer = await api.fetch(new Request(`${sellerUrl}${request.url}`, { method: request.method, headers }));
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

beforeAll(async () => {
  chain = await startChain({ facilitatorPrivateKey: facilitatorKey });
  usdc = chain.info.usdcAddress;
  const api = seller();
  const httpServer = createServer((request, response) => {
    serveHono(api, request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  sellerUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((resolve) => httpServer.close(() => resolve())));
  relayer = walletOf(privateKeyToAccount(generatePrivateKey()));
  await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address: relayer.account.address, value: parseEther('1') });
}, 30_000);
afterAll(() => chain?.close());

// ---------------------------------------------------------------- helpers

/** A fresh agent holding `amount` USDC (and, from the sandbox, gas it never needs here). */
async function fundedAgent(amount = ONE_USDC): Promise<LocalAccount> {
  const agent = privateKeyToAccount(generatePrivateKey());
  await chain.fundSandboxAddress(agent.address, amount);
  return agent;
}

/** The agent's side, from the official packages: the batch-settlement client behind wrapFetchWithPayment. */
function agentClient(agent: LocalAccount) {
  const scheme = new BatchSettlementClient(toClientEvmSigner(agent, chain.publicClient));
  const client = x402Client.fromConfig({ schemes: [{ network: chain.info.network, client: scheme }] });
  return { scheme, pay: wrapFetchWithPayment(fetch, client) };
}

/** What the seller asks for at `path`, from its 402. */
async function offer(path = '/forecast'): Promise<PaymentRequirements> {
  const response = await fetch(`${sellerUrl}${path}`);
  expect(response.status).toBe(402);
  return decodePaymentRequiredHeader(response.headers.get('payment-required')!).accepts[0]!;
}

/** The agent's channel with the seller: its config and id, as the client derives them. */
async function channelOf(scheme: BatchSettlementClient, path = '/forecast') {
  const config = scheme.buildChannelConfig(await offer(path));
  return { config, channelId: computeChannelId(config, chain.info.network) };
}

/** A fresh agent whose channel is open with one paid call: $0.50 deposited, a voucher for $0.01. */
async function openChannel() {
  const agent = await fundedAgent();
  const { scheme, pay } = agentClient(agent);
  expect((await pay(`${sellerUrl}/forecast`)).status).toBe(200);
  const { config, channelId } = await channelOf(scheme);
  const record = (await sellerScheme.getStorage().get(channelId))!;
  return { agent, pay, config, channelId, voucher: { maxClaimableAmount: BigInt(record.signedMaxClaimable), signature: record.signature as Hex } };
}

const channelState = async (channelId: Hex) => chain.publicClient.readContract({ ...channels, functionName: 'channels', args: [channelId] });
const receiverTotals = async () => chain.publicClient.readContract({ ...channels, functionName: 'receivers', args: [payTo, usdc] });

/** The calls made to the channel contract from `fromBlock` on: function and sender. */
async function channelCalls(fromBlock: bigint) {
  const calls: { functionName: string; from: Address }[] = [];
  const latest = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  for (let number = fromBlock; number <= latest; number++) {
    const block = await chain.publicClient.getBlock({ blockNumber: number, includeTransactions: true });
    for (const transaction of block.transactions) {
      if (!transaction.to || !isAddressEqual(transaction.to, X402_BATCH_SETTLEMENT_ADDRESS)) continue;
      calls.push({ functionName: decodeFunctionData({ abi: x402BatchSettlementAbi, data: transaction.input }).functionName, from: getAddress(transaction.from) });
    }
  }
  return calls;
}

/** Everything a hostile call could move: the channel, the receiver's claims, and the USDC of all parties. */
async function moneyOf(channelId: Hex, agent: Address) {
  const balances = await Promise.all([agent, payTo, X402_BATCH_SETTLEMENT_ADDRESS].map((address) => chain.usdcBalanceOf(address)));
  return { channel: await channelState(channelId), receiver: await receiverTotals(), balances };
}

interface ClaimRow {
  voucher: { channel: ChannelConfig; maxClaimableAmount: bigint };
  signature: Hex;
  totalClaimed: bigint;
}

const claimRow = (channel: ChannelConfig, maxClaimableAmount: bigint, signature: Hex, totalClaimed: bigint): ClaimRow => ({
  voucher: { channel, maxClaimableAmount },
  signature,
  totalClaimed,
});

/** `signer`'s EIP-712 ClaimBatch over the rows: what claimWithSignature wants from the receiver authorizer. */
function signClaims(signer: LocalAccount, rows: ClaimRow[]): Promise<Hex> {
  return signer.signTypedData({
    domain: { ...BATCH_SETTLEMENT_DOMAIN, chainId: chain.info.chainId, verifyingContract: X402_BATCH_SETTLEMENT_ADDRESS },
    types: claimBatchTypes,
    primaryType: 'ClaimBatch',
    message: {
      claims: rows.map((row) => ({
        channelId: computeChannelId(row.voucher.channel, chain.info.network),
        maxClaimableAmount: row.voucher.maxClaimableAmount,
        totalClaimed: row.totalClaimed,
      })),
    },
  });
}

/** The call reverts with `error` (viem names it from the ABI), and sent anyway it is mined reverted. */
async function expectReverts(call: Parameters<typeof relayer.writeContract>[0], error: string) {
  await expect(chain.publicClient.simulateContract({ ...call, account: relayer.account } as Parameters<typeof chain.publicClient.simulateContract>[0])).rejects.toThrow(error);
  // A fixed gas limit skips estimation, which would refuse to send a call that reverts.
  const hash = await relayer.writeContract({ ...call, gas: 500_000n });
  expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted');
}

const claimWithSignature = (rows: ClaimRow[], signature: Hex) =>
  ({ ...channels, functionName: 'claimWithSignature', args: [rows, signature] }) as Parameters<typeof relayer.writeContract>[0];

/** What a seller's channel manager sends the facilitator to claim `rows` (amounts as decimal strings). */
function claimPayload(rows: ClaimRow[], claimAuthorizerSignature: Hex): [PaymentPayload, PaymentRequirements] {
  const requirements: PaymentRequirements = { scheme: 'batch-settlement', network: chain.info.network, asset: usdc, amount: '0', payTo, maxTimeoutSeconds: 0, extra: {} };
  const claims = rows.map((row) => ({
    voucher: { channel: row.voucher.channel, maxClaimableAmount: row.voucher.maxClaimableAmount.toString() },
    signature: row.signature,
    totalClaimed: row.totalClaimed.toString(),
  }));
  return [{ x402Version: 2, accepted: requirements, payload: { type: 'claim', claims, claimAuthorizerSignature } }, requirements];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
};

// ---------------------------------------------------------------- the channel, honestly used

describe('a batch-settlement channel on the sandbox chain', () => {
  let agent: LocalAccount;
  let client: ReturnType<typeof agentClient>;
  let channelId: Hex;
  let fromBlock: bigint;

  beforeAll(async () => {
    agent = await fundedAgent();
    client = agentClient(agent);
    fromBlock = (await chain.publicClient.getBlockNumber({ cacheTime: 0 })) + 1n;
  });

  it('is offered by the sandbox facilitator in x402 v2, with no receiver authorizer of its own', async () => {
    const { kinds } = await chain.facilitator.getSupported();
    const kind = kinds.find((k) => k.scheme === 'batch-settlement');
    expect(kind).toMatchObject({ x402Version: 2, network: 'eip155:84532' });
    expect(kind?.extra?.receiverAuthorizer).toBeUndefined();
    expect(await offer()).toMatchObject({
      amount: PRICE.toString(),
      asset: usdc,
      payTo,
      extra: { receiverAuthorizer: receiverAuthorizer.address, withdrawDelay: 900, minDeposit: DEPOSIT.toString(), name: 'USDC', version: '2' },
    });
  });

  it(`pays ${CALLS} calls of $0.01 with one $0.50 deposit through the ERC-3009 collector, then vouchers only`, async () => {
    const servedBefore = served;
    const durations: number[] = [];
    for (let call = 0; call < CALLS; call++) {
      const started = performance.now();
      const response = await client.pay(`${sellerUrl}/forecast`);
      durations.push(performance.now() - started);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ forecast: 'sunny' });
    }
    console.log(
      `batch-settlement: one paid call through the channel takes ${median(durations).toFixed(1)} ms (median of ${CALLS}); ` +
        `the first, which deposits on chain, ${durations[0]!.toFixed(1)} ms`,
    );
    expect(served - servedBefore).toBe(CALLS);

    ({ channelId } = await channelOf(client.scheme));
    expect(await channelState(channelId)).toEqual([DEPOSIT, 0n]);
    expect(await chain.usdcBalanceOf(agent.address)).toBe(ONE_USDC - DEPOSIT);
    expect((await sellerScheme.getStorage().get(channelId))?.chargedCumulativeAmount).toBe((BigInt(CALLS) * PRICE).toString());
    expect(await channelCalls(fromBlock)).toEqual([{ functionName: 'deposit', from: facilitatorAddress }]);
    const [deposited] = await chain.publicClient.getContractEvents({ ...channels, eventName: 'Deposited', fromBlock });
    expect(deposited?.args).toEqual({ channelId, payer: agent.address, collector: X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS, amount: DEPOSIT });
  }, 60_000);

  it(`lets the seller claim all ${CALLS} vouchers in one claim transaction and receive exactly $0.20 in one settle`, async () => {
    const payeeBefore = await chain.usdcBalanceOf(payTo);
    const manager = sellerScheme.createChannelManager(chain.facilitator, chain.info.network, usdc);
    const { claims, settle } = await manager.claimAndSettle();
    expect(claims).toEqual([{ vouchers: 1, transaction: expect.stringMatching(/^0x/) }]);
    expect(settle?.transaction).toMatch(/^0x/);

    const earned = BigInt(CALLS) * PRICE;
    expect(await chain.usdcBalanceOf(payTo)).toBe(payeeBefore + earned);
    expect(await channelState(channelId)).toEqual([DEPOSIT, earned]);
    expect(await receiverTotals()).toEqual([earned, earned]);
    expect(await channelCalls(fromBlock)).toEqual([
      { functionName: 'deposit', from: facilitatorAddress },
      { functionName: 'claimWithSignature', from: facilitatorAddress },
      { functionName: 'settle', from: facilitatorAddress },
    ]);
    const claimed = await chain.publicClient.getContractEvents({ ...channels, eventName: 'Claimed', fromBlock });
    expect(claimed.map((log) => log.args)).toEqual([{ channelId, receiver: payTo, amount: earned, totalClaimed: earned }]);
    const settled = await chain.publicClient.getContractEvents({ ...channels, eventName: 'Settled', fromBlock });
    expect(settled.map((log) => log.args)).toEqual([{ receiver: payTo, token: usdc, sender: facilitatorAddress, amount: earned }]);
  });

  it('refunds the rest of the deposit to the agent, who ends exactly $0.20 lower and never sent a transaction', async () => {
    const refund = await client.scheme.refund(`${sellerUrl}/forecast`);
    expect(refund).toMatchObject({ success: true, amount: (DEPOSIT - BigInt(CALLS) * PRICE).toString() });

    expect(await chain.usdcBalanceOf(agent.address)).toBe(ONE_USDC - BigInt(CALLS) * PRICE);
    expect(await channelState(channelId)).toEqual([BigInt(CALLS) * PRICE, BigInt(CALLS) * PRICE]);
    // The refund's claim of what is claimed already is a no-op: nothing is claimed twice.
    expect(await receiverTotals()).toEqual([BigInt(CALLS) * PRICE, BigInt(CALLS) * PRICE]);
    expect((await channelCalls(fromBlock)).map((call) => call.functionName)).toEqual(['deposit', 'claimWithSignature', 'settle', 'multicall']);
    expect(await chain.publicClient.getTransactionCount({ address: agent.address })).toBe(0);
  });
});

describe('a deposit through Permit2, when the seller asks for it', () => {
  it('opens the channel through the Permit2 collector, bound to the channel by its witness', async () => {
    const agent = await fundedAgent();
    // This agent approves Permit2 itself (the gas-sponsored approval is another extension).
    const hash = await walletOf(agent).writeContract({ address: usdc, abi: erc20Abi, functionName: 'approve', args: [PERMIT2_ADDRESS, maxUint256] });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    const fromBlock = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const { scheme, pay } = agentClient(agent);

    for (let call = 0; call < 2; call++) expect((await pay(`${sellerUrl}/forecast-permit2`)).status).toBe(200);

    const { channelId } = await channelOf(scheme, '/forecast-permit2');
    expect(await channelState(channelId)).toEqual([DEPOSIT, 0n]);
    expect(await chain.usdcBalanceOf(agent.address)).toBe(ONE_USDC - DEPOSIT);
    const [deposited] = await chain.publicClient.getContractEvents({ ...channels, eventName: 'Deposited', args: { channelId }, fromBlock });
    expect(deposited?.args.collector).toBe(X402_PERMIT2_DEPOSIT_COLLECTOR_ADDRESS);
    expect((await sellerScheme.getStorage().get(channelId))?.chargedCumulativeAmount).toBe((2n * PRICE).toString());
  });
});

// ---------------------------------------------------------------- hostile

describe('hostile claims and deposits, which move no money', () => {
  it("refuses a claim above what the vouchers signed, though the receiver authorizer signed it (ClaimExceedsVoucher)", async () => {
    const { agent, config, channelId, voucher } = await openChannel();
    const before = await moneyOf(channelId, agent.address);
    const greedy = [claimRow(config, voucher.maxClaimableAmount, voucher.signature, voucher.maxClaimableAmount + PRICE)];
    const greedySignature = await signClaims(receiverAuthorizer, greedy);

    expect(await chain.facilitator.settle(...claimPayload(greedy, greedySignature))).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
    });
    await expectReverts(claimWithSignature(greedy, greedySignature), 'ClaimExceedsVoucher');
    // Nor can the row raise the voucher's ceiling: the payer's signature is over the ceiling it signed.
    const raised = [claimRow(config, voucher.maxClaimableAmount + PRICE, voucher.signature, voucher.maxClaimableAmount + PRICE)];
    await expectReverts(claimWithSignature(raised, await signClaims(receiverAuthorizer, raised)), 'InvalidVoucherSignature');

    expect(await moneyOf(channelId, agent.address)).toEqual(before);
  });

  it('refuses a voucher signed by anyone but the payer authorizer: at the seller, at the facilitator and on chain', async () => {
    const { agent, pay, config, channelId, voucher } = await openChannel();
    const before = await moneyOf(channelId, agent.address);
    const stranger = toClientEvmSigner(privateKeyToAccount(generatePrivateKey()), chain.publicClient);
    const forged = await signVoucher(stranger, channelId, (voucher.maxClaimableAmount + PRICE).toString(), chain.info.network);
    const requirements = await offer();
    const payment: PaymentPayload = { x402Version: 2, accepted: requirements, payload: { type: 'voucher', channelConfig: config, voucher: forged } };

    const servedBefore = served;
    const response = await fetch(`${sellerUrl}/forecast`, { headers: { 'payment-signature': encodePaymentSignatureHeader(payment) } });
    expect(response.status).toBe(402);
    expect(decodePaymentRequiredHeader(response.headers.get('payment-required')!).error).toBe('invalid_batch_settlement_evm_voucher_signature');
    expect(served).toBe(servedBefore);
    expect(await chain.facilitator.verify(payment, requirements)).toMatchObject({ isValid: false, invalidReason: 'invalid_batch_settlement_evm_voucher_signature' });
    const rows = [claimRow(config, BigInt(forged.maxClaimableAmount), forged.signature, BigInt(forged.maxClaimableAmount))];
    await expectReverts(claimWithSignature(rows, await signClaims(receiverAuthorizer, rows)), 'InvalidVoucherSignature');

    expect(await moneyOf(channelId, agent.address)).toEqual(before);
    // The agent's own next voucher still pays.
    expect((await pay(`${sellerUrl}/forecast`)).status).toBe(200);
  });

  it('refuses a claim beyond the deposit, though the payer signed a voucher for more (ClaimExceedsBalance)', async () => {
    const { agent, config, channelId } = await openChannel();
    const before = await moneyOf(channelId, agent.address);
    const beyond = DEPOSIT + PRICE;
    const voucher = await signVoucher(toClientEvmSigner(agent, chain.publicClient), channelId, beyond.toString(), chain.info.network);
    const requirements = await offer();
    const payment: PaymentPayload = { x402Version: 2, accepted: requirements, payload: { type: 'voucher', channelConfig: config, voucher } };

    expect(await chain.facilitator.verify(payment, requirements)).toMatchObject({ isValid: false, invalidReason: 'invalid_batch_settlement_evm_cumulative_exceeds_balance' });
    const rows = [claimRow(config, beyond, voucher.signature, beyond)];
    await expectReverts(claimWithSignature(rows, await signClaims(receiverAuthorizer, rows)), 'ClaimExceedsBalance');

    expect(await moneyOf(channelId, agent.address)).toEqual(before);
  });

  it('takes claims and refunds from the receiver side only: its authorizer\'s signature, or the receiver itself calling', async () => {
    const { agent, config, channelId, voucher } = await openChannel();
    const before = await moneyOf(channelId, agent.address);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const rows = [claimRow(config, voucher.maxClaimableAmount, voucher.signature, voucher.maxClaimableAmount)];
    await expectReverts(claimWithSignature(rows, await signClaims(stranger, rows)), 'InvalidAuthorizerSignature');
    await expectReverts({ ...channels, functionName: 'claim', args: [rows] } as Parameters<typeof relayer.writeContract>[0], 'NotReceiver');

    // A refund sends the payer's money back to the payer, but only the receiver side may cut the
    // seller's claim window short.
    const signRefund = (signer: LocalAccount, nonce: bigint) =>
      signer.signTypedData({
        domain: { ...BATCH_SETTLEMENT_DOMAIN, chainId: chain.info.chainId, verifyingContract: X402_BATCH_SETTLEMENT_ADDRESS },
        types: refundTypes,
        primaryType: 'Refund',
        message: { channelId, nonce, amount: DEPOSIT },
      });
    const refundWithSignature = (nonce: bigint, signature: Hex) =>
      ({ ...channels, functionName: 'refundWithSignature', args: [config, DEPOSIT, nonce, signature] }) as Parameters<typeof relayer.writeContract>[0];
    await expectReverts(refundWithSignature(0n, await signRefund(stranger, 0n)), 'InvalidAuthorizerSignature');
    await expectReverts(refundWithSignature(1n, await signRefund(receiverAuthorizer, 1n)), 'InvalidRefundNonce');
    await expectReverts({ ...channels, functionName: 'refund', args: [config, DEPOSIT] } as Parameters<typeof relayer.writeContract>[0], 'NotReceiver');

    expect(await moneyOf(channelId, agent.address)).toEqual(before);
    expect(await chain.publicClient.readContract({ ...channels, functionName: 'refundNonce', args: [channelId] })).toBe(0n);
  });

  it('binds a deposit authorization to its channel: it funds no other channel, and the collector answers only the channel contract', async () => {
    const agent = await fundedAgent();
    const thief = privateKeyToAccount(generatePrivateKey()).address;
    const requirements = await offer();
    const { scheme } = agentClient(agent);
    const { payload } = await scheme.createPaymentPayload(2, requirements);
    const { channelConfig, deposit } = payload as unknown as BatchSettlementDepositPayload;
    const auth = deposit.authorization.erc3009Authorization!;
    const collectorData = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes' }],
      [BigInt(auth.validAfter), BigInt(auth.validBefore), BigInt(auth.salt), auth.signature],
    );
    const amount = BigInt(deposit.amount);
    const stolenConfig = { ...channelConfig, receiver: thief };
    const before = await Promise.all([agent.address, thief, X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS].map((address) => chain.usdcBalanceOf(address)));

    const depositInto = (config: ChannelConfig) =>
      ({ address: X402_BATCH_SETTLEMENT_ADDRESS, abi: [...x402BatchSettlementAbi, ...fiatTokenErrors], functionName: 'deposit', args: [config, amount, X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS, collectorData] }) as Parameters<typeof relayer.writeContract>[0];
    await expectReverts(depositInto(stolenConfig), 'FiatTokenV2: invalid signature');
    const collect = {
      address: X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
      abi: x402Erc3009DepositCollectorAbi,
      functionName: 'collect',
      args: [agent.address, usdc, amount, computeChannelId(channelConfig, chain.info.network), collectorData],
    } as Parameters<typeof relayer.writeContract>[0];
    await expectReverts(collect, 'UnauthorizedCaller');
    expect(await Promise.all([agent.address, thief, X402_ERC3009_DEPOSIT_COLLECTOR_ADDRESS].map((address) => chain.usdcBalanceOf(address)))).toEqual(before);

    // The same authorization, for the channel it was signed for, deposits (anyone may relay it).
    const hash = await relayer.writeContract(depositInto(channelConfig));
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await channelState(computeChannelId(channelConfig, chain.info.network))).toEqual([amount, 0n]);
    expect(await channelState(computeChannelId(stolenConfig, chain.info.network))).toEqual([0n, 0n]);
  });
});

// Last in the file: it moves the chain's clock past the withdraw delay, after which the other
// tests' ERC-3009 deposits (valid for minutes of wall-clock time) would have expired.
describe("the payer's timed withdrawal, the escape hatch when the seller does not refund", () => {
  it('returns the unclaimed balance after the withdraw delay, not before, and claims made meanwhile still pay the seller', async () => {
    const { agent, config, channelId, voucher } = await openChannel();
    const payer = walletOf(agent);
    const send = async (call: Parameters<typeof payer.writeContract>[0]) => {
      const hash = await payer.writeContract(call);
      expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    await send({ ...channels, functionName: 'initiateWithdraw', args: [config, DEPOSIT] } as Parameters<typeof payer.writeContract>[0]);
    await expect(chain.publicClient.simulateContract({ ...channels, functionName: 'finalizeWithdraw', args: [config], account: agent })).rejects.toThrow('WithdrawNotReady');
    await expect(chain.publicClient.simulateContract({ ...channels, functionName: 'finalizeWithdraw', args: [config], account: relayer.account })).rejects.toThrow('NotPayer');

    // During the delay the seller claims the voucher it holds.
    const rows = [claimRow(config, voucher.maxClaimableAmount, voucher.signature, voucher.maxClaimableAmount)];
    const hash = await relayer.writeContract(claimWithSignature(rows, await signClaims(receiverAuthorizer, rows)));
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');

    const testClient = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) });
    await testClient.increaseTime({ seconds: config.withdrawDelay });
    await testClient.mine({ blocks: 1 });
    const agentBefore = await chain.usdcBalanceOf(agent.address);
    await send({ ...channels, functionName: 'finalizeWithdraw', args: [config] } as Parameters<typeof payer.writeContract>[0]);

    expect(await chain.usdcBalanceOf(agent.address)).toBe(agentBefore + DEPOSIT - voucher.maxClaimableAmount);
    expect(await channelState(channelId)).toEqual([voucher.maxClaimableAmount, voucher.maxClaimableAmount]);
    expect(await chain.publicClient.readContract({ ...channels, functionName: 'pendingWithdrawals', args: [channelId] })).toEqual([0n, 0]);
  });
});
