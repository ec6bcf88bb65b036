/**
 * x402 `batch-settlement` sellers that ask more than an agent should give, and channels whose
 * owner changes the rules while they are open. Each seller is built only from the official
 * packages (@x402/hono's middleware, @x402/evm's batch-settlement server scheme with its own
 * receiver authorizer, its own batch-settlement facilitator and gas account) on the sandbox chain;
 * only its terms differ: a deposit far above a call's price, a withdraw delay of 30 days, refunds
 * refused. In each test what was signed (the vouchers recorded, the seller's own record), what
 * was held and captured (the ledger) and what the chain holds (the channel, the balances) agree.
 *
 * - `max_amount` bounds what leaves the agent's balance for a call: a channel's deposit to open,
 *   a voucher's increment through an open one.
 * - A seller's terms are bounded: a deposit above 100 calls' worth or a withdraw delay above a
 *   day is refused before anything is held or signed.
 * - The deposit passes the payment's gate and hold as the intent's amount.
 * - Each voucher is gated by the rules of the moment: after the owner blocks the seller, lowers
 *   a limit or asks to approve it, the next voucher is refused, nothing is signed, and the channel
 *   later settles for exactly what its vouchers signed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme as BatchSettlementFacilitatorScheme } from '@x402/evm/batch-settlement/facilitator';
import { BatchSettlementEvmScheme as BatchSettlementServerScheme, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/hono';
import { Hono } from 'hono';
import { createTestClient, createWalletClient, http, type Address, type Hex } from 'viem';
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

const PRICE = 1_000n; // $0.001 a call
const DEPOSIT = 50_000n; // $0.05, 50 calls' worth: the seller's minimum deposit
const ONE_DAY_S = 86_400;
const THIRTY_DAYS_S = 2_592_000;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let sellerFacilitator: FacilitatorClient;
/** The sellers' facilitator account: their own, not Purser's. */
const facilitatorAccount = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 7 });
const channels = { address: X402_BATCH_SETTLEMENT_ADDRESS, abi: x402BatchSettlementAbi } as const;
const closers: (() => Promise<void>)[] = [];

// ---------------------------------------------------------------- the sellers

interface Seller {
  url: string;
  payTo: Address;
  scheme: BatchSettlementServerScheme;
  /** Paid calls it answered. */
  served: number;
  /** Answers 403 to everything, the agent's refund request included. */
  refusing: boolean;
}

function facilitatorOfSellers(): FacilitatorClient {
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
  return new x402Facilitator().register(chain.info.network, new BatchSettlementFacilitatorScheme(signer)) as unknown as FacilitatorClient;
}

/** An official batch-settlement seller of ticks at `price` a call, on a port of its own, with its own payee and key. */
async function startSeller(terms: { price: string; minDeposit: bigint; withdrawDelay?: number }): Promise<Seller> {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const scheme = new BatchSettlementServerScheme(payTo, {
    receiverAuthorizerSigner: privateKeyToAccount(generatePrivateKey()),
    storage: new InMemoryChannelStorage(),
    ...(terms.withdrawDelay !== undefined ? { withdrawDelay: terms.withdrawDelay } : {}),
  });
  const resourceServer = new x402ResourceServer(sellerFacilitator).register(chain.info.network, scheme);
  const seller: Seller = { url: '', payTo, scheme, served: 0, refusing: false };
  const api = new Hono();
  api.use(async (c, next) => (seller.refusing ? c.text('refused', 403) : next()));
  api.use(
    paymentMiddleware(
      {
        'GET /ticks': {
          accepts: { scheme: 'batch-settlement', network: chain.info.network, payTo, price: terms.price, extra: { minDeposit: terms.minDeposit.toString() } },
          description: 'Ticks',
          mimeType: 'application/json',
        },
      },
      resourceServer,
    ),
  );
  api.get('/ticks', (c) => {
    seller.served += 1;
    return c.json({ tick: 42 });
  });
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
    Promise.resolve(api.fetch(new Request(`${seller.url}${request.url}`, { method: request.method, headers })))
      .then(async (answer: Response) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  seller.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return seller;
}

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  await chain.fundSandboxAddress(facilitatorAccount.address, 1n);
  sellerFacilitator = facilitatorOfSellers();
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 10_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  for (const close of closers) await close();
  await env?.close();
  await chain?.close();
});

// ---------------------------------------------------------------- helpers

function run<T>(fn: () => Promise<T>): Promise<T> {
  return env.runWorker(fn);
}

async function balances(agent: TestAgent, seller: Seller) {
  return { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(seller.payTo) };
}

const channelOnChain = (channelId: Hex) => chain.publicClient.readContract({ ...channels, functionName: 'channels', args: [channelId] }) as Promise<readonly [bigint, bigint]>;

async function channelOf(intentId: string) {
  const operation = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { status: true, details: true } });
  const details = operation.details as { channelId: Hex; deposit: string; cumulative: string; vouchers: number; withdrawDelay: number };
  return { status: operation.status, ...details };
}

function tick(agent: TestAgent, seller: Seller, body: Record<string, unknown> = {}) {
  return agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${seller.url}/ticks`, ...body });
}

async function paidTick(agent: TestAgent, seller: Seller, body: Record<string, unknown> = {}) {
  const paid = await tick(agent, seller, body);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(paid.body.status, JSON.stringify(paid.body)).toBe(200);
  return { intentId: (paid.body.payment as { intent_id: string }).intent_id, voucher: paid.body.channel_voucher as { amount_exact: string; cumulative_exact: string; deposit_exact: string } };
}

/** A refusal that changed nothing: the code, no voucher signed, nothing sent to the seller, the same balances. */
async function expectRefusedUnchanged(refusal: Awaited<ReturnType<typeof tick>>, code: string, agent: TestAgent, seller: Seller, before: { balances: Awaited<ReturnType<typeof balances>>; vouchers: number; served: number }) {
  expect(refusal.status, JSON.stringify(refusal.body)).toBe(422);
  expect(refusal.body.error?.code).toBe(code);
  expect(await prisma.channelVoucher.count({ where: { agentId: agent.id } })).toBe(before.vouchers);
  expect(seller.served).toBe(before.served);
  expect(await balances(agent, seller)).toEqual(before.balances);
}

/** The seller claims what the vouchers signed; the agent closes; the ledger captures what the chain says, and both moved it. */
async function claimCloseAndCheck(agent: TestAgent, seller: Seller, intentId: string, before: Awaited<ReturnType<typeof balances>>, signed: bigint) {
  const manager = seller.scheme.createChannelManager(sellerFacilitator, chain.info.network, chain.info.usdcAddress);
  await manager.claimAndSettle();
  const closed = await run(() => agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`));
  expect(closed.status, JSON.stringify(closed.body)).toBe(200);
  expect(closed.body).toMatchObject({ state: 'closed', status: 'settled' });
  const { channelId } = await channelOf(intentId);
  expect(await channelOnChain(channelId)).toEqual([signed, signed]);
  const after = await balances(agent, seller);
  expect(before.ledger - after.ledger).toBe(signed);
  expect(before.onChain - after.onChain).toBe(signed);
  expect(after.seller - before.seller).toBe(signed);
  expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, status: true } })).toEqual({ amount: signed, status: 'settled' });
  await expectLedgerConsistent(prisma);
}

// ---------------------------------------------------------------- tests

describe('a channel seller that asks a deposit above max_amount', () => {
  it('is refused before anything is signed or held; within max_amount the deposit is held, each later call bounds only its voucher, and the ledger captures what the chain says', async () => {
    const seller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT });
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent, seller);

    // The call's price fits max_amount; the channel it would open holds 50 times that.
    const refused = await tick(agent, seller, { max_amount: 0.001 });
    await expectRefusedUnchanged(refused, 'POLICY_VIOLATION', agent, seller, { balances: before, vouchers: 0, served: 0 });
    expect(refused.body.error?.message).toBe("The seller's channel needs a deposit of 0.05 USDC, more than max_amount 0.001 USDC; no channel was opened and nothing was held or signed");
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);

    // With room for the deposit: the deposit is the intent's amount, held, and on chain.
    const { intentId, voucher } = await run(() => paidTick(agent, seller, { max_amount: 0.05 }));
    expect(voucher).toEqual({ amount_exact: '0.001', cumulative_exact: '0.001', deposit_exact: '0.05' });
    expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, status: true } })).toEqual({ amount: DEPOSIT, status: 'processing' });
    const { channelId } = await channelOf(intentId);
    expect(await channelOnChain(channelId)).toEqual([DEPOSIT, 0n]);
    expect(before.ledger - (await ledgerBalance(prisma, agent.id))).toBe(DEPOSIT);
    expect(before.onChain - (await chain.usdcBalanceOf(agent.address))).toBe(DEPOSIT);

    // Through the open channel max_amount bounds the call's voucher, not the deposit's rest.
    expect((await paidTick(agent, seller, { max_amount: 0.001 })).voucher.cumulative_exact).toBe('0.002');
    const tooCheap = await tick(agent, seller, { max_amount: 0.0005 });
    expect(tooCheap.status).toBe(422);
    expect(tooCheap.body.error).toMatchObject({ code: 'POLICY_VIOLATION', message: expect.stringContaining('more than max_amount 0.0005') });
    expect(await prisma.channelVoucher.count({ where: { agentId: agent.id } })).toBe(2);
    expect(seller.served).toBe(2);
    expect((await seller.scheme.getStorage().get(channelId))?.chargedCumulativeAmount).toBe((2n * PRICE).toString());

    await claimCloseAndCheck(agent, seller, intentId, before, 2n * PRICE);
  }, 120_000);

  it("refuses a deposit above 100 calls' worth, whatever max_amount and the agent's limits allow, before anything is held or signed", async () => {
    const seller = await startSeller({ price: '$0.001', minDeposit: 101n * PRICE });
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent, seller);
    const refused = await tick(agent, seller, { max_amount: 1 });
    await expectRefusedUnchanged(refused, 'X402_REFUSED', agent, seller, { balances: before, vouchers: 0, served: 0 });
    expect(refused.body.error?.message).toContain("asks a deposit of 0.101 USDC for calls of 0.001 USDC, above the 100 calls' worth (0.1 USDC)");
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
  }, 60_000);
});

describe("a channel's deposit is a payment", () => {
  it("passes the payment's gate as the intent's amount: a daily limit or a policy's per-transaction cap below the deposit blocks it, and nothing is held or signed", async () => {
    const seller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT });
    // The agent's daily limit is below the deposit, its per-transaction limit above it.
    const daily = await createFundedAgent(env.testApp.app, owner, { fund: 5, maxTransaction: 1, dailyLimit: 0.04 });
    const dailyBefore = await balances(daily, seller);
    const byDaily = await run(() => tick(daily, seller));
    await expectRefusedUnchanged(byDaily, 'POLICY_VIOLATION', daily, seller, { balances: dailyBefore, vouchers: 0, served: 0 });
    expect(byDaily.body.error?.message).toContain('DAILY_LIMIT_EXCEEDED');

    // An owner's policy caps one payment above the call's price and below the deposit.
    const capped = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const policy = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/policies', { name: 'Small payments', agentId: capped.id, rules: { maxPerTransaction: 0.01 } });
    expect(policy.statusCode, policy.body).toBe(201);
    const cappedBefore = await balances(capped, seller);
    const byPolicy = await run(() => tick(capped, seller));
    await expectRefusedUnchanged(byPolicy, 'POLICY_VIOLATION', capped, seller, { balances: cappedBefore, vouchers: 0, served: 0 });
    expect(byPolicy.body.error?.message).toContain('MAX_PER_TRANSACTION_EXCEEDED');

    for (const agent of [daily, capped]) {
      const intents = await prisma.paymentIntent.findMany({ where: { agentId: agent.id }, select: { amount: true, status: true, reservedAt: true } });
      expect(intents).toEqual([{ amount: DEPOSIT, status: 'blocked', reservedAt: null }]);
      expect(await prisma.railOperation.count({ where: { paymentIntent: { agentId: agent.id } } })).toBe(0);
    }
    await expectLedgerConsistent(prisma);
  }, 60_000);
});

describe('each voucher is gated by the rules of the moment', () => {
  it('after the owner blocks the seller, the next voucher is refused and nothing is signed; the deposit stays held and the channel settles for exactly what its vouchers signed', async () => {
    const seller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT });
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent, seller);
    const intentId = await run(async () => {
      await paidTick(agent, seller);
      return (await paidTick(agent, seller)).intentId;
    });
    const { channelId } = await channelOf(intentId);

    const policy = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/policies', { name: 'Not this seller', agentId: agent.id, rules: { blockedMerchants: [seller.payTo] } });
    expect(policy.statusCode, policy.body).toBe(201);
    const held = await balances(agent, seller);
    const refused = await tick(agent, seller);
    await expectRefusedUnchanged(refused, 'POLICY_VIOLATION', agent, seller, { balances: held, vouchers: 2, served: 2 });
    expect(refused.body.error?.message).toContain('MERCHANT_BLOCKED');
    expect(refused.body.error?.message).toContain(`payment intent ${intentId}`);
    // Nothing signed: the channel's record, the seller's record and the chain are where the two calls left them.
    expect(await channelOf(intentId)).toMatchObject({ status: 'pending', cumulative: (2n * PRICE).toString(), vouchers: 2 });
    expect((await seller.scheme.getStorage().get(channelId))?.chargedCumulativeAmount).toBe((2n * PRICE).toString());
    expect(await channelOnChain(channelId)).toEqual([DEPOSIT, 0n]);
    expect(before.ledger - held.ledger).toBe(DEPOSIT);
    expect((await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).status).toBe('processing');

    await claimCloseAndCheck(agent, seller, intentId, before, 2n * PRICE);
  }, 120_000);

  it("a per-transaction limit lowered below the call's price refuses the next voucher; a daily limit counts the vouchers, not the deposit again", async () => {
    const seller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT });
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent, seller);
    const rules = async (change: Record<string, number>) => {
      const changed = await ownerCall(env.testApp.app, owner, 'PATCH', `/api/v1/agents/${agent.id}/spending-rules`, change);
      expect(changed.statusCode, changed.body).toBe(200);
    };
    const intentId = await run(async () => {
      await paidTick(agent, seller);
      return (await paidTick(agent, seller)).intentId;
    });

    await rules({ max_transaction_amount: 0.0005 });
    const held = await balances(agent, seller);
    const perTransaction = await tick(agent, seller);
    await expectRefusedUnchanged(perTransaction, 'POLICY_VIOLATION', agent, seller, { balances: held, vouchers: 2, served: 2 });
    expect(perTransaction.body.error?.message).toContain('MAX_PER_TRANSACTION_EXCEEDED');

    // A daily limit far below the $0.05 held: the vouchers signed today count, the held rest does not.
    await rules({ max_transaction_amount: 5, max_daily_limit: 0.003 });
    expect((await paidTick(agent, seller)).voucher.cumulative_exact).toBe('0.003');
    const daily = await tick(agent, seller);
    await expectRefusedUnchanged(daily, 'POLICY_VIOLATION', agent, seller, { balances: held, vouchers: 3, served: 3 });
    expect(daily.body.error?.message).toContain('DAILY_LIMIT_EXCEEDED');
    expect(await channelOf(intentId)).toMatchObject({ status: 'pending', cumulative: (3n * PRICE).toString(), vouchers: 3 });

    await claimCloseAndCheck(agent, seller, intentId, before, 3n * PRICE);
  }, 120_000);

  it("a voucher the rules send to the owner is refused, unless the owner approved the channel's deposit", async () => {
    // The owner approves a deposit above the agent's threshold; a threshold lowered below the call afterwards does not stop its vouchers.
    const approvedSeller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT });
    const approved = await createFundedAgent(env.testApp.app, owner, { fund: 5, approvalThreshold: 0.01 });
    const approvedBefore = await balances(approved, approvedSeller);
    const intentId = await run(async () => {
      const waiting = await tick(approved, approvedSeller);
      expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
      expect(waiting.body).toMatchObject({ status: 'pending_approval', amount_exact: '0.05' });
      const id = waiting.body.intent_id as string;
      const decided = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/intents/${id}/approve`, {});
      expect(decided.statusCode, decided.body).toBe(200);
      await expect.poll(() => prisma.railOperation.count({ where: { paymentIntentId: id } }), { timeout: 20_000 }).toBe(1);
      return id;
    });
    expect((await paidTick(approved, approvedSeller)).intentId).toBe(intentId);
    const lowered = await ownerCall(env.testApp.app, owner, 'PATCH', `/api/v1/agents/${approved.id}/spending-rules`, { approval_threshold: 0.0005 });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect((await paidTick(approved, approvedSeller)).voucher.cumulative_exact).toBe('0.002');

    // A channel nobody approved: a threshold policy added while it is open refuses its next voucher.
    const seller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT });
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent, seller);
    const openId = (await run(() => paidTick(agent, seller))).intentId;
    const policy = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/policies', { name: 'Ask me', agentId: agent.id, rules: { approvalThreshold: 0.0005 } });
    expect(policy.statusCode, policy.body).toBe(201);
    const held = await balances(agent, seller);
    const refused = await tick(agent, seller);
    await expectRefusedUnchanged(refused, 'POLICY_VIOLATION', agent, seller, { balances: held, vouchers: 1, served: 1 });
    expect(refused.body.error?.message).toContain('send to the owner for approval, which a call through a channel cannot wait for');
    expect(refused.body.error?.message).toContain('APPROVAL_THRESHOLD_EXCEEDED');

    await claimCloseAndCheck(approved, approvedSeller, intentId, approvedBefore, 2n * PRICE);
    await claimCloseAndCheck(agent, seller, openId, before, PRICE);
  }, 120_000);
});

describe('a channel seller with a long withdraw delay that refuses refunds', () => {
  it('asking a 30-day withdraw delay, is refused before anything is signed or held; the chain and the ledger are unchanged', async () => {
    const seller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT, withdrawDelay: THIRTY_DAYS_S });
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent, seller);
    const fromBlock = (await chain.latestBlock()).number;
    const refused = await run(() => tick(agent, seller));
    await expectRefusedUnchanged(refused, 'X402_REFUSED', agent, seller, { balances: before, vouchers: 0, served: 0 });
    expect(refused.body.error?.message).toContain(`withdrawDelay of ${THIRTY_DAYS_S} seconds is above the ${ONE_DAY_S} seconds (one day)`);
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
    const deposits = await chain.publicClient.getContractEvents({ ...channels, eventName: 'Deposited', fromBlock });
    expect(deposits).toEqual([]);
  }, 60_000);

  // Last in the file: it moves the chain's clock a day forward.
  it('at the one-day cap, keeps only what its vouchers let it claim: the agent withdraws the rest on chain after the day, and the ledger equals the chain', async () => {
    const seller = await startSeller({ price: '$0.001', minDeposit: DEPOSIT, withdrawDelay: ONE_DAY_S });
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent, seller);
    await run(async () => {
      let intentId = '';
      for (let call = 0; call < 3; call++) intentId = (await paidTick(agent, seller)).intentId;
      const { channelId, withdrawDelay } = await channelOf(intentId);
      expect(withdrawDelay).toBe(ONE_DAY_S);
      // The seller claims what the three vouchers signed, then refuses everything, the refund included.
      await seller.scheme.createChannelManager(sellerFacilitator, chain.info.network, chain.info.usdcAddress).claimAndSettle();
      seller.refusing = true;

      const closing = await agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`);
      expect(closing.status, JSON.stringify(closing.body)).toBe(200);
      expect(closing.body).toMatchObject({ state: 'closing', refund: { requested: true, success: false } });
      await expect.poll(async () => ((await channelOf(intentId)) as { withdrawTransactionHash?: string }).withdrawTransactionHash, { timeout: 20_000 }).toMatch(/^0x/);
      // Held until the day has passed on chain.
      expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, status: true } })).toEqual({ amount: DEPOSIT, status: 'processing' });

      const clock = createTestClient({ mode: 'anvil', chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
      await clock.increaseTime({ seconds: ONE_DAY_S + 1 });
      await clock.mine({ blocks: 1 });
      const closed = await agentCall(appUrl, agent, 'POST', `/x402/channels/${intentId}/close`);
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      await expect.poll(async () => (await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).status, { timeout: 20_000 }).toBe('settled');
      expect(await channelOnChain(channelId)).toEqual([3n * PRICE, 3n * PRICE]);
    });
    const after = await balances(agent, seller);
    expect(before.ledger - after.ledger).toBe(3n * PRICE);
    expect(before.onChain - after.onChain).toBe(3n * PRICE);
    expect(after.seller - before.seller).toBe(3n * PRICE);
    await expectLedgerConsistent(prisma);
  }, 120_000);
});
