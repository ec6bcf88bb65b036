/**
 * n8n-nodes-purser in a real n8n (2.8.4, offline), against a started product: the API on a real
 * port, a payments worker on a real Temporal dev server, the sandbox chain and its paid x402
 * API, a seller that verifies the agent's request signatures, and a seller that speaks only MPP
 * (the official mppx server). The package is packed and installed as a community package, the credential and the
 * workflows are imported with n8n's CLI, and each workflow runs with `n8n execute`. The money
 * is checked where it lives: the agents' ledger balances through the agent API, the seller's
 * USDC on chain, and the ledger's own verification.
 *
 * The first run installs n8n into the cache (scripts/n8n.mjs): minutes, hence the long hooks.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { startChain, type EvmChain } from '@purser/server';
import {
  agentLedgerUsdc,
  atomicDollars,
  MPP_SELLER_PRICE,
  payerAndPayee,
  sandboxChartPng,
  startMppSeller,
  startTemporalTestEnv,
  startVerifyingSeller,
  verifyLedger,
  VERIFYING_SELLER_PRICE,
  type MppSeller,
  type PayingAgent,
  type TemporalTestEnv,
  type VerifyingSeller,
} from '@purser/server/testing';
import { freePort } from '../../scripts/lib.mjs';
import { documentedFields, n8nPage, outputFields } from './support/docs-page';
import { nodeItems, nodeOutput, packPackage, startN8n, type N8n } from './support/n8n';
import { agentCall } from './support/purser-owner';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy';

/** First run: n8n's install (~3-15 min on a busy machine) plus the product. */
const SETUP_TIMEOUT_MS = 30 * 60_000;
const EXECUTION_TIMEOUT_MS = 240_000;

const NODE_TYPE = 'n8n-nodes-purser.purser';
const CREDENTIAL = { purserApi: { id: 'purserAgentCred1', name: 'Purser agent' } };
const WORKFLOW_IDS = {
  pay: 'purserPayOrder01',
  retry: 'purserRetryPay01',
  x402: 'purserX402Buy001',
  png: 'purserX402Png001',
  price: 'purserX402Price1',
  signed: 'purserX402Sign01',
  mpp: 'purserMppBuy0001',
  transactions: 'purserTxAll00001',
};


let chain: EvmChain;
let env: TemporalTestEnv;
let n8n: N8n;
let proxy: RecordingProxy;
let seller: VerifyingSeller;
let mppSeller: MppSeller;
let productUrl: string;
let payer: PayingAgent;
let payee: PayingAgent;
let workDir: string;
const orderKey = `order-${randomUUID()}`;



function purserNode(name: string, position: number, parameters: object, settings: object = {}) {
  return { id: randomUUID(), name, type: NODE_TYPE, typeVersion: 1, position: [position * 220, 0], parameters, credentials: CREDENTIAL, ...settings };
}

/** A workflow of a manual trigger followed by `nodes` in a line. */
function workflow(id: string, name: string, nodes: Array<{ name: string } & Record<string, unknown>>) {
  const trigger = { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
  const line = [trigger, ...nodes];
  const connections = Object.fromEntries(
    line.slice(0, -1).map((node, index) => [node.name, { main: [[{ node: line[index + 1]!.name, type: 'main', index: 0 }]] }]),
  );
  return { id, name, active: false, nodes: line, connections, settings: { executionOrder: 'v1' } };
}

function workflows() {
  return [
    // The four core tools around one payment whose key is the order's, so running the whole
    // execution again finds the first payment.
    workflow(WORKFLOW_IDS.pay, 'Purser: pay an order', [
      purserNode('Balance before', 1, { resource: 'wallet', operation: 'getBalance' }),
      purserNode('Pay order', 2, {
        resource: 'payment',
        operation: 'create',
        amount: 1.25,
        toAddress: payee.walletAddress,
        currency: 'USDC',
        options: { idempotencyKey: orderKey, category: 'data', description: 'Order A-1001 from n8n', metadata: '{"order":"A-1001"}' },
      }),
      purserNode('Balance after', 3, { resource: 'wallet', operation: 'getBalance' }),
      purserNode('PayingAgent info', 4, { resource: 'agent', operation: 'get' }),
      purserNode('Transactions', 5, { resource: 'transaction', operation: 'getAll', limit: 5 }),
    ]),
    // Two payments with derived keys; the second is above the agent's per-payment limit, so
    // the node fails and Retry On Fail runs it again with both items.
    workflow(WORKFLOW_IDS.retry, 'Purser: pay a batch with retries', [
      {
        id: randomUUID(),
        name: 'Batch',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [220, 0],
        parameters: { mode: 'raw', jsonOutput: '{"payments":[{"amount":0.5},{"amount":30}]}', options: {} },
      },
      { id: randomUUID(), name: 'Each payment', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [440, 0], parameters: { fieldToSplitOut: 'payments', options: {} } },
      purserNode(
        'Pay each',
        3,
        { resource: 'payment', operation: 'create', amount: '={{ $json.amount }}', toAddress: payee.walletAddress, currency: 'USDC', options: {} },
        { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
      ),
    ]),
    // A paid URL within the price cap, then one above it (its refusal continues as an item).
    workflow(WORKFLOW_IDS.x402, 'Purser: buy paid data with x402', [
      purserNode('Buy weather', 1, {
        resource: 'paidRequest',
        operation: 'fetch',
        url: `${productUrl}/sandbox/paid/weather?city=Lisbon`,
        maxAmount: 0.02,
        method: 'GET',
        options: { category: 'research' },
      }),
      purserNode(
        'Too expensive',
        2,
        { resource: 'paidRequest', operation: 'fetch', url: `${productUrl}/sandbox/paid/report`, maxAmount: 0.02, method: 'GET', options: {} },
        { onError: 'continueRegularOutput' },
      ),
    ]),
    // A paid image: the node puts it into n8n's binary data; Extract From File reads those bytes back.
    workflow(WORKFLOW_IDS.png, 'Purser: buy a paid chart', [
      purserNode('Buy chart', 1, { resource: 'paidRequest', operation: 'fetch', url: `${productUrl}/sandbox/paid/chart.png`, maxAmount: 0.02, method: 'GET', options: {} }),
      {
        id: randomUUID(),
        name: 'Read bytes',
        type: 'n8n-nodes-base.extractFromFile',
        typeVersion: 1.1,
        position: [440, 0],
        parameters: { operation: 'binaryToPropery', binaryPropertyName: 'data', destinationKey: 'png_base64', options: {} },
      },
    ]),
    // A seller that verifies who calls: Purser signs both requests as the agent.
    // Wait Until Final off: the node answers as soon as the seller has.
    workflow(WORKFLOW_IDS.signed, 'Purser: buy from a seller that verifies agents', [
      purserNode('Buy forecast', 1, { resource: 'paidRequest', operation: 'fetch', url: `${seller.url}/paid`, maxAmount: 0.02, method: 'GET', waitUntilFinal: false, options: {} }),
    ]),
    // A seller that asks for payment over MPP alone (no x402 offer in its 402).
    workflow(WORKFLOW_IDS.mpp, 'Purser: buy from a seller that speaks MPP', [
      purserNode('Buy forecast over MPP', 1, { resource: 'paidRequest', operation: 'fetch', url: mppSeller.paidUrl, maxAmount: 0.02, method: 'GET', options: {} }),
    ]),
    workflow(WORKFLOW_IDS.price, 'Purser: ask the price', [
      purserNode('Price', 1, { resource: 'paidRequest', operation: 'getPrice', url: `${productUrl}/sandbox/paid/report`, method: 'GET' }),
    ]),
    workflow(WORKFLOW_IDS.transactions, 'Purser: every transaction', [
      purserNode('All transactions', 1, { resource: 'transaction', operation: 'getAll', returnAll: true }),
    ]),
  ];
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'purser-n8n-test-'));
  // n8n's install (first run) and the build overlap with the product's start.
  const tarball = packPackage(workDir);
  const n8nReady = tarball.then((file) => startN8n(file));
  n8nReady.catch(() => undefined);

  chain = await startChain({ sandboxPort: 0 });
  // The app's PUBLIC_URL is where it listens: a verifying seller fetches agents' key directories there.
  const port = await freePort();
  productUrl = `http://127.0.0.1:${port}`;
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000, publicUrl: productUrl });
  await env.testApp.app.listen({ host: '127.0.0.1', port });
  seller = await startVerifyingSeller(chain);
  mppSeller = await startMppSeller(chain, { x402: false });
  proxy = await startRecordingProxy(productUrl);

  ({ payer, payee } = await payerAndPayee(env, { payer: 'n8n payer', payee: 'n8n payee' }));

  n8n = await n8nReady;
  await n8n.importCredentials([{ id: CREDENTIAL.purserApi.id, name: CREDENTIAL.purserApi.name, type: 'purserApi', data: { baseUrl: proxy.url, agentDid: payer.did, apiKey: payer.key } }]);
  await n8n.importWorkflows(workflows());
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  n8n?.close();
  await proxy?.close();
  await seller?.close();
  await mppSeller?.close();
  await env?.close();
  await chain?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

const execute = (workflowId: string) => env.runWorker(() => n8n.execute(workflowId));

/** The fields of each item a node output that the docs page does not list for its operation. */
async function undocumented(items: Array<Record<string, unknown>>, heading: 'Paid Request → Fetch' | 'Payment → Create and Payment → Get'): Promise<string[]> {
  const documented = documentedFields(await n8nPage(), heading);
  return items.flatMap(outputFields).filter((field) => !documented.includes(field));
}

describe('n8n-nodes-purser in a real n8n', () => {
  let firstIntentId: string;

  it(
    'pays once from a workflow, and the balances before and after add up',
    async () => {
      const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      const { code, result, output } = await execute(WORKFLOW_IDS.pay);
      expect(code, output).toBe(0);
      expect(result.status).toBe('success');

      const [payment] = nodeOutput(result, 'Pay order');
      expect(payment).toMatchObject({ status: 'settled', amount_exact: '1.25', currency: 'USDC', to_address: payee.walletAddress, idempotency_key: orderKey });
      expect(await undocumented([payment!], 'Payment → Create and Payment → Get')).toEqual([]);
      firstIntentId = String(payment!.intent_id);

      // What the workflow saw, and what the ledger says.
      const seen = (node: string) => atomicDollars((nodeOutput(result, node)[0] as { balances: { USDC: { ledger_exact: string } } }).balances.USDC.ledger_exact);
      expect(seen('Balance before') - seen('Balance after')).toBe(1_250_000n);
      expect(seen('Balance before')).toBe(payerBefore);
      const [payerAfter, payeeAfter] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      expect(payerBefore - payerAfter).toBe(1_250_000n);
      expect(payeeAfter - payeeBefore).toBe(1_250_000n);

      expect(nodeOutput(result, 'PayingAgent info')[0]).toMatchObject({ did: payer.did, status: 'active' });
      const transactions = nodeOutput(result, 'Transactions');
      const recorded = transactions.filter((entry) => (entry.metadata as Record<string, unknown>)?.payment_intent_id === firstIntentId);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ category: 'data', description: 'Order A-1001 from n8n', metadata: { order: 'A-1001' } });
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'does not pay twice when the same execution runs again with the same idempotency key',
    async () => {
      expect(firstIntentId).toBeDefined();
      const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      const { code, result, output } = await execute(WORKFLOW_IDS.pay);
      expect(code, output).toBe(0);
      expect(nodeOutput(result, 'Pay order')[0]).toMatchObject({ intent_id: firstIntentId, status: 'settled', idempotency_key: orderKey });
      expect(await agentLedgerUsdc(env.testApp.app, payer)).toBe(payerBefore);
      expect(await agentLedgerUsdc(env.testApp.app, payee)).toBe(payeeBefore);

      // Both runs sent the order's key; Purser answered the second from the first payment.
      const payments = proxy.exchanges.filter((exchange) => exchange.path.endsWith('/payment') && exchange.idempotencyKey === orderKey);
      expect(payments.map(({ status, replayed }) => ({ status, replayed }))).toEqual([
        { status: 200, replayed: false },
        { status: 200, replayed: true },
      ]);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'keeps the derived idempotency key across Retry On Fail, so the retried items are not paid again',
    async () => {
      const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      const before = proxy.exchanges.length;
      const { code, result, output } = await execute(WORKFLOW_IDS.retry);
      // The 30 USDC item is above the agent's limit on every try, so the execution fails.
      expect(code, output).toBe(1);
      // The error names the item that failed: the second.
      expect(result.data.resultData.error).toMatchObject({ message: expect.stringMatching(/^POLICY_VIOLATION: /), httpCode: '422', context: { itemIndex: 1 } });

      const payments = proxy.exchanges.slice(before).filter((exchange) => exchange.method === 'POST' && exchange.path.endsWith('/payment'));
      // Two tries of two items: each item sent one derived key twice.
      expect(payments).toHaveLength(4);
      const keys = [...new Set(payments.map((exchange) => exchange.idempotencyKey))];
      expect(keys).toHaveLength(2);
      for (const key of keys) {
        expect(key).toMatch(/^n8n-[0-9a-f]{64}$/);
        expect(payments.filter((exchange) => exchange.idempotencyKey === key)).toHaveLength(2);
      }
      const paid = payments.filter((exchange) => exchange.status === 200);
      expect(paid.map((exchange) => exchange.replayed)).toEqual([false, true]);
      expect(payments.filter((exchange) => exchange.status === 422)).toHaveLength(2);

      // Only the 0.50 item moved money, once.
      expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(500_000n);
      expect((await agentLedgerUsdc(env.testApp.app, payee)) - payeeBefore).toBe(500_000n);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'pays the sandbox paid API with x402 within the price cap and answers once the payment is final, and refuses a price above it naming Max Price',
    async () => {
      const seller = chain.sandboxSeller as Address;
      const payerAddress = payer.evmAddress;
      const [sellerBefore, payerChainBefore, payerLedgerBefore] = [await chain.usdcBalanceOf(seller), await chain.usdcBalanceOf(payerAddress), await agentLedgerUsdc(env.testApp.app, payer)];
      const before = proxy.exchanges.length;

      const { code, result, output } = await execute(WORKFLOW_IDS.x402);
      expect(code, output).toBe(0);
      const [bought] = nodeOutput(result, 'Buy weather');
      // Wait Until Final (the default): the node answered once Purser had recorded the payment.
      expect(bought).toMatchObject({ status: 200, data: { city: 'Lisbon' }, payment: { status: 'settled', protocol: 'x402' } });
      expect(String((bought!.payment as Record<string, unknown>).transaction_hash)).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await undocumented([bought!], 'Paid Request → Fetch')).toEqual([]);
      // The refusal names the node's field, Max Price, where the API says max_amount.
      const [refused] = nodeOutput(result, 'Too expensive');
      expect(refused).toEqual({
        error: 'POLICY_VIOLATION: The seller asks 0.25 USDC, more than Max Price (0.02); nothing was paid',
        http_status: 422,
        hint: 'Nothing was paid. Raise Max Price to pay this seller, or read its price first with Paid Request → Get Price.',
      });

      // The weather costs $0.01: exactly that reached the seller on chain and left the payer's ledger.
      expect((await chain.usdcBalanceOf(seller)) - sellerBefore).toBe(10_000n);
      expect(payerChainBefore - (await chain.usdcBalanceOf(payerAddress))).toBe(10_000n);
      expect(payerLedgerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(10_000n);

      const fetches = proxy.exchanges.slice(before).filter((exchange) => exchange.path.endsWith('/pay/fetch'));
      expect(fetches.map((exchange) => exchange.status)).toEqual([200, 422]);
      for (const exchange of fetches) expect(exchange.idempotencyKey).toMatch(/^n8n-[0-9a-f]{64}$/);
      // The wait read the payment as Payment → Get does.
      const intentId = String((bought!.payment as Record<string, unknown>).intent_id);
      expect(proxy.exchanges.slice(before).filter((exchange) => exchange.method === 'GET' && exchange.path.endsWith(`/payment/${intentId}`)).length).toBeGreaterThan(0);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'reaches a seller that verifies agents signed: web-bot-auth first, agent-payer-auth on the paid retry, with the agent’s published key',
    async () => {
      const directoryUrl = `${productUrl}/.well-known/http-message-signatures-directory/agents/${payer.id}`;
      const { keys } = (await (await fetch(directoryUrl)).json()) as { keys: Array<{ kid: string }> };
      expect(keys).toHaveLength(1);
      const payerLedgerBefore = await agentLedgerUsdc(env.testApp.app, payer);
      const seenBefore = seller.seen.length;

      const { code, result, output } = await execute(WORKFLOW_IDS.signed);
      expect(code, output).toBe(0);
      // Wait Until Final off: paid on chain when the node answers; Purser records it as settled right after.
      expect(nodeOutput(result, 'Buy forecast')[0]).toMatchObject({ status: 200, data: { forecast: 'sunny' }, payment: { status: 'processing' } });

      const verified = (tag: string) => ({ keyid: keys[0]!.kid, tag, directory: directoryUrl, form: 'dictionary', nonce: expect.any(String) });
      expect(seller.seen.slice(seenBefore).map(({ path, paid, identity }) => ({ path, paid, identity }))).toEqual([
        { path: '/paid', paid: false, identity: verified('web-bot-auth') },
        { path: '/paid', paid: true, identity: verified('agent-payer-auth') },
      ]);
      expect(payerLedgerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(VERIFYING_SELLER_PRICE);
      expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'pays a seller that speaks only MPP once: its payee gets the price on chain, the ledger moves once, and the output says MPP',
    async () => {
      const money = async () => ({
        payee: await chain.usdcBalanceOf(mppSeller.payTo),
        payerChain: await chain.usdcBalanceOf(payer.evmAddress),
        payerLedger: await agentLedgerUsdc(env.testApp.app, payer),
      });
      const before = await money();
      const exchangesBefore = proxy.exchanges.length;

      const { code, result, output } = await execute(WORKFLOW_IDS.mpp);
      expect(code, output).toBe(0);
      const [bought] = nodeOutput(result, 'Buy forecast over MPP');
      expect(bought).toMatchObject({ status: 200, data: { forecast: 'sunny' }, payment: { protocol: 'mpp', status: 'settled' }, mpp_receipt: { method: 'evm', status: 'success', confirmed: true } });
      expect(await undocumented([bought!], 'Paid Request → Fetch')).toEqual([]);

      // The seller was sent one MPP credential and settled it once; the node called /pay/fetch once.
      expect(mppSeller.seen.filter((seen) => seen.credential !== null)).toHaveLength(1);
      expect(mppSeller.seen.filter((seen) => seen.paymentSignature !== null)).toEqual([]);
      expect(mppSeller.settlements).toHaveLength(1);
      const [settlement] = mppSeller.settlements;
      expect(settlement).toMatchObject({ protocol: 'mpp', from: payer.evmAddress, to: mppSeller.payTo, value: MPP_SELLER_PRICE });
      const payment = bought!.payment as { intent_id: string; transaction_hash: string };
      expect(payment.transaction_hash).toBe(settlement!.transaction);
      expect((bought!.mpp_receipt as { reference: string }).reference).toBe(settlement!.transaction);
      const fetches = proxy.exchanges.slice(exchangesBefore).filter((exchange) => exchange.path.endsWith('/pay/fetch'));
      expect(fetches.map(({ status, replayed }) => ({ status, replayed }))).toEqual([{ status: 200, replayed: false }]);

      // The payment settles (its workflow captures it), and exactly the price moved: on chain to the payee, once in the ledger.
      await env.runWorker(() =>
        expect.poll(async () => (await agentCall(env, payer, 'GET', `/payment/${payment.intent_id}`)).body.status, { timeout: 30_000 }).toBe('settled'),
      );
      const after = await money();
      expect(after.payee - before.payee).toBe(MPP_SELLER_PRICE);
      expect(before.payerChain - after.payerChain).toBe(MPP_SELLER_PRICE);
      expect(before.payerLedger - after.payerLedger).toBe(MPP_SELLER_PRICE);
      expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'puts a paid PNG into n8n binary data whose bytes are the seller’s, and pays its price once',
    async () => {
      const seller = chain.sandboxSeller as Address;
      const png = sandboxChartPng();
      const [sellerBefore, payerLedgerBefore] = [await chain.usdcBalanceOf(seller), await agentLedgerUsdc(env.testApp.app, payer)];
      const { code, result, output } = await execute(WORKFLOW_IDS.png);
      expect(code, output).toBe(0);

      const [bought] = nodeItems(result, 'Buy chart');
      expect(bought!.binary?.data).toMatchObject({ mimeType: 'image/png', fileName: 'chart.png' });
      expect(bought!.json).toMatchObject({ status: 200, payment: { status: 'settled' }, file: { field: 'data', mime_type: 'image/png', size: png.length } });
      expect(bought!.json.body).toBeUndefined();
      expect(await undocumented([bought!.json], 'Paid Request → Fetch')).toEqual([]);
      const [read] = nodeOutput(result, 'Read bytes');
      expect(Buffer.from(String(read!.png_base64), 'base64').equals(png)).toBe(true);

      // The chart costs $0.02.
      expect((await chain.usdcBalanceOf(seller)) - sellerBefore).toBe(20_000n);
      expect(payerLedgerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(20_000n);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'gets a price without paying it',
    async () => {
      const seller = chain.sandboxSeller as Address;
      const [sellerBefore, payerLedgerBefore] = [await chain.usdcBalanceOf(seller), await agentLedgerUsdc(env.testApp.app, payer)];
      const { code, result, output } = await execute(WORKFLOW_IDS.price);
      expect(code, output).toBe(0);
      expect(nodeOutput(result, 'Price')[0]).toMatchObject({ payment_required: true, status: 402, price: '0.25', price_amount: 0.25 });
      expect(await chain.usdcBalanceOf(seller)).toBe(sellerBefore);
      expect(await agentLedgerUsdc(env.testApp.app, payer)).toBe(payerLedgerBefore);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'returns every transaction of the agent with Return All, reading past the first page of 50',
    async () => {
      // Enough small payments that the agent's transactions fill more than one page.
      const pages = async () => {
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const { body } = await agentCall(env, payer, 'GET', `/transactions${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
          ids.push(...(body.transactions as Array<{ id: string }>).map((transaction) => transaction.id));
          cursor = body.next_cursor as string | null;
        } while (cursor);
        return ids;
      };
      const payerBefore = await agentLedgerUsdc(env.testApp.app, payer);
      const missing = 55 - (await pages()).length;
      await env.runWorker(async () => {
        for (let index = 0; index < missing; index++) {
          const paid = await agentCall(env, payer, 'POST', '/payment', {
            payload: { amount: 0.01, currency: 'USDC', to_address: payee.walletAddress, description: `Page filler ${index}` },
            idempotencyKey: `page-filler-${randomUUID()}`,
          });
          expect(paid.statusCode, JSON.stringify(paid.body)).toBe(200);
        }
      });
      expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(BigInt(Math.max(missing, 0)) * 10_000n);

      const { code, result, output } = await execute(WORKFLOW_IDS.transactions);
      expect(code, output).toBe(0);
      const listed = await pages();
      expect(listed.length).toBeGreaterThan(50);
      expect(nodeOutput(result, 'All transactions').map((transaction) => transaction.id)).toEqual(listed);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
