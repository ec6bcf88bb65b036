/**
 * x402's `upto` scheme against real sellers on the sandbox chain. The honest seller is built only
 * from the official packages (@x402/hono's middleware, @x402/evm's upto server scheme) with its
 * own official upto facilitator and gas account, independent of Purser's: it prices a call at
 * most $1.00 and settles what the call used. The hostile sellers take the same signed payment and
 * try to take more than it allows, or report more than they took.
 *
 * Each test checks what the agent signed and held against its rules, and the ledger against the
 * chain: the ledger moves what the chain moved, never the seller's word, and the rest of the hold
 * comes back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { PERMIT2_ADDRESS, toFacilitatorEvmSigner, x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { UptoEvmScheme as UptoFacilitatorScheme } from '@x402/evm/upto/facilitator';
import { UptoEvmScheme as UptoServerScheme } from '@x402/evm/upto/server';
import { createEIP712OfferReceiptIssuer, createOfferReceiptExtension, createReceiptEIP712, declareOfferReceiptExtension } from '@x402/extensions/offer-receipt';
import { declarePaymentIdentifierExtension, extractPaymentIdentifier, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import type { FacilitatorClient } from '@x402/core/server';
import { paymentMiddleware, setSettlementOverrides, x402ResourceServer } from '@x402/hono';
import { Hono } from 'hono';
import { createTestClient, createWalletClient, http, parseAbi, type Address, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { ANVIL_MNEMONIC } from '../src/services/chain/sandbox/start-sandbox-chain';
import { startChain } from '../src/services/chain/start-chain';
import { paymentIdentifierFor } from '../src/services/paid-calls/x402/payment-identifier';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { agentCall, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, signedOperations, type TestAgent } from './support/x402-fixtures';

const MAX = 1_000_000n; // $1.00, the most one call may cost
const USED = 370_000n; // $0.37, what the metered call used
const MAX_VALIDITY_S = 15;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let sellerUrl: string;
let payTo: Address;
/** The seller's facilitator account: its own, not Purser's. */
const facilitatorAccount = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 7 });
/** The key the seller signs its offers and receipts with (x402's offer-receipt extension). */
const sellerReceiptKey = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 8 });
const signAsSeller = (message: Parameters<typeof sellerReceiptKey.signTypedData>[0]) => sellerReceiptKey.signTypedData(message);
/** What the seller saw when a payment reached it: the agent's Permit2 allowance at that moment. */
const allowanceSeen: bigint[] = [];
/** The payment identifiers the honest seller was paid with. */
const identifiersSeen: (string | null)[] = [];

const erc20 = parseAbi(['function allowance(address owner, address spender) view returns (uint256)']);

// ---------------------------------------------------------------- the sellers

function sellerFacilitator() {
  const wallet = createWalletClient({ account: facilitatorAccount, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  const { publicClient } = chain;
  const signer = toFacilitatorEvmSigner({
    address: facilitatorAccount.address,
    getCode: (args) => publicClient.getCode(args),
    // Read as the facilitator: the upto proxy's simulated settle answers only to it.
    readContract: (args) => publicClient.readContract({ ...(args as Parameters<typeof publicClient.readContract>[0]), account: facilitatorAccount.address }),
    verifyTypedData: (args) => publicClient.verifyTypedData(args as Parameters<typeof publicClient.verifyTypedData>[0]),
    writeContract: (args) => wallet.writeContract(args as Parameters<typeof wallet.writeContract>[0]),
    sendTransaction: (args) => wallet.sendTransaction(args),
    waitForTransactionReceipt: (args) => publicClient.waitForTransactionReceipt(args),
  });
  return { facilitator: new x402Facilitator().register(chain.info.network, new UptoFacilitatorScheme(signer)), wallet };
}

/**
 * The honest metered seller, from the official packages only: `upto`, at most $1.00 a call,
 * settling $0.37. Its middleware verifies and settles through its own facilitator.
 */
function meteredSeller(facilitator: ReturnType<typeof sellerFacilitator>['facilitator']): Hono {
  // The facilitator object answers the client's three calls itself (getSupported synchronously).
  const server = new x402ResourceServer(facilitator as unknown as FacilitatorClient)
    .register(chain.info.network, new UptoServerScheme())
    // Signed offers in its 402 and a signed receipt in its PAYMENT-RESPONSE.
    .registerExtension(createOfferReceiptExtension(createEIP712OfferReceiptIssuer(`did:pkh:eip155:84532:${sellerReceiptKey.address}`, signAsSeller as never)));
  const api = new Hono();
  api.use(
    paymentMiddleware(
      {
        'GET /metered': {
          accepts: { scheme: 'upto', network: chain.info.network, payTo, price: '$1.00' },
          description: 'Tokens, metered',
          mimeType: 'application/json',
          // The seller wants to recognise a retried payment (x402's payment-identifier extension).
          extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(true), ...declareOfferReceiptExtension({ includeTxHash: true }) },
        },
      },
      server,
    ),
  );
  api.get('/metered', async (c) => {
    identifiersSeen.push(extractPaymentIdentifier(decodePaymentSignatureHeader(c.req.header('payment-signature')!)));
    allowanceSeen.push(await chain.publicClient.readContract({ address: chain.info.usdcAddress, abi: erc20, functionName: 'allowance', args: [c.req.header('x-agent-address') as Address, PERMIT2_ADDRESS] }));
    setSettlementOverrides(c, { amount: USED.toString() });
    return c.json({ tokens: 370 });
  });
  return api;
}

/**
 * The hostile sellers take the agent's signed `upto` payment (first answering the 402 the honest
 * seller would) and then, with their own facilitator account, try:
 * - /greedy: to settle $1.01 of a signed $1.00, straight on the upto proxy (no facilitator check);
 * - /liar: to settle $0.37 but report in PAYMENT-RESPONSE that $1.00 moved;
 * - /elsewhere: to settle $0.37 but name in PAYMENT-RESPONSE its previous settlement, a real
 *   upto settlement of the same payer and payee under another nonce.
 */
async function hostile(path: string, request: IncomingMessage, response: ServerResponse, honest: Hono, wallet: ReturnType<typeof sellerFacilitator>['wallet']) {
  const header = request.headers['payment-signature'] as string | undefined;
  if (!header) {
    // The offer is the honest seller's, word for word.
    const offer = await honest.fetch(new Request(`${sellerUrl}/metered`, { headers: { accept: 'application/json' } }));
    response.writeHead(402, Object.fromEntries(offer.headers));
    return void response.end(await offer.text());
  }
  const payment = decodePaymentSignatureHeader(header) as PaymentPayload & { payload: { permit2Authorization: Record<string, never> & { permitted: { token: Address; amount: string }; nonce: string; deadline: string; from: Address; witness: { to: Address; facilitator: Address; validAfter: string } }; signature: Hex } };
  const { permit2Authorization: permit, signature } = payment.payload;
  const take = path === '/greedy' ? MAX + 10_000n : USED;
  const previous = settledElsewhere.at(-1) ?? '';
  const args = [
    { permitted: { token: permit.permitted.token, amount: BigInt(permit.permitted.amount) }, nonce: BigInt(permit.nonce), deadline: BigInt(permit.deadline) },
    take,
    permit.from,
    { to: permit.witness.to, facilitator: permit.witness.facilitator, validAfter: BigInt(permit.witness.validAfter) },
    signature,
  ] as const;
  let transaction = '';
  try {
    // Sent with a fixed gas limit, so a revert is mined (and seen) instead of refused by estimation.
    const hash = await wallet.writeContract({ address: x402UptoPermit2ProxyAddress, abi: x402UptoPermit2ProxyABI, functionName: 'settle', args, gas: 300_000n });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    hostileReceipts.push({ path, status: receipt.status });
    transaction = hash;
    if (path === '/elsewhere') settledElsewhere.push(hash);
  } catch (error) {
    hostileReceipts.push({ path, status: `refused: ${String(error).slice(0, 80)}` });
  }
  // Either way it claims success, and that the whole maximum moved; its receipt names another payer.
  const receipt = await createReceiptEIP712({ resourceUrl: `${sellerUrl}${path}`, payer: facilitatorAccount.address, network: chain.info.network, transaction }, signAsSeller as never);
  const claim = { success: true, transaction: path === '/elsewhere' ? previous : transaction, network: chain.info.network, payer: permit.from, amount: MAX.toString(), extensions: { 'offer-receipt': { info: { receipt } } } };
  response.writeHead(200, { 'content-type': 'application/json', 'payment-response': encodePaymentResponseHeader(claim as Parameters<typeof encodePaymentResponseHeader>[0]) });
  response.end(JSON.stringify({ tokens: 1000 }));
}
const hostileReceipts: { path: string; status: string }[] = [];
/** What /elsewhere really settled, call by call. */
const settledElsewhere: Hex[] = [];

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
  // Gas for the seller's own facilitator account.
  await chain.fundSandboxAddress(facilitatorAccount.address, 1n);
  const { facilitator, wallet } = sellerFacilitator();
  const honest = meteredSeller(facilitator);
  const seller = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const work = path === '/greedy' || path === '/liar' || path === '/elsewhere' ? hostile(path, request, response, honest, wallet) : serveHono(honest, request, response);
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

async function permit2Allowance(agent: TestAgent): Promise<bigint> {
  return (await chain.permit2Allowance(agent.address)).allowance;
}

function run<T>(fn: () => Promise<T>): Promise<T> {
  return env.runWorker(fn);
}

async function waitForIntent(intentId: string, done: (status: string) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, amount: true, failureCode: true } });
    if (done(intent.status) || Date.now() > deadline) return intent;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// ---------------------------------------------------------------- tests

describe('an official upto seller charging $0.37 of a signed $1.00', () => {
  it('is paid exactly $0.37 in the ledger and on chain; the rest of the hold returns and Permit2 keeps no allowance', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);

    const intentId = await run(async () => {
      const paid = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/metered`, headers: { 'x-agent-address': agent.address } });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(JSON.parse(paid.body.body as string), JSON.stringify(paid.body.headers)).toEqual({ tokens: 370 });
      const payment = paid.body.payment as { intent_id: string; status: string; transaction_hash: string };
      // Confirmed from the seller's transaction in the request; the workflow captures right after.
      expect(payment.status).toBe('processing');
      expect(payment.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await waitForIntent(payment.intent_id, (status) => status === 'settled' || status === 'failed')).toMatchObject({ status: 'settled' });
      // The seller's signed receipt holds, and names this agent, resource and settlement.
      expect(paid.body.seller_receipt).toMatchObject({ format: 'eip712', verified: true, problems: [], signer: sellerReceiptKey.address, claims: { payer: agent.address, resourceUrl: `${sellerUrl}/metered` } });
      return payment.intent_id;
    });

    // What was signed: at most $1.00, only to the seller, only through its facilitator.
    const [operation] = await signedOperations(prisma, agent.id);
    const details = operation!.details as Record<string, string>;
    expect(details).toMatchObject({ scheme: 'upto', maximum: MAX.toString(), capturedAmount: USED.toString(), facilitator: facilitatorAccount.address, payTo });
    // Permit2 could move what was held when the seller settled: exactly the maximum, no more.
    expect(allowanceSeen.at(-1)).toBe(MAX);

    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(USED);
    expect(before.onChain - after.onChain).toBe(USED);
    expect(after.seller - before.seller).toBe(USED);
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, status: true } });
    expect(intent).toEqual({ amount: USED, status: 'settled' });
    // One capture: the hold of $1.00 out, $0.37 to the seller, $0.63 back to the agent.
    const capture = await prisma.ledgerTransaction.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'payment_capture' }, select: { entries: { select: { amount: true } } } });
    expect(capture.entries.map((entry) => entry.amount).sort((a, b) => Number(a - b))).toEqual([-MAX, USED, MAX - USED]);
    const transaction = await prisma.agentTransaction.findFirstOrThrow({ where: { paymentIntentId: intentId, type: 'payment' }, select: { amount: true, status: true } });
    expect(transaction).toEqual({ amount: USED, status: 'completed' });
    expect(await permit2Allowance(agent)).toBe(0n);
    // The receipt is kept with the payment, for the owner's payment view.
    const detail = await ownerCall(env.testApp.app, owner, 'GET', `/api/v1/intents/${intentId}/detail`);
    expect(detail.json().rail).toMatchObject({ sellerReceipt: { verified: true, signer: sellerReceiptKey.address }, authorization: { scheme: 'upto', value: '1' } });
    await expectLedgerConsistent(prisma);
  });

  it('recognises a retried call as the same payment: the payment identifier comes from the Idempotency-Key', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const call = (key: string) =>
      fetch(`${appUrl}/functions/v1/mcp-server/x402/fetch`, {
        method: 'POST',
        headers: { ...agent.headers, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ url: `${sellerUrl}/metered`, headers: { 'x-agent-address': agent.address } }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { payment: { intent_id: string } } }));
    const seenBefore = identifiersSeen.length;
    await run(async () => {
      const first = await call('weather-7');
      const again = await call('weather-7');
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.body.payment.intent_id).toBe(first.body.payment.intent_id);
      const other = await call('weather-8');
      expect(other.status).toBe(200);
      // Answered once the seller settled; the workflow captures just after, while this worker runs.
      for (const paid of [first, other]) expect((await waitForIntent(paid.body.payment.intent_id, (status) => status === 'settled')).status).toBe('settled');
    });
    // The seller saw two payments: the repeated call was answered from the first, one identifier each.
    expect(identifiersSeen.slice(seenBefore)).toEqual([paymentIdentifierFor(agent.id, 'weather-7'), paymentIdentifierFor(agent.id, 'weather-8')]);
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(2n * USED);
    expect(before.onChain - after.onChain).toBe(2n * USED);
    await expectLedgerConsistent(prisma);
  });

  it('is not signed at all when its maximum is above the agent\'s per-payment limit', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5, maxTransaction: 0.5 });
    const before = await balances(agent);
    await run(async () => {
      const refused = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/metered` });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.body.error?.code).toBe('POLICY_VIOLATION');
    });
    expect((await signedOperations(prisma, agent.id)).filter((operation) => operation.status === 'pending' || operation.status === 'settled')).toEqual([]);
    expect(await balances(agent)).toEqual(before);
    expect(await permit2Allowance(agent)).toBe(0n);
    await expectLedgerConsistent(prisma);
  });

  it('is refused above the caller\'s max_amount before anything is held', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const capped = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/metered`, max_amount: 0.5 });
    expect(capped.status).toBe(422);
    expect(capped.body.error?.message).toContain('more than max_amount');
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await balances(agent)).toEqual(before);
  });
});

describe('an upto authorisation the seller never redeemed', () => {
  it('is invalidated on chain when the agent is suspended, and its hold returns at once', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const offered = await fetch(`${sellerUrl}/metered`, { headers: { accept: 'application/json' } });
    const { accepts, extensions } = decodePaymentRequiredHeader(offered.headers.get('payment-required')!);
    await run(async () => {
      const signed = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement: accepts[0], x402_version: 2, url: `${sellerUrl}/metered`, extensions });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const intentId = signed.body.intent_id as string;
      const header = signed.body.x_payment_header as string;
      const payment = decodePaymentSignatureHeader(header);
      const nonce = BigInt((payment.payload as { permit2Authorization: { nonce: string } }).permit2Authorization.nonce);
      // While it waits, Permit2 may move exactly what is held for it.
      expect(await permit2Allowance(agent)).toBe(MAX);

      const suspended = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/agents/${agent.id}/suspend`);
      expect(suspended.statusCode, suspended.body).toBe(200);
      // Invalidated by the agent on chain: the seller's facilitator can no longer settle it.
      expect(await chain.permit2NonceUsed(agent.address, nonce)).toBe(true);
      const { facilitator } = sellerFacilitator();
      const redeemed = await facilitator.settle(payment, { ...(accepts[0] as PaymentRequirements), amount: USED.toString() }).catch((error: unknown) => ({ success: false, error }));
      expect(redeemed.success).toBe(false);
      expect(await waitForIntent(intentId, (status) => status === 'failed' || status === 'settled', 10_000)).toMatchObject({ status: 'failed' });
      const operation = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { declineCode: true } });
      expect(operation.declineCode).toBe('authorization_cancelled');
    });
    expect(await balances(agent)).toEqual(before);
    expect(await permit2Allowance(agent)).toBe(0n);
    await expectLedgerConsistent(prisma);
  });

  it('is voided without the agent\'s ETH when it holds none: the platform lowers the Permit2 allowance to 0, the seller can no longer settle, and the hold returns once a block past the deadline shows it unused', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const offered = await fetch(`${sellerUrl}/metered`, { headers: { accept: 'application/json' } });
    const { accepts, extensions } = decodePaymentRequiredHeader(offered.headers.get('payment-required')!);
    // The agent's wallet holds USDC and no ETH, as on a real network.
    await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address: agent.address, value: 0n });
    await run(async () => {
      const signed = await agentCall(appUrl, agent, 'POST', '/x402/sign-payment', { requirement: accepts[0], x402_version: 2, url: `${sellerUrl}/metered`, extensions });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const intentId = signed.body.intent_id as string;
      const payment = decodePaymentSignatureHeader(signed.body.x_payment_header as string);
      const { nonce, deadline } = (payment.payload as { permit2Authorization: { nonce: string; deadline: string } }).permit2Authorization;
      expect(await permit2Allowance(agent)).toBe(MAX);

      const suspended = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/agents/${agent.id}/suspend`);
      expect(suspended.statusCode, suspended.body).toBe(200);
      // Voided by a permit the agent signed and the platform sent: the agent sent nothing and paid no gas.
      expect(await permit2Allowance(agent)).toBe(0n);
      expect(await chain.publicClient.getTransactionCount({ address: agent.address })).toBe(0);
      expect(await chain.ethBalanceOf(agent.address)).toBe(0n);
      const { facilitator } = sellerFacilitator();
      const redeemed = await facilitator.settle(payment, { ...(accepts[0] as PaymentRequirements), amount: USED.toString() }).catch((error: unknown) => ({ success: false, error }));
      expect(redeemed.success).toBe(false);

      // Its nonce stays unused until the deadline: held until a block past it shows that.
      expect(await chain.permit2NonceUsed(agent.address, BigInt(nonce))).toBe(false);
      expect((await waitForIntent(intentId, (status) => status !== 'processing', 3_000)).status).toBe('processing');
      expect(await waitForIntent(intentId, (status) => status === 'failed' || status === 'settled', 60_000)).toMatchObject({ status: 'failed' });
      expect((await chain.publicClient.getBlock()).timestamp).toBeGreaterThan(BigInt(deadline));
      const operation = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: intentId }, select: { declineCode: true } });
      expect(operation.declineCode).toBe('authorization_expired');
    });
    expect(await balances(agent)).toEqual(before);
    expect(await permit2Allowance(agent)).toBe(0n);
    await expectLedgerConsistent(prisma);
  }, 120_000);
});

describe('a hostile upto seller', () => {
  it('settling $1.01 of a signed $1.00 gets nothing: the chain refuses it, the hold returns when the authorisation expires', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentId = await run(async () => {
      const answered = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/greedy` });
      expect(answered.status).toBe(200);
      const payment = answered.body.payment as { intent_id: string; status: string };
      // The seller's word is not a settlement: nothing moved on chain, so nothing is captured.
      expect(payment.status).not.toBe('settled');
      return waitForIntent(payment.intent_id, (status) => status === 'failed', 60_000).then(() => payment.intent_id);
    });
    expect(hostileReceipts.filter((receipt) => receipt.path === '/greedy').at(-1)?.status).not.toBe('success');
    const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, failureCode: true } });
    expect(intent.status).toBe('failed');
    expect(await balances(agent)).toEqual(before);
    expect(await permit2Allowance(agent)).toBe(0n);
    await expectLedgerConsistent(prisma);
  });

  it('reporting $1.00 after settling $0.37 is captured at $0.37, what the chain moved', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentId = await run(async () => {
      const answered = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/liar` });
      expect(answered.status).toBe(200);
      const payment = answered.body.payment as { intent_id: string };
      await waitForIntent(payment.intent_id, (status) => status === 'settled' || status === 'failed');
      return payment.intent_id;
    });
    expect(hostileReceipts.filter((receipt) => receipt.path === '/liar').at(-1)?.status).toBe('success');
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(USED);
    expect(before.onChain - after.onChain).toBe(USED);
    expect(after.seller - before.seller).toBe(USED);
    expect((await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true } })).amount).toBe(USED);
    // Its receipt names someone else as the payer: kept, but not verified.
    const [operation] = await signedOperations(prisma, agent.id);
    const receipt = (operation!.details as { sellerReceipt?: { verified: boolean; problems: string[] } }).sellerReceipt;
    expect(receipt?.verified).toBe(false);
    expect(receipt?.problems.join('; ')).toContain(`not the agent ${agent.address}`);
    await expectLedgerConsistent(prisma);
  });

  it('naming another settlement of the same payer as its own is not believed: each payment is captured from its own transaction', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await balances(agent);
    const intentIds = await run(async () => {
      const ids: string[] = [];
      for (const call of [1, 2]) {
        const answered = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${sellerUrl}/elsewhere` });
        expect(answered.status, `call ${call}: ${JSON.stringify(answered.body)}`).toBe(200);
        const { intent_id: intentId } = answered.body.payment as { intent_id: string };
        await waitForIntent(intentId, (status) => status === 'settled' || status === 'failed');
        ids.push(intentId);
      }
      return ids;
    });
    // The second call named the first's transaction: Purser recorded each payment's own.
    const recorded = await Promise.all(
      intentIds.map(async (id) => (await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: id }, select: { details: true } })).details as Record<string, string>),
    );
    expect(recorded.map((details) => details.transactionHash)).toEqual(settledElsewhere.slice(-2));
    expect(recorded.map((details) => details.capturedAmount)).toEqual([USED.toString(), USED.toString()]);
    const after = await balances(agent);
    expect(before.ledger - after.ledger).toBe(2n * USED);
    expect(before.onChain - after.onChain).toBe(2n * USED);
    expect(await permit2Allowance(agent)).toBe(0n);
    await expectLedgerConsistent(prisma);
  });
});
