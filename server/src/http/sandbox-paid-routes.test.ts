import { inflateSync } from 'node:zlib';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { PERMIT2_ADDRESS, toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import Fastify, { type FastifyInstance } from 'fastify';
import { createWalletClient, erc20Abi, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChain } from '../services/chain/evm-chain';
import { startChain } from '../services/chain/start-chain';
import { sandboxChartPng } from './sandbox-chart';
import { sandboxPaidRoutes } from './sandbox-paid-routes';

const WEATHER_PRICE = 10_000n; // $0.01 in USDC's 6 decimals

describe('the sandbox paid API', () => {
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

  /** Pays for the weather with the official x402 client, keeping the payment it signed. */
  async function payForWeather(payer: PrivateKeyAccount) {
    const payments: PaymentPayload[] = [];
    const client = x402Client
      .fromConfig({ schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(payer) }] })
      .onAfterPaymentCreation(async ({ paymentPayload }) => {
        payments.push(paymentPayload);
      });
    const response = await wrapFetchWithPayment(fetch, client)(`${baseUrl}/sandbox/paid/weather?city=Lisbon`);
    const payment = payments[0]!;
    const nonce = (payment.payload as { authorization: { nonce: Hex } }).authorization.nonce;
    return { response, payment, nonce };
  }

  async function balances(payer: Address) {
    return { payer: await chain.usdcBalanceOf(payer), seller: await chain.usdcBalanceOf(seller) };
  }

  it('asks an unpaid request for $0.01 in sandbox USDC to the demo seller (402 with PAYMENT-REQUIRED)', async () => {
    const response = await fetch(`${baseUrl}/sandbox/paid/weather`);
    expect(response.status).toBe(402);
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    expect(required.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'eip155:84532',
      asset: chain.info.usdcAddress,
      amount: WEATHER_PRICE.toString(),
      payTo: seller,
    });
    expect(required.resource).toMatchObject({ url: `${baseUrl}/sandbox/paid/weather`, mimeType: 'application/json' });
  });

  it('answers a browser with the same JSON 402, not a paywall page', async () => {
    const response = await fetch(`${baseUrl}/sandbox/paid/report`, {
      headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
    });
    expect(response.status).toBe(402);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(decodePaymentRequiredHeader(response.headers.get('payment-required')!).accepts[0]?.amount).toBe('250000');
  });

  it('serves the weather to the official x402 client once it paid, settling exactly the price on chain', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(payer.address, 1_000_000n);
    const before = await balances(payer.address);
    const fromBlock = (await chain.latestBlock()).number;

    const { response, nonce } = await payForWeather(payer);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ city: 'Lisbon', forecast: expect.any(String), temperatureC: expect.any(Number) });
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:84532', payer: payer.address });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balances(payer.address)).toEqual({ payer: before.payer - WEATHER_PRICE, seller: before.seller + WEATHER_PRICE });
    expect(await chain.authorizationUsed(payer.address, nonce)).toBe(true);
    expect((await chain.authorizationOutcome(payer.address, nonce, fromBlock)).used).toBe(settlement.transaction);
  });

  it('sells a PNG chart: the exact bytes the seller made, as image/png, for $0.02 settled on chain', async () => {
    const unpaid = await fetch(`${baseUrl}/sandbox/paid/chart.png`);
    expect(unpaid.status).toBe(402);
    expect(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!)).toMatchObject({
      accepts: [expect.objectContaining({ amount: '20000', payTo: seller })],
      resource: expect.objectContaining({ mimeType: 'image/png' }),
    });

    const payer = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(payer.address, 1_000_000n);
    const before = await balances(payer.address);
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(payer) }] });
    const response = await wrapFetchWithPayment(fetch, client)(`${baseUrl}/sandbox/paid/chart.png`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(sandboxChartPng())).toBe(true);
    // A PNG: its signature, then a 64 x 32 greyscale header; the pixels inflate to 32 rows of 1 + 64 bytes.
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([64, 32]);
    const dataLength = bytes.readUInt32BE(33);
    expect(bytes.toString('ascii', 37, 41)).toBe('IDAT');
    expect(inflateSync(bytes.subarray(41, 41 + dataLength))).toHaveLength(32 * 65);
    expect(await balances(payer.address)).toEqual({ payer: before.payer - 20_000n, seller: before.seller + 20_000n });
  });

  it('refuses a replay of a payment that was already settled, and moves no more USDC', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(payer.address, 1_000_000n);
    const { response, payment } = await payForWeather(payer);
    expect(response.status).toBe(200);
    const afterPayment = await balances(payer.address);

    const replay = await fetch(`${baseUrl}/sandbox/paid/weather?city=Lisbon`, {
      headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) },
    });

    expect(replay.status).toBe(402);
    expect(decodePaymentRequiredHeader(replay.headers.get('payment-required')!).error).toBe('invalid_exact_evm_nonce_already_used');
    expect(await balances(payer.address)).toEqual(afterPayment);
  });

  it('refuses a payment from an account without USDC, and nothing moves', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const before = await balances(payer.address);

    const { response, nonce } = await payForWeather(payer);

    expect(response.status).toBe(402);
    expect(decodePaymentRequiredHeader(response.headers.get('payment-required')!).error).toBe('invalid_exact_evm_insufficient_balance');
    expect(await balances(payer.address)).toEqual(before);
    expect(await chain.authorizationUsed(payer.address, nonce)).toBe(false);
  });

  it('meters its tokens with upto: offers at most $0.01, settles what the call used', async () => {
    const unpaid = await fetch(`${baseUrl}/sandbox/paid/tokens`);
    expect(unpaid.status).toBe(402);
    const [offer] = decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).accepts;
    expect(offer).toMatchObject({ scheme: 'upto', amount: '10000', payTo: seller, extra: { assetTransferMethod: 'permit2' } });

    // A buyer of its own: it approves Permit2 for the maximum, then the official upto client pays.
    const payer = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(payer.address, 1_000_000n);
    const wallet = createWalletClient({ account: payer, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
    await chain.publicClient.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: chain.info.usdcAddress, abi: erc20Abi, functionName: 'approve', args: [PERMIT2_ADDRESS, 10_000n] }) });
    const before = await balances(payer.address);
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new UptoEvmScheme(payer) }] });
    const response = await wrapFetchWithPayment(fetch, client)(`${baseUrl}/sandbox/paid/tokens?tokens=370`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ tokens: 370, chargedUsd: '$0.00370' });
    const after = await balances(payer.address);
    expect(before.payer - after.payer).toBe(3_700n);
    expect(after.seller - before.seller).toBe(3_700n);
  });

  it('sells its ticks through a payment channel: one deposit of $0.05, then a voucher per $0.001 call', async () => {
    const unpaid = await fetch(`${baseUrl}/sandbox/paid/ticks`);
    expect(unpaid.status).toBe(402);
    const [offer] = decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).accepts;
    expect(offer).toMatchObject({ scheme: 'batch-settlement', amount: '1000', payTo: seller, extra: { minDeposit: '50000' } });

    const payer = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(payer.address, 1_000_000n);
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: new BatchSettlementEvmScheme(toClientEvmSigner(payer, chain.publicClient)) }] });
    const pay = wrapFetchWithPayment(fetch, client);
    const before = await chain.usdcBalanceOf(payer.address);
    for (let call = 0; call < 3; call++) {
      const response = await pay(`${baseUrl}/sandbox/paid/ticks?symbol=eth`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ symbol: 'ETH' });
    }
    // One deposit moved into the channel; the calls after it moved nothing on chain.
    expect(before - (await chain.usdcBalanceOf(payer.address))).toBe(50_000n);
  });
});

describe('the sandbox paid API on a real network', () => {
  it('registers no routes', async () => {
    const sandbox = await startChain({});
    const real = await startChain({ rpcUrl: sandbox.rpcUrl, network: 'eip155:84532', facilitatorPrivateKey: generatePrivateKey() });
    const app = Fastify();
    try {
      await app.register(sandboxPaidRoutes, { chain: real });
      const response = await app.inject({ method: 'GET', url: '/sandbox/paid/weather' });
      expect(response.statusCode).toBe(404);
    } finally {
      await app.close();
      await sandbox.close();
    }
  }, 30_000);
});
