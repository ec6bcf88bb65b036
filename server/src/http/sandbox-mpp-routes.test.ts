import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import Fastify, { type FastifyInstance } from 'fastify';
import { Challenge, Receipt } from 'mppx';
import { Mppx } from 'mppx/client';
import { evm } from 'mppx/evm/client';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from '../services/chain/evm-chain';
import { startChain } from '../services/chain/start-chain';
import { sandboxPaidRoutes } from './sandbox-paid-routes';

const HEADLINES_PRICE = 10_000n; // $0.01, MPP only
const FX_RATE_PRICE = 5_000n; // $0.005, MPP or x402

describe('the sandbox paid API, paid with MPP', () => {
  let chain: EvmChain;
  let app: FastifyInstance;
  let baseUrl: string;
  let seller: Address;

  beforeAll(async () => {
    chain = await startChain({});
    seller = chain.sandboxSeller!;
    app = Fastify();
    await app.register(sandboxPaidRoutes, { chain });
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  }, 30_000);
  afterAll(async () => {
    await app?.close();
    await chain?.close();
  });

  async function fundedPayer(): Promise<PrivateKeyAccount> {
    const payer = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(payer.address, 1_000_000n);
    return payer;
  }

  async function balances(payer: Address) {
    return { payer: await chain.usdcBalanceOf(payer), seller: await chain.usdcBalanceOf(seller) };
  }

  /** mppx's own client paying from `payer`, keeping the Authorization headers it sent. */
  async function mppxClient(payer: PrivateKeyAccount) {
    const { name, version } = await chain.usdcDomain();
    const credentials: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const authorization = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('authorization');
      if (authorization) credentials.push(authorization);
      return fetch(input, init);
    };
    const method = evm({ account: payer, networks: [chain.info.chainId], currencies: [chain.info.usdcAddress], decimals: 6, authorization: { name, version }, maxAmount: '0.05' });
    return { fetch: Mppx.create({ methods: [method], polyfill: false, fetch: recording }).fetch, credentials };
  }

  function challengeOf(response: Response) {
    return Challenge.deserialize(response.headers.get('www-authenticate')!);
  }

  it('asks an unpaid call of the MPP-only headlines for $0.01 in an MPP challenge, with no x402 offer', async () => {
    const response = await fetch(`${baseUrl}/sandbox/paid/headlines`);

    expect(response.status).toBe(402);
    expect(response.headers.get('www-authenticate')).toMatch(/^Payment /);
    expect(challengeOf(response)).toMatchObject({
      method: 'evm',
      intent: 'charge',
      realm: 'purser-sandbox',
      request: { amount: HEADLINES_PRICE.toString(), currency: chain.info.usdcAddress, recipient: seller, methodDetails: { chainId: 84532 } },
    });
    expect(response.headers.get('payment-required')).toBeNull();
  });

  it('offers the exchange rate both ways: an MPP challenge and an x402 exact offer of the same $0.005', async () => {
    const response = await fetch(`${baseUrl}/sandbox/paid/fx-rate?pair=GBP-USD`);

    expect(response.status).toBe(402);
    expect(challengeOf(response)).toMatchObject({ method: 'evm', intent: 'charge', request: { amount: FX_RATE_PRICE.toString(), recipient: seller } });
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    expect(required.accepts).toEqual([
      expect.objectContaining({ scheme: 'exact', network: 'eip155:84532', asset: chain.info.usdcAddress, amount: FX_RATE_PRICE.toString(), payTo: seller }),
    ]);
    expect(required.resource).toMatchObject({ url: `${baseUrl}/sandbox/paid/fx-rate?pair=GBP-USD` });
  });

  it("serves the headlines to mppx's own client once it paid, settling exactly the price on chain", async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);

    const response = await (await mppxClient(payer)).fetch(`${baseUrl}/sandbox/paid/headlines`);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ headlines: expect.arrayContaining([expect.objectContaining({ title: expect.any(String) })]) });
    const receipt = Receipt.deserialize(response.headers.get('payment-receipt')!);
    expect(receipt).toMatchObject({ method: 'evm', status: 'success', reference: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const mined = await chain.publicClient.getTransactionReceipt({ hash: receipt.reference as Hex });
    expect(mined.status).toBe('success');
    expect(await balances(payer.address)).toEqual({ payer: before.payer - HEADLINES_PRICE, seller: before.seller + HEADLINES_PRICE });
  });

  it("is paid with MPP by mppx's own client where x402 is offered too", async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    const client = await mppxClient(payer);

    const response = await client.fetch(`${baseUrl}/sandbox/paid/fx-rate?pair=GBP-USD`);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ pair: 'GBP-USD', rate: expect.any(Number) });
    expect(client.credentials).toEqual([expect.stringMatching(/^Payment /)]);
    expect(Receipt.deserialize(response.headers.get('payment-receipt')!)).toMatchObject({ status: 'success' });
    expect(await balances(payer.address)).toEqual({ payer: before.payer - FX_RATE_PRICE, seller: before.seller + FX_RATE_PRICE });
  });

  it('is paid with x402 by the official x402 client where MPP is offered too', async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(payer) }] });

    const response = await wrapFetchWithPayment(fetch, client)(`${baseUrl}/sandbox/paid/fx-rate`);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ pair: 'EUR-USD' });
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:84532', payer: payer.address });
    expect((await chain.publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex })).status).toBe('success');
    expect(await balances(payer.address)).toEqual({ payer: before.payer - FX_RATE_PRICE, seller: before.seller + FX_RATE_PRICE });
  });

  it('refuses a replay of an MPP credential it already settled, and moves no more USDC', async () => {
    const payer = await fundedPayer();
    const client = await mppxClient(payer);
    expect((await client.fetch(`${baseUrl}/sandbox/paid/headlines`)).status).toBe(200);
    const afterPayment = await balances(payer.address);

    const replay = await fetch(`${baseUrl}/sandbox/paid/headlines`, { headers: { authorization: client.credentials[0]! } });

    expect(replay.status).toBe(402);
    expect(replay.headers.get('www-authenticate')).toMatch(/^Payment /);
    expect(await balances(payer.address)).toEqual(afterPayment);
  });

  it('takes no x402 payment for the MPP-only headlines, and nothing moves', async () => {
    const payer = await fundedPayer();
    const before = await balances(payer.address);
    // An exact payment of $0.01 to the demo seller, signed by the official client for the headlines' URL.
    const offer = decodePaymentRequiredHeader((await fetch(`${baseUrl}/sandbox/paid/fx-rate`)).headers.get('payment-required')!);
    const requirement = { ...offer.accepts[0]!, amount: HEADLINES_PRICE.toString() };
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(payer) }] });
    const payment = await client.createPaymentPayload({ ...offer, resource: { url: `${baseUrl}/sandbox/paid/headlines` }, accepts: [requirement] });

    const response = await fetch(`${baseUrl}/sandbox/paid/headlines`, { headers: { 'payment-signature': encodePaymentSignatureHeader(payment) } });

    expect(response.status).toBe(402);
    expect(response.headers.get('payment-required')).toBeNull();
    expect(await balances(payer.address)).toEqual(before);
  });
});
