/**
 * wrapFetch reaches a seller that verifies who is calling (issue 39): the product is started with
 * a PUBLIC_URL it really listens on, so the seller fetches the agent's key directory over HTTP
 * and checks each request's signature with Cloudflare's packages (the server's verifying-seller
 * support). The keyid the seller must find is read from that public directory, as any seller
 * would; the plain request is signed `web-bot-auth`, the paid retry `agent-payer-auth`, both with
 * that key; the price moves once and the ledger verifies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type EvmChain } from '@purser/server';
import {
  agentLedgerUsdc,
  payerAndPayee,
  startTemporalTestEnv,
  startVerifyingSeller,
  verifyLedger,
  VERIFYING_SELLER_PRICE,
  type PayingAgent,
  type TemporalTestEnv,
  type VerifyingSeller,
} from '@purser/server/testing';
import { freePort } from '../../scripts/lib.mjs';
import { wrapFetch, x402PaymentInfo } from '../src/index';

let chain: EvmChain;
let env: TemporalTestEnv;
let seller: VerifyingSeller;
let appUrl: string;
let payer: PayingAgent;
let stopWorker: () => void;
let worker: Promise<void>;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  // The directory URL in each signature is the app's PUBLIC_URL: it must be where the app listens.
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  env = await startTemporalTestEnv({ chain, publicUrl: appUrl, agentRateLimitPerMinute: 10_000 });
  await env.testApp.app.listen({ host: '127.0.0.1', port });
  ({ payer } = await payerAndPayee(env, { payer: 'signing payer', payee: 'signing payee' }));
  seller = await startVerifyingSeller(chain);
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

/** The agent's current keyid, as a seller learns it: from the agent's public key directory. */
async function publishedKeyid(agentId: string): Promise<string> {
  const response = await fetch(`${appUrl}/.well-known/http-message-signatures-directory/agents/${agentId}`);
  expect(response.status).toBe(200);
  const { keys } = (await response.json()) as { keys: Array<{ kid: string }> };
  expect(keys).toHaveLength(1);
  return keys[0]!.kid;
}

describe('wrapFetch against a seller that verifies request signatures', () => {
  it('signs the plain request web-bot-auth and the paid retry agent-payer-auth with the agent’s published key, and pays once', async () => {
    const fetchWithPayment = wrapFetch(fetch, { agent: { baseUrl: appUrl, did: payer.did, apiKey: payer.key } });
    const keyid = await publishedKeyid(payer.id);
    const ledgerBefore = await agentLedgerUsdc(env.testApp.app, payer);
    const sellerBefore = await chain.usdcBalanceOf(chain.sandboxSeller!);

    const free = await fetchWithPayment(`${seller.url}/free`);
    expect(free.status).toBe(200);
    expect(await free.json()).toEqual({ free: true });
    expect(x402PaymentInfo(free)!.payment).toBeNull();

    const paid = await fetchWithPayment(`${seller.url}/paid`);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ forecast: 'sunny' });
    expect(x402PaymentInfo(paid)!.payment).toMatchObject({ transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    const directory = `${appUrl}/.well-known/http-message-signatures-directory/agents/${payer.id}`;
    const verified = (tag: string) => ({ keyid, tag, directory, form: 'dictionary', nonce: expect.any(String) });
    expect(seller.seen.map(({ path, paid, identity }) => ({ path, paid, identity }))).toEqual([
      { path: '/free', paid: false, identity: verified('web-bot-auth') },
      { path: '/paid', paid: false, identity: verified('web-bot-auth') },
      { path: '/paid', paid: true, identity: verified('agent-payer-auth') },
    ]);
    // Each signature carries its own nonce, so none can be replayed as another.
    const nonces = seller.seen.map((request) => (request.identity as { nonce: string }).nonce);
    expect(new Set(nonces).size).toBe(3);

    // The price moved once: from the agent's ledger and, on chain, to the seller.
    expect(ledgerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(VERIFYING_SELLER_PRICE);
    expect((await chain.usdcBalanceOf(chain.sandboxSeller!)) - sellerBefore).toBe(VERIFYING_SELLER_PRICE);
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
