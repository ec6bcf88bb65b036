/**
 * `upto` against sellers that settle it in ways an honest metered seller would not, on the sandbox
 * chain with the official x402 packages. Two settle it for nothing: the official middleware and
 * facilitator told the call cost 0 (which sends no transaction at all), and a seller running its
 * own facilitator that calls the upto proxy with an amount of 0. Two settle an `exact` payment
 * and an `upto` payment of the same agent together: in two transactions of one block (anvil's
 * automine off, then one block mined), naming the exact's transaction as the upto's settlement;
 * and in one transaction through Multicall3 (the facilitator the upto offer names), so the proxy
 * is reached through another contract and the receipt holds both transfers. One settles two
 * `upto` payments of the same agent in one such transaction: the chain cannot tell which amount
 * was which payment's, so neither is captured on a guess; the capture stops and waits for an operator.
 *
 * In each, what was signed, held and captured is checked against the chain: the upto capture is
 * what the proxy's own settlement moved, never another transfer from the same payer to the same
 * payee, and a settlement of nothing returns the whole hold.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { eip3009ABI, toFacilitatorEvmSigner, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { UptoEvmScheme as UptoFacilitatorScheme } from '@x402/evm/upto/facilitator';
import { UptoEvmScheme as UptoServerScheme } from '@x402/evm/upto/server';
import { paymentMiddleware, setSettlementOverrides, x402ResourceServer } from '@x402/hono';
import { Hono } from 'hono';
import { createTestClient, createWalletClient, encodeFunctionData, http, multicall3Abi, type Address, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import { paymentWorkflowId } from '@purser/workflows';
import pino from 'pino';
import { createMetrics } from '../src/metrics/metrics';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { ANVIL_MNEMONIC } from '../src/services/chain/sandbox/start-sandbox-chain';
import { MULTICALL3_ADDRESS } from '../src/services/chain/sandbox/sandbox-contracts';
import { startChain } from '../src/services/chain/start-chain';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { reconcilePaymentWorkflows } from '../src/services/intents/reconcile-payment-workflows';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { permitOf, sendUptoSettle, uptoSettleData } from './support/upto-settlements';
import { agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, signedOperations, type TestAgent } from './support/x402-fixtures';

const MAX = 1_000_000n; // an upto call costs at most $1.00 ...
const USED = 370_000n; // ... and these sellers' calls use $0.37
const PRICE = 250_000n; // the exact call of the batching sellers, $0.25
const MAX_VALIDITY_S = 20;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let sellerUrl: string;
let payTo: Address;
/** The sellers' own facilitator account: its own gas, not Purser's. */
const facilitatorAccount = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 7 });
let wallet: ReturnType<typeof createWalletClient>;
let anvil: ReturnType<typeof createTestClient>;

// ---------------------------------------------------------------- the sellers

/** The official metered seller, charging 0 for the call: its facilitator sends nothing on chain. */
function freeMeteredSeller(): Hono {
  const { publicClient } = chain;
  const signer = toFacilitatorEvmSigner({
    address: facilitatorAccount.address,
    getCode: (args) => publicClient.getCode(args),
    readContract: (args) => publicClient.readContract({ ...(args as Parameters<typeof publicClient.readContract>[0]), account: facilitatorAccount.address }),
    verifyTypedData: (args) => publicClient.verifyTypedData(args as Parameters<typeof publicClient.verifyTypedData>[0]),
    writeContract: (args) => wallet.writeContract(args as Parameters<typeof wallet.writeContract>[0]),
    sendTransaction: (args) => wallet.sendTransaction(args as Parameters<typeof wallet.sendTransaction>[0]),
    waitForTransactionReceipt: (args) => publicClient.waitForTransactionReceipt(args),
  });
  const facilitator = new x402Facilitator().register(chain.info.network, new UptoFacilitatorScheme(signer));
  const server = new x402ResourceServer(facilitator as unknown as FacilitatorClient).register(chain.info.network, new UptoServerScheme());
  const api = new Hono();
  api.use(paymentMiddleware({ 'GET /free': { accepts: { scheme: 'upto', network: chain.info.network, payTo, price: '$1.00' }, description: 'Tokens, metered', mimeType: 'application/json' } }, server));
  api.get('/free', (c) => {
    setSettlementOverrides(c, { amount: '0' });
    return c.json({ tokens: 0 });
  });
  return api;
}

function offer(path: string, accepts: Record<string, unknown>): PaymentRequired {
  return { x402Version: 2, resource: { url: `${sellerUrl}${path}`, description: 'Tokens, metered', mimeType: 'application/json' }, accepts: [accepts] } as unknown as PaymentRequired;
}
function uptoOffer(facilitatorAddress: Address) {
  return { scheme: 'upto', network: chain.info.network, amount: MAX.toString(), asset: chain.info.usdcAddress, payTo, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2', facilitatorAddress } };
}
const exactOffer = () => ({ scheme: 'exact', network: chain.info.network, amount: PRICE.toString(), asset: chain.info.usdcAddress, payTo, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } });

/** The exact payments the batching sellers hold back, by payer, to settle with the payer's next upto. */
const heldExact = new Map<string, PaymentPayload>();
/** The upto payment the double-batching seller holds back, by payer. */
const heldUpto = new Map<string, ReturnType<typeof permitOf>>();
/** What each hostile seller sent on chain, by path. */
const sent = new Map<string, { exact?: Hex; upto?: Hex; batch?: Hex }>();

/** transferWithAuthorization of a held exact payment, with its signature as bytes. */
function exactTransferData(payment: PaymentPayload): Hex {
  const { authorization: a, signature } = payment.payload as { authorization: { from: Address; to: Address; value: string; validAfter: string; validBefore: string; nonce: Hex }; signature: Hex };
  return encodeFunctionData({ abi: eip3009ABI, functionName: 'transferWithAuthorization', args: [a.from, a.to, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce, signature] });
}

async function hostile(path: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const header = request.headers['payment-signature'] as string | undefined;
  const accepts = path === '/batch-exact' ? exactOffer() : uptoOffer(path === '/batch-multicall' || path === '/double-multicall' ? MULTICALL3_ADDRESS : facilitatorAccount.address);
  if (!header) return void response.writeHead(402, { 'payment-required': encodePaymentRequiredHeader(offer(path, accepts)), 'content-type': 'application/json' }).end('{}');
  const payment = decodePaymentSignatureHeader(header);
  const answer = (claim: Record<string, unknown> | null) => {
    response.writeHead(200, { 'content-type': 'application/json', ...(claim ? { 'payment-response': encodePaymentResponseHeader({ success: true, network: chain.info.network, ...claim } as never) } : {}) });
    response.end(JSON.stringify({ tokens: 370 }));
  };
  if (path === '/batch-exact') {
    // Served, and nothing settled yet: it waits for the same payer's upto.
    heldExact.set((payment.payload as { authorization: { from: string } }).authorization.from.toLowerCase(), payment);
    return answer(null);
  }
  const permit = permitOf(header);
  if (path === '/double-multicall') {
    // The first upto is held back; the second settles both in one transaction through Multicall3.
    const first = heldUpto.get(permit.from.toLowerCase());
    if (!first) {
      heldUpto.set(permit.from.toLowerCase(), permit);
      return answer(null);
    }
    heldUpto.delete(permit.from.toLowerCase());
    const batch = await wallet.writeContract({
      account: facilitatorAccount,
      chain: wallet.chain,
      address: MULTICALL3_ADDRESS,
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [[first, permit].map((each) => ({ target: x402UptoPermit2ProxyAddress, allowFailure: false, callData: uptoSettleData(each, USED) }))],
      gas: 600_000n,
    });
    await chain.publicClient.waitForTransactionReceipt({ hash: batch });
    sent.set(path, { batch });
    return answer({ transaction: batch, payer: permit.from, amount: USED.toString() });
  }
  if (path === '/zero-on-chain') {
    const hash = await sendUptoSettle(wallet, permit, 0n);
    await chain.publicClient.waitForTransactionReceipt({ hash });
    sent.set(path, { upto: hash });
    return answer({ transaction: hash, payer: permit.from, amount: '0' });
  }
  const exact = heldExact.get(permit.from.toLowerCase())!;
  if (path === '/batch-block') {
    // Both in one block, the exact first; then it names the exact's transaction as the upto's settlement.
    const nonce = await chain.publicClient.getTransactionCount({ address: facilitatorAccount.address, blockTag: 'pending' });
    await anvil.setAutomine(false);
    try {
      const exactHash = await wallet.sendTransaction({ account: facilitatorAccount, chain: wallet.chain, to: chain.info.usdcAddress, data: exactTransferData(exact), gas: 200_000n, nonce });
      const uptoHash = await sendUptoSettle(wallet, permit, USED, { nonce: nonce + 1 });
      await anvil.mine({ blocks: 1 });
      sent.set(path, { exact: exactHash, upto: uptoHash });
    } finally {
      await anvil.setAutomine(true);
    }
    const { exact: exactHash } = sent.get(path)!;
    await chain.publicClient.waitForTransactionReceipt({ hash: exactHash! });
    return answer({ transaction: exactHash, payer: permit.from, amount: MAX.toString() });
  }
  // /batch-multicall: both in one transaction, the proxy reached through Multicall3.
  const batch = await wallet.writeContract({
    account: facilitatorAccount,
    chain: wallet.chain,
    address: MULTICALL3_ADDRESS,
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [
      [
        { target: chain.info.usdcAddress, allowFailure: false, callData: exactTransferData(exact) },
        { target: x402UptoPermit2ProxyAddress, allowFailure: false, callData: uptoSettleData(permit, USED) },
      ],
    ],
    gas: 500_000n,
  });
  await chain.publicClient.waitForTransactionReceipt({ hash: batch });
  sent.set(path, { batch });
  return answer({ transaction: batch, payer: permit.from, amount: (USED + PRICE).toString() });
}

async function serveHono(api: Hono, request: IncomingMessage, response: ServerResponse) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
  headers.set('accept', 'application/json');
  const answer = await api.fetch(new Request(`${sellerUrl}${request.url}`, { method: request.method, headers }));
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

// ---------------------------------------------------------------- set-up

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  payTo = chain.sandboxSeller!;
  await chain.fundSandboxAddress(facilitatorAccount.address, 1n);
  wallet = createWalletClient({ account: facilitatorAccount, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  anvil = createTestClient({ mode: 'anvil', chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  const free = freeMeteredSeller();
  const seller = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const work = path === '/free' ? serveHono(free, request, response) : hostile(path, request, response);
    work.catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
  sellerUrl = `http://127.0.0.1:${(seller.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((resolve) => seller.close(() => resolve())));

  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000, x402MaxValiditySeconds: MAX_VALIDITY_S });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 10_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

async function balances(agent: TestAgent) {
  return { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address), seller: await chain.usdcBalanceOf(payTo) };
}

async function waitForIntent(intentId: string, done: (status: string) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, amount: true, failureCode: true } });
    if (done(intent.status) || Date.now() > deadline) return intent;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
const ended = (status: string) => status === 'settled' || status === 'failed';

async function fetchPaid(agent: TestAgent, path: string): Promise<string> {
  const paid = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}${path}` });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return (paid.body.payment as { intent_id: string }).intent_id;
}

async function workflowStatus(intentId: string): Promise<string> {
  return (await env.client.workflow.getHandle(paymentWorkflowId(intentId)).describe()).status.name;
}

/** purser_capture_invariant_failures_total of the x402 rail, as this process counts it. */
async function captureInvariantFailures(): Promise<number> {
  const metric = createMetrics({ db: env.testApp.deps.db, logger: pino({ level: 'silent' }) }).registry.getSingleMetric('purser_capture_invariant_failures_total');
  if (!metric) return 0;
  const { values } = await metric.get();
  return values.find((value) => value.labels.rail === 'x402-base')?.value ?? 0;
}

async function operationOf(intentId: string) {
  return prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { status: true, declineCode: true, details: true } });
}

/** The ledger's entries of an intent, by type, each as its amounts in order. */
async function ledgerOf(intentId: string) {
  const transactions = await prisma.ledgerTransaction.findMany({ where: { paymentIntentId: intentId }, select: { type: true, entries: { select: { amount: true } } } });
  return Object.fromEntries(transactions.map((transaction) => [transaction.type, transaction.entries.map((entry) => entry.amount).sort((a, b) => Number(a - b))]));
}

// ---------------------------------------------------------------- tests

describe('an upto seller settling for nothing', () => {
  it('on chain, through the proxy with an amount of 0: the whole hold comes back at once and nothing is captured', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentId = await env.runWorker(async () => {
      const id = await fetchPaid(agent, '/zero-on-chain');
      expect(await waitForIntent(id, ended, 20_000)).toMatchObject({ status: 'failed', failureCode: 'PAYMENT_DECLINED' });
      return id;
    });
    // Signed: at most $1.00 to this seller; the chain used the nonce and moved 0.
    const { upto } = sent.get('/zero-on-chain')!;
    expect((await chain.publicClient.getTransactionReceipt({ hash: upto! })).status).toBe('success');
    expect(await operationOf(intentId)).toMatchObject({ status: 'declined', declineCode: 'settled_for_nothing', details: { maximum: MAX.toString(), transactionHash: upto } });
    // Held $1.00, released whole: one hold and one release, no capture.
    expect(await ledgerOf(intentId)).toEqual({ payment_hold: [-MAX, MAX], payment_release: [-MAX, MAX] });
    expect(await balances(agent)).toEqual(before);
    expect((await chain.permit2Allowance(agent.address)).allowance).toBe(0n);
    await expectLedgerConsistent(prisma);
  });

  it('off chain, the official facilitator told the call cost 0 (it sends nothing): the hold stays while the permit could be settled, then comes back whole', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentId = await env.runWorker(async () => {
      const id = await fetchPaid(agent, '/free');
      // The seller's word that nothing moved is not evidence: the permit can be settled until its deadline.
      expect(await waitForIntent(id, () => false, 2_000)).toMatchObject({ status: 'processing' });
      expect(await ledgerBalance(prisma, agent.id)).toBe(before.ledger - MAX);
      expect(await waitForIntent(id, ended, 60_000)).toMatchObject({ status: 'failed', failureCode: 'PAYMENT_DECLINED' });
      return id;
    });
    expect(await operationOf(intentId)).toMatchObject({ status: 'declined', declineCode: 'authorization_expired' });
    expect(await ledgerOf(intentId)).toEqual({ payment_hold: [-MAX, MAX], payment_release: [-MAX, MAX] });
    expect(await balances(agent)).toEqual(before);
    expect((await chain.permit2Allowance(agent.address)).allowance).toBe(0n);
    await expectLedgerConsistent(prisma);
  }, 120_000);
});

describe('a seller batching an exact and an upto payment of the same agent', () => {
  for (const [path, how] of [
    ['/batch-block', 'in two transactions of one block, naming the exact\'s transaction as the upto\'s settlement'],
    ['/batch-multicall', 'in one Multicall3 transaction, reaching the upto proxy through it'],
  ] as const) {
    it(`${how}: the upto captures what the proxy moved, the exact its own price`, async () => {
      const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
      const before = await balances(agent);
      const [exactId, uptoId] = await env.runWorker(async () => {
        const exact = await fetchPaid(agent, '/batch-exact');
        const upto = await fetchPaid(agent, path);
        for (const id of [exact, upto]) expect(await waitForIntent(id, ended)).toMatchObject({ status: 'settled' });
        return [exact, upto];
      });
      const onChain = sent.get(path)!;
      const [exactTransaction, uptoTransaction] = path === '/batch-block' ? [onChain.exact!, onChain.upto!] : [onChain.batch!, onChain.batch!];
      // Both in one block.
      const blocks = await Promise.all([exactTransaction, uptoTransaction].map(async (hash) => (await chain.publicClient.getTransactionReceipt({ hash })).blockNumber));
      expect(blocks[0]).toBe(blocks[1]);

      // Signed: exactly $0.25 for the exact, at most $1.00 for the upto, both to this seller.
      const operations = await signedOperations(prisma, agent.id);
      expect(operations.map((operation) => (operation.details as { scheme: string }).scheme).sort()).toEqual(['exact', 'upto']);
      expect((await operationOf(exactId)).details).toMatchObject({ scheme: 'exact', payTo, transactionHash: exactTransaction });
      expect((await operationOf(uptoId)).details).toMatchObject({ scheme: 'upto', maximum: MAX.toString(), payTo, transactionHash: uptoTransaction, capturedAmount: USED.toString() });
      // Held and captured: the exact its price; the upto its maximum, then what the proxy moved, the rest returned.
      expect(await ledgerOf(exactId)).toEqual({ payment_hold: [-PRICE, PRICE], payment_capture: [-PRICE, PRICE] });
      expect(await ledgerOf(uptoId)).toEqual({ payment_hold: [-MAX, MAX], payment_capture: [-MAX, USED, MAX - USED] });
      const intents = await prisma.paymentIntent.findMany({ where: { id: { in: [exactId, uptoId] } }, select: { id: true, amount: true } });
      expect(Object.fromEntries(intents.map((intent) => [intent.id, intent.amount]))).toEqual({ [exactId]: PRICE, [uptoId]: USED });
      // The ledger moved what the chain moved.
      expect(await balances(agent)).toEqual({ ledger: before.ledger - PRICE - USED, onChain: before.onChain - PRICE - USED, seller: before.seller + PRICE + USED });
      expect((await chain.permit2Allowance(agent.address)).allowance).toBe(0n);
      await expectLedgerConsistent(prisma);
    }, 120_000);
  }
});

describe('a seller batching two upto payments of the same agent in one transaction through another contract', () => {
  it('has neither captured on a guess: the capture stops for good, an operator is alerted, and both holds stay held', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const alertsBefore = await captureInvariantFailures();
    const ids = await env.runWorker(async () => {
      const first = await fetchPaid(agent, '/double-multicall');
      const second = await fetchPaid(agent, '/double-multicall');
      // Both runs stop at the capture for good: ended, not retrying, the funds held for the operator.
      for (const id of [first, second]) await expect.poll(() => workflowStatus(id), { timeout: 30_000, interval: 250 }).toBe('COMPLETED');
      return [first, second];
    });
    // The chain moved $0.37 twice in one transaction; its logs cannot say which settlement was which payment's.
    expect((await chain.publicClient.getTransactionReceipt({ hash: sent.get('/double-multicall')!.batch! })).status).toBe('success');
    for (const id of ids) {
      expect(await prisma.paymentIntent.findUniqueOrThrow({ where: { id }, select: { status: true, amount: true } })).toEqual({ status: 'processing', amount: MAX });
      const operation = await operationOf(id);
      expect(operation.status).toBe('settled');
      expect((operation.details as { captureInvariant?: string }).captureInvariant).toContain('cannot be told from the chain');
      // Held, neither captured nor released.
      expect(await ledgerOf(id)).toEqual({ payment_hold: [-MAX, MAX] });
    }
    expect(await captureInvariantFailures()).toBe(alertsBefore + 2);
    // The reconciler leaves them to the operator: no new run, no second alert.
    const reconciled = await reconcilePaymentWorkflows(env.testApp.deps, { olderThanMs: 0 });
    expect([...reconciled.restarted, ...reconciled.stuck].filter((id) => ids.includes(id))).toEqual([]);
    expect(await balances(agent)).toEqual({ ledger: before.ledger - 2n * MAX, onChain: before.onChain - 2n * USED, seller: before.seller + 2n * USED });
    await expectLedgerConsistent(prisma);
  }, 120_000);
});
