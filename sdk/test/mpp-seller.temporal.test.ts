/**
 * wrapFetch pays a seller that speaks only MPP, the Machine Payments Protocol (issue 40): a real
 * mppx seller on the sandbox chain (the server's test support, with its x402 offer off), reached
 * through the agent API's /pay/fetch. The seller's payee gets exactly the price on chain, the
 * agent's ledger moves once and its payment settles, and the Response says it was MPP: the
 * protocol, and the seller's receipt naming the transaction the chain confirms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type EvmChain } from '@purser/server';
import {
  agentLedgerUsdc,
  MPP_SELLER_PRICE,
  payerAndPayee,
  startMppSeller,
  startTemporalTestEnv,
  verifyLedger,
  type MppSeller,
  type PayingAgent,
  type TemporalTestEnv,
} from '@purser/server/testing';
import { PurserAgentClient, wrapFetch, x402PaymentInfo } from '../src/index';

let chain: EvmChain;
let env: TemporalTestEnv;
let seller: MppSeller;
let appUrl: string;
let payer: PayingAgent;
let stopWorker: () => void;
let worker: Promise<void>;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  ({ payer } = await payerAndPayee(env, { payer: 'mpp payer', payee: 'mpp payee' }));
  seller = await startMppSeller(chain, { x402: false });
  // Running before the test starts (the payment's workflow needs it), and stoppable after.
  await new Promise<void>((running, failed) => {
    worker = env.runWorker(() => {
      running();
      return new Promise<void>((resolve) => (stopWorker = resolve));
    });
    worker.catch(failed);
  });
}, 300_000);

afterAll(async () => {
  stopWorker?.();
  await worker;
  await seller?.close();
  await env?.close();
  await chain?.close();
});

describe('wrapFetch against a seller that speaks only MPP', () => {
  it('pays exactly the price once, the payment settles, and the Response says MPP with the receipt the chain confirms', async () => {
    const agent = new PurserAgentClient({ baseUrl: appUrl, did: payer.did, apiKey: payer.key });
    const fetchWithPayment = wrapFetch(fetch, { agent });
    const money = async () => ({
      ledger: await agentLedgerUsdc(env.testApp.app, payer),
      payer: await chain.usdcBalanceOf(payer.evmAddress),
      payee: await chain.usdcBalanceOf(seller.payTo),
    });
    const before = await money();

    const response = await fetchWithPayment(seller.paidUrl);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ forecast: 'sunny' });

    // The seller was sent one MPP credential (Authorization: Payment), never an x402 header, and settled it once.
    expect(seller.seen.filter((seen) => seen.paymentSignature !== null)).toEqual([]);
    const paidRequests = seller.seen.filter((seen) => seen.credential !== null);
    expect(paidRequests).toHaveLength(1);
    expect(paidRequests[0]!.credential).toMatch(/^Payment /);
    expect(seller.settlements).toHaveLength(1);
    const [settlement] = seller.settlements;
    expect(settlement).toMatchObject({ protocol: 'mpp', from: payer.evmAddress, to: seller.payTo, value: MPP_SELLER_PRICE });

    const paid = x402PaymentInfo(response)!;
    expect(paid.payment).toMatchObject({ protocol: 'mpp', transactionHash: settlement!.transaction });
    expect(paid.mppReceipt).toMatchObject({ method: 'evm', status: 'success', reference: settlement!.transaction, confirmed: true });

    const intentId = paid.payment!.intentId;
    await expect.poll(async () => (await agent.payment(intentId)).status, { timeout: 30_000 }).toBe('settled');
    const after = await money();
    expect(after.payee - before.payee).toBe(MPP_SELLER_PRICE);
    expect(before.payer - after.payer).toBe(MPP_SELLER_PRICE);
    expect(before.ledger - after.ledger).toBe(MPP_SELLER_PRICE);
    // One entry in the agent's transactions for the payment: the ledger moved once.
    const { transactions } = await agent.transactions({ limit: 50 });
    expect(transactions.filter((transaction) => (transaction.metadata as Record<string, unknown> | null)?.payment_intent_id === intentId)).toHaveLength(1);
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
