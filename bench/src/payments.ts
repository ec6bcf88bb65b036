/**
 * What moving money costs, each figure beside its floor measured in the same run:
 *
 * - a ledger transfer (fundAgent: owner -> agent, one database transaction under the wallet
 *   lock) beside the bare-SQL double-entry transfer on the same database (sql-floor.ts), one
 *   at a time and as a burst over 16 owners;
 * - a ledger-rail payment through paymentWorkflow, from createIntent until the workflow's
 *   result (policy gate, reserve, execute, capture, events, audit), beside a workflow with one
 *   no-op activity (floor-workflow.ts) on the same Temporal server and worker process, one at
 *   a time and as a burst;
 * - 16 owners paying at once, each one payment at a time, beside 16 clients running empty
 *   workflows (floor-workflow.ts) one at a time on the same Temporal dev server: the share of
 *   the engine's own ceiling that payments reach. The empty workflow, not the one-activity one,
 *   because a ledger payment is one workflow task too: its steps are local activities.
 *
 * `npm run bench` calls these functions; on its own (PostgreSQL and the Temporal CLI needed):
 *   PURSER_TEST_DB=postgres npx tsx bench/src/payments.ts [payments=30] [burst=100]
 */
import { createIntentInput } from '@purser/core';
import { paymentWorkflowId } from '@purser/workflows';
import { createIntent, fundAgent } from '@purser/server';
import { isEntryPoint, printMeasurements, requirePostgres } from './entry';
import { createFundedAgent, createOwner, startHarness, type Harness } from './harness';
import { formatNumber, percentile, TARGETS, type Measurement } from './report';
import { openSqlFloor } from './sql-floor';
import { burstRate, inSequence, log, pairedLatencies } from './timing';

/** Atomic units of USDC each transfer moves ($1). */
const TRANSFER = 1_000_000n;
/** What each agent is funded with: far more than all its payments and transfers. */
const AGENT_FUNDING = 50_000_000_000n;

export interface TransferOptions {
  /** Transfers timed one at a time, each way. */
  samples: number;
  /** Owners sharing the burst, each with one agent. */
  owners: number;
  /** Transfers per owner in the burst, all started at once. */
  perOwner: number;
}

export async function measureTransfers(h: Harness, { samples, owners, perOwner }: TransferOptions): Promise<{ latency: Measurement; burst: Measurement }> {
  log(`transfers: setting up ${owners} owners`);
  const floor = await openSqlFloor(h.databaseUrl);
  try {
    const pairs = await Promise.all(
      Array.from({ length: owners }, async () => {
        const ownerId = await createOwner(h);
        const agent = await createFundedAgent(h, ownerId, TRANSFER);
        return { ownerId, agentId: agent.agent.id };
      }),
    );
    const accounts = await floor.createAccounts(owners * 2, 1_000_000_000_000n);
    const sqlPairs = pairs.map((_, i) => ({ from: accounts[2 * i]!, to: accounts[2 * i + 1]! }));
    const transfer = ({ ownerId, agentId }: { ownerId: string; agentId: string }) => () =>
      fundAgent(h.prisma, ownerId, { agentId, amount: TRANSFER, currency: 'USDC' });
    const sqlTransfer = ({ from, to }: { from: string; to: string }) => () => floor.transfer(from, to, TRANSFER);

    const [product, bare] = [transfer(pairs[0]!), sqlTransfer(sqlPairs[0]!)];
    await pairedLatencies(5, product, bare); // warm-up: plans, pools, JIT
    log(`transfers: ${samples} one at a time, each way`);
    const [productMs, bareMs] = await pairedLatencies(samples, product, bare);

    log(`transfers: bursts of ${owners * perOwner} over ${owners} owners`);
    const bareRate = await burstRate(sqlPairs.flatMap((pair) => Array.from({ length: perOwner }, () => sqlTransfer(pair))));
    const productRate = await burstRate(pairs.flatMap((pair) => Array.from({ length: perOwner }, () => transfer(pair))));
    return {
      latency: {
        name: 'one ledger transfer (fundAgent), p50',
        value: percentile(productMs, 0.5),
        unit: 'ms',
        floor: percentile(bareMs, 0.5),
        floorName: 'bare-SQL double-entry transfer',
        target: TARGETS.transfer,
        detail: `${samples} each, taken in turns; p95 ${formatNumber(percentile(productMs, 0.95))} ms vs ${formatNumber(percentile(bareMs, 0.95))} ms`,
      },
      burst: {
        name: `burst of ${owners * perOwner} transfers over ${owners} owners`,
        value: productRate,
        unit: 'transfers/s',
        floor: bareRate,
        floorName: `the same burst in bare SQL`,
        target: TARGETS.transferBurst,
        detail: `${perOwner} transfers per owner, all started at once; a connection pool of 10 on each side`,
      },
    };
  } finally {
    await floor.close();
  }
}

export interface PaymentOptions {
  /** Payments (and floor workflows) timed one at a time. */
  samples: number;
  /** Payments started at once, from one agent (and as many floor workflows). */
  burst: number;
  /** Owners paying at once, each one payment at a time (and as many floor clients). */
  owners: number;
  /** Payments each of them makes (and empty workflows each floor client runs), per round. */
  perOwner: number;
}

/** Rounds of the owners' throughput, taken in turns with the floor's. */
const THROUGHPUT_ROUNDS = 2;

export async function measurePayments(
  h: Harness,
  { samples, burst, owners, perOwner }: PaymentOptions,
): Promise<{ latency: Measurement; burst: Measurement; owners: Measurement }> {
  log(`payments: setting up ${owners} owners`);
  const payers = await Promise.all(
    Array.from({ length: owners }, async () => {
      const ownerId = await createOwner(h);
      const agent = await createFundedAgent(h, ownerId, AGENT_FUNDING);
      return { ownerId, agentId: agent.agent.id };
    }),
  );
  const payerOf = ({ ownerId, agentId }: { ownerId: string; agentId: string }) => async () => {
    const intent = await createIntent({ db: h.db, temporal: h.temporal }, { ownerId, createdBy: 'owner' }, createIntentInput.parse({ agentId, amount: 1 }));
    const outcome: { status?: string } = await h.temporal.client.workflow.getHandle(paymentWorkflowId(intent.response.id)).result();
    // A declined or failed payment is cheaper than a settled one: it would flatter the figure.
    if (outcome.status !== 'settled') throw new Error(`a bench payment ended ${String(outcome.status)}, not settled`);
  };
  const pay = payerOf(payers[0]!);
  const floor = () => h.runFloorWorkflow();

  log('payments: warming up (workflow caches, connections)');
  await h.guard(pairedLatencies(2, pay, floor));
  log(`payments: ${samples} one at a time, each way`);
  const [paymentMs, floorMs] = await h.guard(pairedLatencies(samples, pay, floor));
  log(`payments: bursts of ${burst}`);
  const floorBurst = await h.guard(burstRate(Array.from({ length: burst }, () => floor)));
  const paymentBurst = await h.guard(burstRate(Array.from({ length: burst }, () => pay)));

  log(`payments: ${owners} owners at once, ${perOwner} payments each, one at a time, in turns with as many empty workflows`);
  // burstRate counts tasks; each task here is one client's sequence of perOwner runs.
  const floorRates: number[] = [];
  const paymentRates: number[] = [];
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    const emptyWorkflows = Array.from({ length: owners }, () => inSequence(perOwner, () => h.runFloorWorkflow('emptyWorkflow')));
    floorRates.push((await h.guard(burstRate(emptyWorkflows))) * perOwner);
    paymentRates.push((await h.guard(burstRate(payers.map((payer) => inSequence(perOwner, payerOf(payer)))))) * perOwner);
  }
  // Every round runs as many, so the rate over all of them is the rounds' harmonic mean.
  const overall = (rates: number[]) => rates.length / rates.reduce((sum, rate) => sum + 1 / rate, 0);
  const rounds = (values: number[]) => values.map(formatNumber).join(', ');
  return {
    latency: {
      name: 'one ledger-rail payment, created to settled, p50',
      value: percentile(paymentMs, 0.5),
      unit: 'ms',
      floor: percentile(floorMs, 0.5),
      floorName: 'a workflow with one no-op activity',
      target: TARGETS.ledgerPayment,
      detail: `${samples} each, taken in turns; p95 ${formatNumber(percentile(paymentMs, 0.95))} ms vs ${formatNumber(percentile(floorMs, 0.95))} ms`,
    },
    burst: {
      name: `burst of ${burst} payments`,
      value: paymentBurst,
      unit: 'payments/s',
      floor: floorBurst,
      floorName: `${burst} one-activity workflows at once`,
      target: TARGETS.paymentBurst,
      detail: 'all from one agent, all started at once',
    },
    owners: {
      name: `${owners} owners paying at once`,
      value: overall(paymentRates),
      unit: 'payments/s',
      floor: overall(floorRates),
      floorName: `${owners} clients running empty workflows`,
      target: TARGETS.owners,
      detail:
        `each owner makes ${perOwner} payments one at a time, each floor client runs ${perOwner} empty workflows one at a time, ` +
        `${THROUGHPUT_ROUNDS} rounds in turns (payments/s ${rounds(paymentRates)}; workflows/s ${rounds(floorRates)})`,
    },
  };
}

if (isEntryPoint(import.meta.url)) {
  requirePostgres();
  const samples = Number(process.argv[2] ?? 30);
  const burst = Number(process.argv[3] ?? 100);
  const h = await startHarness();
  try {
    const transfers = await measureTransfers(h, { samples, owners: 16, perOwner: 16 });
    const payments = await measurePayments(h, { samples, burst, owners: 16, perOwner: 10 });
    printMeasurements([transfers.latency, transfers.burst, payments.latency, payments.burst, payments.owners]);
  } finally {
    await h.close();
  }
}
