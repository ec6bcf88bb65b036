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
 * Each of these rows has a second one beside it: the CPU per paid call of all of Purser's
 * processes (cpu.ts: this process by thread, where the server, its workflow and the sandbox seller
 * run; the PostgreSQL backends; the Temporal dev server; anvil) against the official client's,
 * measured the same way in the same run over a run of calls each way apart from the timed ones,
 * Purser's until its payments settled. With it, the SQL statements per paid call: every statement
 * this process sent over those calls (`statementsSent()` of @purser/db), the workflow's included.
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
import { countStatements, statementsSent } from '@purser/db';
import { mirrorFundingOnChain } from '@purser/server';
import { isEntryPoint, printMeasurements, requirePostgres } from './entry';
import { createFundedAgent, createOwner, startHarness, type Harness } from './harness';
import { formatNumber, percentile, TARGETS, type Measurement, type Target } from './report';
import { cpuDuring, cpuPerUnit, cpuTotal, type CpuScope, type CpuSpent } from './cpu';
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
  /** Only x402 `exact` and its burst: upto, the channel and MPP are skipped. */
  exactOnly?: boolean;
}

/** Which database the figures were taken on, in each row's name. */
const databaseName = (h: Harness) => (h.database === 'pglite' ? 'PGlite, the embedded default' : 'PostgreSQL');

/**
 * Each kind of paid call's row and, beside it, its CPU row: CPU per paid call, all of Purser's
 * processes against the official client's.
 */
export interface X402Rows {
  exact: Measurement;
  exactCpu: Measurement;
  /** SQL statements per x402 `exact` paid call. */
  statements: Measurement;
  /** With a burst size. */
  burst?: Measurement;
  burstCpu?: Measurement;
  /** Unless `exactOnly`. */
  upto?: Measurement;
  uptoCpu?: Measurement;
  channel?: Measurement;
  channelCpu?: Measurement;
  mpp?: Measurement;
  mppCpu?: Measurement;
}

/** What a run of paid calls cost each way. */
interface CallCost {
  calls: number;
  purser: CpuSpent;
  direct: CpuSpent;
  /** Statements this process sent per call through Purser, until its payments settled. */
  statements: number;
  /**
   * All this process sent while the official client paid: the sandbox seller sends none, so this
   * is what runs whatever the calls (the outbox relay's pass every 2 s), counted on Purser's side too.
   */
  directStatements: number;
}

export async function measureX402(h: Harness, { payments, burst, callsPerPayer = 5, exactOnly = false }: X402Options): Promise<X402Rows> {
  if (!h.app) throw new Error('measureX402 needs the harness started with { app: true }');
  const { url: appUrl, deps, chain } = h.app;
  // PGlite runs in this process, so its work is already the main thread's.
  const scope: CpuScope = h.database === 'postgres' ? { database: new URL(h.databaseUrl).pathname.slice(1) } : {};
  const on = databaseName(h);
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

  /**
   * `calls` paid calls one at a time each way, apart from the timed ones: the CPU each of Purser's
   * programs spent and the statements this process sent, Purser's counted until its payments
   * settled. The timed calls' payments (made since `pending`) settle first, so none of their
   * workflows runs while the official client pays.
   */
  const costOfCalls = (calls: number, purser: () => Promise<void>, direct: () => Promise<void>, pending: Date): Promise<CallCost> =>
    costOf(h, scope, calls, { purser: inSequence(calls, purser), direct: inSequence(calls, direct) }, pending);

  /** A CPU row: all of Purser's processes per paid call against the official client's. */
  const cpuRow = (what: string, cost: CallCost, floorName: string, target: Target, how = 'one at a time'): Measurement => ({
    name: `CPU per paid call, all of Purser's processes: ${what} (${on})`,
    value: cpuTotal(cost.purser, cost.calls),
    unit: 'ms',
    floor: cpuTotal(cost.direct, cost.calls),
    floorName,
    target,
    detail:
      `${cost.calls} calls each way, ${how}, apart from the timed ones; Purser's counted until its payments settled (their workflows included): ` +
      `${cpuPerUnit(cost.purser, cost.calls)}; the official client's: ${cpuPerUnit(cost.direct, cost.calls)}; ` +
      `${formatNumber(cost.statements)} SQL statements per call through Purser ` +
      `(${cost.directStatements} sent while the official client made its ${cost.calls} calls: background work, counted on Purser's side too)`,
  });

  const direct = await newBuyer();
  const throughPurser = await newAgent();
  log('x402: warming up');
  await h.guard(pairedLatencies(WARM_UP, throughPurser, direct));
  log(`x402: ${payments} paid requests each way, one at a time, taken in turns`);
  let pending = new Date();
  const [purserMs, directMs] = await h.guard(pairedLatencies(payments, throughPurser, direct));
  const exact: Measurement = {
    name: `x402 paid request through /x402/fetch, p50 (${on})`,
    value: percentile(purserMs, 0.5),
    unit: 'ms',
    floor: percentile(directMs, 0.5),
    floorName: '@x402/fetch paying the seller directly',
    target: TARGETS.x402Exact[h.database],
    detail: `${payments} each, taken in turns; p95 ${formatNumber(percentile(purserMs, 0.95))} ms vs ${formatNumber(percentile(directMs, 0.95))} ms`,
  };
  log(`x402: CPU and statements of ${payments} paid requests each way`);
  const exactCost = await costOfCalls(payments, throughPurser, direct, pending);
  const exactCpu = cpuRow('x402 exact', exactCost, "the official client's call", h.database === 'postgres' ? TARGETS.cpuPerPaidCall : TARGETS.report);
  const statements: Measurement = {
    name: `SQL statements per paid call, x402 exact (${on})`,
    value: exactCost.statements,
    unit: 'statements',
    floor: null,
    floorName: null,
    target: TARGETS.report,
    detail:
      `every statement this process sent (BEGIN and COMMIT included) over ${exactCost.calls} calls one at a time, divided by them: ` +
      `authentication, the rate limit's counter, the request's front and the payment's workflow until it settled (capture and settle); ` +
      `issue 41's targets: the front (intent, gate inputs, decision, hold, rail operation, outbox, audit) in at most 6 round trips, capture and settle in at most 4`,
  };

  const rows: X402Rows = { exact, exactCpu, statements };

  if (!exactOnly) {
    const directUpto = await newBuyer('upto');
    const purserUpto = await newAgent(tokensUrl);
    log(`x402 upto: ${payments} metered requests each way, one at a time, taken in turns`);
    await h.guard(pairedLatencies(WARM_UP, purserUpto, directUpto));
    pending = new Date();
    const [purserUptoMs, directUptoMs] = await h.guard(pairedLatencies(payments, purserUpto, directUpto));
    rows.upto = {
      name: `x402 upto (metered) request through /x402/fetch, p50 (${on})`,
      value: percentile(purserUptoMs, 0.5),
      unit: 'ms',
      floor: percentile(directUptoMs, 0.5),
      floorName: '@x402/fetch with the official upto client (Permit2 approved once)',
      target: TARGETS.x402Upto,
      detail: `${payments} each, taken in turns; Purser also sets the Permit2 allowance to what it holds on every payment; the exact row's direct p50 is ${formatNumber(percentile(directMs, 0.5))} ms`,
    };
    rows.uptoCpu = cpuRow('x402 upto', await costOfCalls(payments, purserUpto, directUpto, pending), "the official upto client's call", TARGETS.report);

    const directChannel = await newBuyer('batch-settlement');
    const purserChannel = await newAgent(ticksUrl);
    log(`x402 channel: ${payments} calls each way through one channel each, one at a time, taken in turns`);
    // The warm-up opens both channels: the deposit, once. Their intents stay processing while
    // the channels are open, so only payments made after it are waited for (a voucher makes none).
    await h.guard(pairedLatencies(WARM_UP, purserChannel, directChannel));
    pending = new Date();
    const [purserChannelMs, directChannelMs] = await h.guard(pairedLatencies(payments, purserChannel, directChannel));
    rows.channel = {
      name: `x402 call through a payment channel (batch-settlement) via /x402/fetch, p50 (${on})`,
      value: percentile(purserChannelMs, 0.5),
      unit: 'ms',
      floor: percentile(directChannelMs, 0.5),
      floorName: '@x402/fetch with the official batch-settlement client',
      target: TARGETS.x402Channel,
      detail: `${payments} each after one deposit, taken in turns; a voucher per call, no transaction; exact through /x402/fetch was ${formatNumber(percentile(purserMs, 0.5))} ms`,
    };
    rows.channelCpu = cpuRow('channel voucher', await costOfCalls(payments, purserChannel, directChannel, pending), "the official batch-settlement client's call", TARGETS.report);

    const directMpp = await newMppBuyer();
    const purserMpp = await newAgent(headlinesUrl, 'pay/fetch', 'mpp');
    log(`MPP: ${payments} charges each way, one at a time, taken in turns`);
    await h.guard(pairedLatencies(WARM_UP, purserMpp, directMpp));
    pending = new Date();
    const [purserMppMs, directMppMs] = await h.guard(pairedLatencies(payments, purserMpp, directMpp));
    rows.mpp = {
      name: `MPP charge through /pay/fetch, p50 (${on})`,
      value: percentile(purserMppMs, 0.5),
      unit: 'ms',
      floor: percentile(directMppMs, 0.5),
      floorName: "mppx's own client paying the MPP seller directly",
      target: TARGETS.mppCharge,
      detail: `${payments} each, taken in turns; p95 ${formatNumber(percentile(purserMppMs, 0.95))} ms vs ${formatNumber(percentile(directMppMs, 0.95))} ms; x402 exact through /x402/fetch was ${formatNumber(percentile(purserMs, 0.5))} ms`,
    };
    rows.mppCpu = cpuRow('MPP charge', await costOfCalls(payments, purserMpp, directMpp, pending), "mppx's own client's charge", TARGETS.report);
  }
  if (burst <= 0) return rows;

  const directBurst = await Promise.all(Array.from({ length: burst }, async () => inSequence(callsPerPayer, await newBuyer())));
  const purserBurst = await Promise.all(Array.from({ length: burst }, async () => inSequence(callsPerPayer, await newAgent())));
  const calls = burst * callsPerPayer;
  log(`x402: bursts of ${calls} paid calls from ${burst} payers`);
  // burstRate counts payers a second; each payer made callsPerPayer calls.
  let directRate = 0;
  let purserRate = 0;
  const runs = {
    direct: async () => {
      directRate = (await burstRate(directBurst)) * callsPerPayer;
    },
    purser: async () => {
      purserRate = (await burstRate(purserBurst)) * callsPerPayer;
    },
  };
  const burstCost = await costOf(h, scope, calls, runs, new Date());
  const burstName = `x402 burst: ${calls} paid calls from ${burst} agents`;
  rows.burst = {
    name: `${burstName} through /x402/fetch (${on})`,
    value: purserRate,
    unit: 'calls/s',
    floor: directRate,
    floorName: `${burst} wallets of the official client making ${callsPerPayer} calls each, at once`,
    target: TARGETS.x402Burst,
    detail: `each payer makes ${callsPerPayer} paid calls one after another, all payers at once; the CPU each program spent per call is the next row's detail`,
  };
  rows.burstCpu = cpuRow(burstName, burstCost, "the official client's calls in the same burst", TARGETS.report, `${burst} payers at once, ${callsPerPayer} calls each`);
  return rows;
}

/**
 * Runs the official client's calls, then Purser's, each inside a CPU measurement (cpu.ts) and a
 * count of this process's statements; Purser's until its payments made meanwhile settled. First
 * the payments made since `pending` settle, so their workflows run in neither measurement.
 */
async function costOf(
  h: Harness,
  scope: CpuScope,
  calls: number,
  runs: { purser: () => Promise<void>; direct: () => Promise<void> },
  pending: Date,
): Promise<CallCost> {
  await settled(h, pending);
  const directFrom = statementsSent();
  const direct = await cpuDuring(() => h.guard(runs.direct()), scope);
  const directStatements = statementsSent() - directFrom;
  const from = statementsSent();
  let waiting = 0;
  const purser = await cpuDuring(async () => {
    const started = new Date();
    await h.guard(runs.purser());
    waiting = await settled(h, started);
  }, scope);
  // The wait's own queries are the bench's, not the payments'.
  const statements = (statementsSent() - from - waiting) / calls;
  return { calls, purser: purser.cpu, direct: direct.cpu, statements, directStatements };
}

/**
 * Waits (at most a minute) until no payment made since `since` is still processing: their
 * workflows captured and settled. Answers how many statements the wait itself sent.
 */
async function settled(h: Harness, since: Date): Promise<number> {
  const { statements } = await countStatements(async () => {
    const deadline = Date.now() + 60_000;
    while ((await h.prisma.paymentIntent.count({ where: { status: 'processing', createdAt: { gte: since } } })) > 0) {
      if (Date.now() > deadline) {
        log(`x402: payments made since ${since.toISOString()} still processing after a minute; measuring on`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  return statements.length;
}

/** The rows measured, in the table's order: each kind of paid call, then its CPU beside it. */
export function x402Table(x402: X402Rows): Measurement[] {
  const { exact, exactCpu, statements, burst, burstCpu, upto, uptoCpu, channel, channelCpu, mpp, mppCpu } = x402;
  return [exact, exactCpu, statements, burst, burstCpu, upto, uptoCpu, channel, channelCpu, mpp, mppCpu].filter((row) => row !== undefined);
}

if (isEntryPoint(import.meta.url)) {
  requirePostgres();
  const payments = Number(process.argv[2] ?? 20);
  const burst = Number(process.argv[3] ?? 10);
  // A fourth argument `pglite` measures on the embedded default `npm start` runs.
  const h = await startHarness({ app: true, database: process.argv[4] === 'pglite' ? 'pglite' : 'postgres' });
  try {
    const x402 = await measureX402(h, { payments, burst });
    printMeasurements(x402Table(x402));
  } finally {
    await h.close();
  }
}
