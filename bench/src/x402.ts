/**
 * What an agent's x402 payment through Purser costs. The floor is the official x402 client
 * (@x402/fetch) paying the sandbox paid API directly from a wallet of its own: the 402 round
 * trip, an EIP-3009 signature and settlement on the sandbox chain, measured in the same run
 * against the same server and chain. The same paid request made by an agent through
 * POST /x402/fetch (authentication, policy gate, hold in the ledger and signing, all in the
 * request, then the paid call and the chain's receipt) is reported beside it, one at a time and,
 * when asked, as a burst: payers all at once, each making a few paid calls in a row. Both on
 * PostgreSQL and, with `pglite`, on the embedded default `npm start` runs.
 *
 * The same for x402's `upto` scheme (the sandbox's metered /sandbox/paid/tokens, at most $0.01,
 * settling $0.0037): the official upto client, whose wallet approved Permit2 once beforehand,
 * against /x402/fetch, which also sets the agent's Permit2 allowance to what it holds before
 * every payment (one EIP-2612 permit on chain) and reads the settled amount from the chain.
 *
 * And for a payment channel (`batch-settlement`, the sandbox's /sandbox/paid/ticks at $0.001 a
 * call): after one deposit each side pays every call with a signed voucher and no transaction;
 * the official batch-settlement client against /x402/fetch, the channels opened in the warm-up.
 *
 * And for MPP (the Machine Payments Protocol, the sandbox's MPP-only /sandbox/paid/headlines at
 * $0.01, behind the official `mppx` seller): `mppx`'s own client (an EVM charge: the 402's
 * challenge, an EIP-3009 signature bound to it, settlement on the sandbox chain by the seller)
 * against an agent's POST /pay/fetch.
 *
 * `npm run bench` calls measureX402; on its own (PostgreSQL and the Temporal CLI needed; it
 * starts the sandbox chain, a Temporal dev server, the worker and the product's HTTP server):
 *   PURSER_TEST_DB=postgres npx tsx bench/src/x402.ts [payments=20] [burst=10] [postgres|pglite]
 */
import { x402Client } from '@x402/core/client';
import { PERMIT2_ADDRESS, toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { Mppx } from 'mppx/client';
import { evm } from 'mppx/evm/client';
import { createWalletClient, erc20Abi, http, maxUint256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mirrorFundingOnChain } from '@purser/server';
import { isEntryPoint, printMeasurements, requirePostgres } from './entry';
import { createFundedAgent, createOwner, startHarness, type Harness } from './harness';
import { formatNumber, percentile, type Measurement } from './report';
import { cpuDuring, cpuPerUnit } from './cpu';
import { burstRate, inSequence, log, pairedLatencies } from './timing';

const WARM_UP = 2;
/** Each payer's allowance: far more than its payments of $0.005 (atomic units of USDC). */
const FUNDING = 10_000_000n;

export interface X402Options {
  /** Paid requests timed one at a time, each way. */
  payments: number;
  /** Payers in each burst, all at once; 0 skips the bursts. */
  burst: number;
  /** Paid calls each payer of a burst makes, one after another (5 when absent). */
  callsPerPayer?: number;
}

/** Which database the figures were taken on, in each row's name. */
const databaseName = (h: Harness) => (h.database === 'pglite' ? 'PGlite, the embedded default' : 'PostgreSQL');

export async function measureX402(
  h: Harness,
  { payments, burst, callsPerPayer = 5 }: X402Options,
): Promise<{ latency: Measurement; upto: Measurement; channel: Measurement; mpp: Measurement; burst?: Measurement }> {
  if (!h.app) throw new Error('measureX402 needs the harness started with { app: true }');
  const { url: appUrl, deps, chain } = h.app;
  const quoteUrl = `${appUrl}/sandbox/paid/quote`;
  const tokensUrl = `${appUrl}/sandbox/paid/tokens?tokens=370`;
  const ticksUrl = `${appUrl}/sandbox/paid/ticks`;
  const headlinesUrl = `${appUrl}/sandbox/paid/headlines`;
  log('x402: setting up payers');
  const ownerId = await createOwner(h);

  /** The official client in a fresh wallet holding sandbox USDC: the seller's own buyer. */
  const newBuyer = async (scheme: 'exact' | 'upto' | 'batch-settlement' = 'exact') => {
    const account = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(account.address, FUNDING);
    if (scheme === 'upto') {
      // Once, as upto buyers do: Permit2 may then move the wallet's USDC under its signatures.
      const wallet = createWalletClient({ account, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
      const hash = await wallet.writeContract({ address: chain.info.usdcAddress, abi: erc20Abi, functionName: 'approve', args: [PERMIT2_ADDRESS, maxUint256] });
      await chain.publicClient.waitForTransactionReceipt({ hash });
    }
    const schemeClient =
      scheme === 'upto' ? new UptoEvmScheme(account) : scheme === 'batch-settlement' ? new BatchSettlementEvmScheme(toClientEvmSigner(account, chain.publicClient)) : new ExactEvmScheme(account);
    const client = x402Client.fromConfig({ schemes: [{ network: 'eip155:84532', client: schemeClient }] });
    const payingFetch = wrapFetchWithPayment(fetch, client);
    const url = scheme === 'upto' ? tokensUrl : scheme === 'batch-settlement' ? ticksUrl : quoteUrl;
    return async () => {
      const response = await payingFetch(url);
      if (response.status !== 200) throw new Error(`The direct payment answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
  };

  /** mppx's own client in a fresh wallet holding sandbox USDC, paying the MPP-only headlines. */
  const newMppBuyer = async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await chain.fundSandboxAddress(account.address, FUNDING);
    const { name, version } = await chain.usdcDomain();
    const method = evm({ account, networks: [chain.info.chainId], currencies: [chain.info.usdcAddress], decimals: 6, authorization: { name, version }, maxAmount: '0.01' });
    const payingFetch = Mppx.create({ methods: [method], polyfill: false }).fetch;
    return async () => {
      const response = await payingFetch(headlinesUrl);
      if (response.status !== 200 || !response.headers.has('payment-receipt')) throw new Error(`The direct MPP payment answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
  };

  /**
   * An agent funded the way an owner funds one, whose funding the sandbox mirrors on chain, paying
   * through `endpoint` (/pay/fetch is /x402/fetch's newer name); `protocol`: the payment must be that one.
   */
  const newAgent = async (url = quoteUrl, endpoint: 'x402/fetch' | 'pay/fetch' = 'x402/fetch', protocol?: 'mpp') => {
    const created = await createFundedAgent(h, ownerId, FUNDING);
    await mirrorFundingOnChain(deps, { agentId: created.agent.id, amount: FUNDING, currency: 'USDC', replayed: created.replayed });
    const headers = { 'content-type': 'application/json', 'x-agent-did': created.agent.did, authorization: `Bearer ${created.api_key.key}` };
    return async () => {
      const response = await fetch(`${appUrl}/functions/v1/mcp-server/${endpoint}`, { method: 'POST', headers, body: JSON.stringify({ url }) });
      const text = await response.text();
      const upstream = response.status === 200 ? (JSON.parse(text) as { status?: number; payment?: { protocol?: string } }) : undefined;
      if (upstream?.status !== 200 || !upstream.payment || (protocol && upstream.payment.protocol !== protocol)) throw new Error(`The payment through Purser answered ${response.status}: ${text}`);
    };
  };

  const direct = await newBuyer();
  const throughPurser = await newAgent();
  log('x402: warming up');
  await h.guard(pairedLatencies(WARM_UP, throughPurser, direct));
  log(`x402: ${payments} paid requests each way, one at a time, taken in turns`);
  const [purserMs, directMs] = await h.guard(pairedLatencies(payments, throughPurser, direct));
  const latency: Measurement = {
    name: `x402 paid request through /x402/fetch, p50 (${databaseName(h)})`,
    value: percentile(purserMs, 0.5),
    unit: 'ms',
    floor: percentile(directMs, 0.5),
    floorName: '@x402/fetch paying the seller directly',
    target: { of: 'ratio', op: '<=', bound: 1.5 },
    detail: `${payments} each, taken in turns; p95 ${formatNumber(percentile(purserMs, 0.95))} ms vs ${formatNumber(percentile(directMs, 0.95))} ms; stretch target 1.3x`,
  };

  const directUpto = await newBuyer('upto');
  const purserUpto = await newAgent(tokensUrl);
  log(`x402 upto: ${payments} metered requests each way, one at a time, taken in turns`);
  await h.guard(pairedLatencies(WARM_UP, purserUpto, directUpto));
  const [purserUptoMs, directUptoMs] = await h.guard(pairedLatencies(payments, purserUpto, directUpto));
  const upto: Measurement = {
    name: `x402 upto (metered) request through /x402/fetch, p50 (${databaseName(h)})`,
    value: percentile(purserUptoMs, 0.5),
    unit: 'ms',
    floor: percentile(directUptoMs, 0.5),
    floorName: "@x402/fetch with the official upto client (Permit2 approved once)",
    target: { of: 'report' },
    detail: `${payments} each; Purser also sets the Permit2 allowance to what it holds on every payment; the exact row's direct p50 is ${formatNumber(percentile(directMs, 0.5))} ms`,
  };

  const directChannel = await newBuyer('batch-settlement');
  const purserChannel = await newAgent(ticksUrl);
  log(`x402 channel: ${payments} calls each way through one channel each, one at a time, taken in turns`);
  // The warm-up opens both channels: the deposit, once.
  await h.guard(pairedLatencies(WARM_UP, purserChannel, directChannel));
  const [purserChannelMs, directChannelMs] = await h.guard(pairedLatencies(payments, purserChannel, directChannel));
  const channel: Measurement = {
    name: `x402 call through a payment channel (batch-settlement) via /x402/fetch, p50 (${databaseName(h)})`,
    value: percentile(purserChannelMs, 0.5),
    unit: 'ms',
    floor: percentile(directChannelMs, 0.5),
    floorName: '@x402/fetch with the official batch-settlement client',
    target: { of: 'report' },
    detail: `${payments} each after one deposit; a voucher per call, no transaction; exact through /x402/fetch was ${formatNumber(percentile(purserMs, 0.5))} ms`,
  };

  const directMpp = await newMppBuyer();
  const purserMpp = await newAgent(headlinesUrl, 'pay/fetch', 'mpp');
  log(`MPP: ${payments} charges each way, one at a time, taken in turns`);
  await h.guard(pairedLatencies(WARM_UP, purserMpp, directMpp));
  const [purserMppMs, directMppMs] = await h.guard(pairedLatencies(payments, purserMpp, directMpp));
  const mpp: Measurement = {
    name: `MPP charge through /pay/fetch, p50 (${databaseName(h)})`,
    value: percentile(purserMppMs, 0.5),
    unit: 'ms',
    floor: percentile(directMppMs, 0.5),
    floorName: "mppx's own client paying the MPP seller directly",
    target: { of: 'ratio', op: '<=', bound: 1.5 },
    detail: `${payments} each, taken in turns; p95 ${formatNumber(percentile(purserMppMs, 0.95))} ms vs ${formatNumber(percentile(directMppMs, 0.95))} ms; x402 exact through /x402/fetch was ${formatNumber(percentile(purserMs, 0.5))} ms`,
  };
  if (burst <= 0) return { latency, upto, channel, mpp };

  const directBurst = await Promise.all(Array.from({ length: burst }, async () => inSequence(callsPerPayer, await newBuyer())));
  const purserBurst = await Promise.all(Array.from({ length: burst }, async () => inSequence(callsPerPayer, await newAgent())));
  const calls = burst * callsPerPayer;
  log(`x402: bursts of ${calls} paid calls from ${burst} payers`);
  // burstRate counts payers a second; each payer made callsPerPayer calls. The CPU each program
  // spent is counted until the payments' workflows have captured too (Purser's) or the calls
  // ended (the direct ones, which have nothing after).
  const directCpu = await cpuDuring(() => h.guard(burstRate(directBurst)));
  const directRate = directCpu.result * callsPerPayer;
  let purserRate = 0;
  const purserCpu = await cpuDuring(async () => {
    const started = new Date();
    purserRate = (await h.guard(burstRate(purserBurst))) * callsPerPayer;
    await allCaptured(h, started);
  });
  return {
    latency,
    upto,
    channel,
    mpp,
    burst: {
      name: `x402 burst: ${calls} paid calls from ${burst} agents through /x402/fetch (${databaseName(h)})`,
      value: purserRate,
      unit: 'calls/s',
      floor: directRate,
      floorName: `${burst} wallets of the official client making ${callsPerPayer} calls each, at once`,
      target: { of: 'ratio', op: '>=', bound: 0.5 },
      detail: `each payer makes ${callsPerPayer} paid calls one after another, all payers at once; CPU per call through Purser, its workflow included: ${cpuPerUnit(purserCpu.cpuMs, calls)}; direct: ${cpuPerUnit(directCpu.cpuMs, calls)}`,
    },
  };
}

/** Waits (at most a minute) until no payment made since `since` is still processing: their workflows captured. */
async function allCaptured(h: Harness, since: Date): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && (await h.app!.deps.db.prisma.paymentIntent.count({ where: { status: 'processing', createdAt: { gte: since } } })) > 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

if (isEntryPoint(import.meta.url)) {
  requirePostgres();
  const payments = Number(process.argv[2] ?? 20);
  const burst = Number(process.argv[3] ?? 10);
  // A fourth argument `pglite` measures on the embedded default `npm start` runs.
  const h = await startHarness({ app: true, database: process.argv[4] === 'pglite' ? 'pglite' : 'postgres' });
  try {
    const x402 = await measureX402(h, { payments, burst });
    printMeasurements([x402.latency, x402.upto, x402.channel, x402.mpp, ...(x402.burst ? [x402.burst] : [])]);
  } finally {
    await h.close();
  }
}
