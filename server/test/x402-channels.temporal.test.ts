/**
 * x402 `batch-settlement` channels through Purser against a real seller on the sandbox chain. The
 * seller is built only from the official packages (@x402/hono's middleware, @x402/evm's
 * batch-settlement server scheme with its own receiver authorizer key) with its own official
 * batch-settlement facilitator and gas account, independent of Purser's: $0.01 a call, a $0.50
 * minimum deposit. The agent pays each call with a voucher; the seller claims once; the agent
 * closes the channel; the ledger captures what the chain says the seller claimed.
 *
 * A hostile seller signs (with its receiver authorizer) a claim above the vouchers and sends it
 * straight to the contract: the chain refuses it, and the ledger still equals the chain.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import { BATCH_SETTLEMENT_DOMAIN, claimBatchTypes, toFacilitatorEvmSigner, type ChannelConfig } from '@x402/evm';
import { computeChannelId } from '@x402/evm/batch-settlement/client';
import { BatchSettlementEvmScheme as BatchSettlementFacilitatorScheme } from '@x402/evm/batch-settlement/facilitator';
import { BatchSettlementEvmScheme as BatchSettlementServerScheme, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/hono';
import { Hono } from 'hono';
import { createTestClient, createWalletClient, http, type Hex } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { x402BatchSettlementAbi } from '../src/services/chain/sandbox/contracts/x402-batch-settlement';
import { X402_BATCH_SETTLEMENT_ADDRESS } from '../src/services/chain/sandbox/sandbox-contracts';
import { ANVIL_MNEMONIC } from '../src/services/chain/sandbox/start-sandbox-chain';
import { startChain } from '../src/services/chain/start-chain';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

const PRICE = 10_000n; // $0.01 a call
const DEPOSIT = 500_000n; // $0.50, the seller's minimum deposit
const CALLS = 20;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let sellerUrl: string;
let sellerScheme: BatchSettlementServerScheme;
let sellerFacilitator: FacilitatorClient;
/** The seller's facilitator account: its own, not Purser's. */
const facilitatorAccount = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 6 });
/** The seller's key for claims and refunds. */
const receiverAuthorizer = privateKeyToAccount(generatePrivateKey());
/** The seller's payee, fresh so its balance is what the channels paid it. */
const payTo = privateKeyToAccount(generatePrivateKey()).address;
let served = 0;

const channels = { address: X402_BATCH_SETTLEMENT_ADDRESS, abi: x402BatchSettlementAbi } as const;

// ---------------------------------------------------------------- the seller

function facilitatorOfSeller() {
  const wallet = createWalletClient({ account: facilitatorAccount, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  const { publicClient } = chain;
  const signer = toFacilitatorEvmSigner({
    address: facilitatorAccount.address,
    getCode: (args) => publicClient.getCode(args),
    readContract: (args) => publicClient.readContract({ ...(args as Parameters<typeof publicClient.readContract>[0]), account: facilitatorAccount.address }),
    verifyTypedData: (args) => publicClient.verifyTypedData(args as Parameters<typeof publicClient.verifyTypedData>[0]),
    writeContract: (args) => wallet.writeContract(args as Parameters<typeof wallet.writeContract>[0]),
    sendTransaction: (args) => wallet.sendTransaction(args),
    waitForTransactionReceipt: (args) => publicClient.waitForTransactionReceipt(args),
  });
  const facilitator = new x402Facilitator().register(chain.info.network, new BatchSettlementFacilitatorScheme(signer));
  return { facilitator: facilitator as unknown as FacilitatorClient, wallet };
}

/** A forecast at $0.01 a call, paid through a channel only: the official batch-settlement seller. */
function forecastSeller(): Hono {
  sellerScheme = new BatchSettlementServerScheme(payTo, { receiverAuthorizerSigner: receiverAuthorizer, storage: new InMemoryChannelStorage() });
  const server = new x402ResourceServer(sellerFacilitator).register(chain.info.network, sellerScheme);
  const api = new Hono();
  api.use(
    paymentMiddleware(
      {
        'GET /forecast': {
          accepts: { scheme: 'batch-settlement', network: chain.info.network, payTo, price: '$0.01', extra: { minDeposit: DEPOSIT.toString() } },
          description: 'Forecast',
          mimeType: 'application/json',
        },
      },
      server,
    ),
  );
  api.get('/forecast', (c) => {
    served += 1;
    return c.json({ forecast: 'sunny' });
  });
  return api;
}

async function serveHono(api: Hono, request: IncomingMessage, response: ServerResponse) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
  const answer = await api.fetch(new Request(`${sellerUrl}${request.url}`, { method: request.method, headers }));
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

let sellerWallet: ReturnType<typeof facilitatorOfSeller>['wallet'];

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  await chain.fundSandboxAddress(facilitatorAccount.address, 1n);
  const built = facilitatorOfSeller();
  sellerFacilitator = built.facilitator;
  sellerWallet = built.wallet;
  const api = forecastSeller();
  const seller = createServer((request, response) => {
    serveHono(api, request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
  sellerUrl = `http://127.0.0.1:${(seller.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((resolve) => seller.close(() => resolve())));

  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 10_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

// ---------------------------------------------------------------- helpers

async function balances(agent: TestAgent) {
  return { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(payTo) };
}

function run<T>(fn: () => Promise<T>): Promise<T> {
  return env.runWorker(fn);
}

const channelState = (channelId: Hex) => chain.publicClient.readContract({ ...channels, functionName: 'channels', args: [channelId] });

async function channelOperation(intentId: string) {
  const operation = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { status: true, details: true } });
  return { status: operation.status, details: operation.details as Record<string, string | number | boolean> };
}

async function payCall(agent: TestAgent) {
  const started = performance.now();
  const paid = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/forecast` });
  const elapsed = performance.now() - started;
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(paid.body.status, JSON.stringify(paid.body)).toBe(200);
  expect(JSON.parse(paid.body.body as string)).toEqual({ forecast: 'sunny' });
  return { intentId: (paid.body.payment as { intent_id: string }).intent_id, voucher: paid.body.channel_voucher as { cumulative_exact: string }, elapsed };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
};

// ---------------------------------------------------------------- tests

describe('a batch-settlement channel to an official seller', () => {
  it(`pays ${CALLS} calls of $0.01 with one deposit and one claim; on close the ledger captures exactly $0.20 and the chain agrees`, async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const fromBlock = (await chain.publicClient.getBlockNumber({ cacheTime: 0 })) + 1n;
    const servedBefore = served;

    const intentId = await run(async () => {
      const durations: number[] = [];
      const intents = new Set<string>();
      for (let call = 0; call < CALLS; call++) {
        const { intentId, voucher, elapsed } = await payCall(agent);
        intents.add(intentId);
        durations.push(elapsed);
        expect(voucher.cumulative_exact).toBe(((call + 1) / 100).toFixed(2).replace(/0$/, '').replace(/\.$/, ''));
      }
      console.log(
        `x402 channel: one paid call through /x402/fetch takes ${median(durations.slice(1)).toFixed(1)} ms (median of ${CALLS - 1} voucher calls); ` +
          `the first, which opens the channel and deposits, ${durations[0]!.toFixed(1)} ms`,
      );
      expect(intents.size).toBe(1);
      return [...intents][0]!;
    });
    expect(served - servedBefore).toBe(CALLS);

    // One intent, holding the deposit; 20 vouchers recorded; one deposit on chain.
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(1);
    const { details, status } = await channelOperation(intentId);
    expect(status).toBe('pending');
    expect(details).toMatchObject({ scheme: 'batch-settlement', deposit: DEPOSIT.toString(), cumulative: (BigInt(CALLS) * PRICE).toString(), vouchers: CALLS, depositSigned: true, payTo });
    const vouchers = await prisma.channelVoucher.findMany({ where: { paymentIntentId: intentId }, select: { amount: true, cumulative: true, resource: true }, orderBy: { cumulative: 'asc' } });
    expect(vouchers).toHaveLength(CALLS);
    expect(vouchers.every((voucher) => voucher.amount === PRICE && voucher.resource === `${sellerUrl}/forecast`)).toBe(true);
    const channelId = details.channelId as Hex;
    expect(await channelState(channelId)).toEqual([DEPOSIT, 0n]);
    const deposits = await chain.publicClient.getContractEvents({ ...channels, eventName: 'Deposited', args: { channelId }, fromBlock });
    expect(deposits).toHaveLength(1);
    // The ledger holds the deposit; the chain holds it in the channel.
    expect(before.ledger - (await ledgerBalance(prisma, agent.id))).toBe(DEPOSIT);
    expect(before.onChain - (await chain.usdcBalanceOf(agent.address))).toBe(DEPOSIT);

    // The agent's listing, and the channel with its vouchers.
    const one = await agentCall(appUrl, agent, 'GET', `/x402/channels/${intentId}`);
    expect(one.status).toBe(200);
    expect((one.body.vouchers as unknown[]).length).toBe(CALLS);
    expect((one.body.vouchers as unknown[])[CALLS - 1]).toMatchObject({ amount_exact: '0.01', cumulative_exact: '0.2', resource: `${sellerUrl}/forecast` });
    const listed = await agentCall(appUrl, agent, 'GET', '/x402/channels');
    expect(listed.status).toBe(200);
    expect((listed.body.channels as unknown[])[0]).toMatchObject({ intent_id: intentId, state: 'open', deposit_exact: '0.5', cumulative_exact: '0.2', vouchers_count: CALLS, channel_id: channelId });

    // The seller claims all vouchers in one claim and settles once.
    const manager = sellerScheme.createChannelManager(sellerFacilitator, chain.info.network, chain.info.usdcAddress);
    const { claims, settle } = await manager.claimAndSettle();
    expect(claims).toEqual([{ vouchers: 1, transaction: expect.stringMatching(/^0x/) }]);
    expect(settle?.transaction).toMatch(/^0x/);

    const closed = await run(() => agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`));
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toMatchObject({ intent_id: intentId, state: 'closed', status: 'settled', captured_exact: '0.2', refund: { requested: true, success: true, error: null } });

    const earned = BigInt(CALLS) * PRICE;
    expect(await channelState(channelId)).toEqual([earned, earned]);
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(earned);
    expect(before.onChain - after.onChain).toBe(earned);
    expect(after.seller - before.seller).toBe(earned);
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, status: true } });
    expect(intent).toEqual({ amount: earned, status: 'settled' });
    const capture = await prisma.ledgerTransaction.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'payment_capture' }, select: { entries: { select: { amount: true } } } });
    expect(capture.entries.map((entry) => entry.amount).sort((a, b) => Number(a - b))).toEqual([-DEPOSIT, earned, DEPOSIT - earned]);
    const claimed = await chain.publicClient.getContractEvents({ ...channels, eventName: 'Claimed', args: { channelId }, fromBlock });
    expect(claimed).toHaveLength(1);

    // The owner sees the vouchers with the payment.
    const detail = await ownerCall(env.testApp.app, owner, 'GET', `/api/v1/intents/${intentId}/detail`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().vouchers).toHaveLength(CALLS);
    expect(detail.json().vouchers[0]).toMatchObject({ amount: '0.01', cumulative: '0.01', resource: `${sellerUrl}/forecast` });
    await expectLedgerConsistent(prisma);
  }, 180_000);

  it('signs each of several calls made at once for its own cumulative, sends them in order, and pays a repeated Idempotency-Key once', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const keyed = (key: string) =>
      fetch(`${appUrl}/functions/v1/mcp-server/x402/fetch`, {
        method: 'POST',
        headers: { ...agent.headers, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ url: `${sellerUrl}/forecast` }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { payment?: { intent_id: string }; error?: { code: string } } }));
    const intentId = await run(async () => {
      // The first call opens the channel; repeated with its key, it is not paid again.
      const first = await keyed('forecast-1');
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const intentId = first.body.payment!.intent_id;
      const again = await keyed('forecast-1');
      expect([again.status, again.body.error?.code]).toEqual([409, 'CONFLICT']);
      const together = await Promise.all(Array.from({ length: 5 }, () => payCall(agent)));
      expect(new Set(together.map((call) => call.intentId))).toEqual(new Set([intentId]));
      expect(together.map((call) => call.voucher.cumulative_exact).sort()).toEqual(['0.02', '0.03', '0.04', '0.05', '0.06']);
      return intentId;
    });
    const vouchers = await prisma.channelVoucher.findMany({ where: { paymentIntentId: intentId }, select: { cumulative: true }, orderBy: { createdAt: 'asc' } });
    expect(vouchers.map((voucher) => voucher.cumulative)).toEqual([1n, 2n, 3n, 4n, 5n, 6n].map((n) => n * PRICE));
    const channelId = (await channelOperation(intentId)).details.channelId as Hex;
    expect((await sellerScheme.getStorage().get(channelId))?.chargedCumulativeAmount).toBe((6n * PRICE).toString());

    // Closed without a claim first: the seller's refund claims what the vouchers signed.
    const closed = await run(() => agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`));
    expect(closed.body).toMatchObject({ state: 'closed', status: 'settled', captured_exact: '0.06', refund: { success: true } });
    expect(await channelState(channelId)).toEqual([6n * PRICE, 6n * PRICE]);
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(6n * PRICE);
    expect(before.onChain - after.onChain).toBe(6n * PRICE);
    await expectLedgerConsistent(prisma);
  }, 120_000);

  it('is refused before anything is signed or held when the seller\'s minimum deposit is above the agent\'s per-transaction limit', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5, maxTransaction: 0.25 });
    const before = await balances(agent);
    const servedBefore = served;
    const refused = await run(() => agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/forecast` }));
    expect(refused.status).toBe(422);
    expect(refused.body.error?.code).toBe('POLICY_VIOLATION');
    expect(refused.body.error?.message).toContain('per-transaction limit');
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await prisma.channelVoucher.count({ where: { agentId: agent.id } })).toBe(0);
    expect(served).toBe(servedBefore);
    expect(await balances(agent)).toEqual(before);
  });
});

describe('a hostile batch-settlement seller', () => {
  it('claiming more than the vouchers signed gets nothing beyond them: the chain refuses, and after close the ledger equals the chain', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentId = await run(async () => {
      let id = '';
      for (let call = 0; call < 3; call++) id = (await payCall(agent)).intentId;
      return id;
    });
    const { details } = await channelOperation(intentId);
    const channelId = details.channelId as Hex;
    const signed = 3n * PRICE;
    const record = (await sellerScheme.getStorage().get(channelId))!;
    expect(BigInt(record.signedMaxClaimable)).toBe(signed);

    // The seller signs, with its own receiver authorizer, a claim of twice what the last voucher allows.
    const config = record.channelConfig as ChannelConfig;
    expect(computeChannelId(config, chain.info.network)).toBe(channelId);
    const greedy = [{ voucher: { channel: config, maxClaimableAmount: signed }, signature: record.signature as Hex, totalClaimed: 2n * signed }];
    const claimSignature = await receiverAuthorizer.signTypedData({
      domain: { ...BATCH_SETTLEMENT_DOMAIN, chainId: chain.info.chainId, verifyingContract: X402_BATCH_SETTLEMENT_ADDRESS },
      types: claimBatchTypes,
      primaryType: 'ClaimBatch',
      message: { claims: [{ channelId, maxClaimableAmount: signed, totalClaimed: 2n * signed }] },
    });
    await expect(chain.publicClient.simulateContract({ ...channels, functionName: 'claimWithSignature', args: [greedy, claimSignature], account: facilitatorAccount })).rejects.toThrow('ClaimExceedsVoucher');
    const hash = await sellerWallet.writeContract({ ...channels, functionName: 'claimWithSignature', args: [greedy, claimSignature], gas: 500_000n });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted');
    expect(await channelState(channelId)).toEqual([DEPOSIT, 0n]);

    // The agent closes: the seller claims what the vouchers signed and refunds the rest.
    const closed = await run(() => agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`));
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.state).toBe('closed');
    const [balance, totalClaimed] = await channelState(channelId);
    expect(balance).toBe(totalClaimed);
    // The refund claims what the vouchers signed, and not a cent more.
    expect(totalClaimed).toBe(signed);
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(totalClaimed);
    expect(before.onChain - after.onChain).toBe(totalClaimed);
    expect(closed.body).toMatchObject({ status: 'settled', captured_exact: '0.03' });
    await expectLedgerConsistent(prisma);
  }, 120_000);
});

// Last in the file: it moves the chain's clock past the channel's withdraw delay.
describe('a batch-settlement seller that never refunds', () => {
  it('keeps only what its vouchers let it claim: the agent withdraws the rest on chain after the delay, and the ledger equals the chain', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    // A second address for the same seller, which goes away before the channel is closed.
    const api = forecastSeller();
    let vanishingUrl = '';
    const vanishing = createServer((request, response) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
      Promise.resolve(api.fetch(new Request(`${vanishingUrl}${request.url}`, { method: request.method, headers })))
        .then(async (answer: Response) => {
          response.writeHead(answer.status, Object.fromEntries(answer.headers));
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch((error: unknown) => response.writeHead(500).end(String(error)));
    });
    await new Promise<void>((resolve) => vanishing.listen(0, '127.0.0.1', resolve));
    vanishingUrl = `http://127.0.0.1:${(vanishing.address() as AddressInfo).port}`;

    await run(async () => {
      let intentId = '';
      for (let call = 0; call < 3; call++) {
        const paid = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${vanishingUrl}/forecast` });
        expect(paid.status, JSON.stringify(paid.body)).toBe(200);
        intentId = (paid.body.payment as { intent_id: string }).intent_id;
      }
      // The seller claims what the three vouchers signed, then disappears.
      const manager = sellerScheme.createChannelManager(sellerFacilitator, chain.info.network, chain.info.usdcAddress);
      await manager.claimAndSettle();
      vanishing.closeAllConnections();
      await new Promise<void>((resolve) => vanishing.close(() => resolve()));

      const closing = await agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`);
      expect(closing.status, JSON.stringify(closing.body)).toBe(200);
      expect(closing.body).toMatchObject({ state: 'closing', refund: { requested: true, success: false } });
      // The rail asked the contract for the unclaimed balance, in the agent's own transaction.
      await expect.poll(async () => (await channelOperation(intentId)).details.withdrawTransactionHash, { timeout: 20_000 }).toMatch(/^0x/);
      expect((await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).status).toBe('processing');

      // The channel's withdraw delay passes on chain; the next look completes the withdrawal.
      const { channelId, withdrawDelay } = (await channelOperation(intentId)).details as { channelId: Hex; withdrawDelay: number };
      const clock = createTestClient({ mode: 'anvil', chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
      await clock.increaseTime({ seconds: withdrawDelay + 1 });
      await clock.mine({ blocks: 1 });
      const closed = await agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`);
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      await expect.poll(async () => (await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).status, { timeout: 20_000 }).toBe('settled');
      const [balance, totalClaimed] = (await channelState(channelId)) as unknown as [bigint, bigint];
      expect([balance, totalClaimed]).toEqual([3n * PRICE, 3n * PRICE]);
    });
    // The seller got what the vouchers signed; the agent everything else, in the ledger and on chain.
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(3n * PRICE);
    expect(before.onChain - after.onChain).toBe(3n * PRICE);
    await expectLedgerConsistent(prisma);
  }, 120_000);
});
