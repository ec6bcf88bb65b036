/**
 * `npm run bench`: every benchmark on PostgreSQL in one run, printed as ONE table in which
 * each figure stands beside its floor measured in the same run, with their ratio and the
 * target (reported, never asserted), and written to bench/results/latest.json with the
 * machine it ran on. Progress goes to stderr, the table to stdout.
 *
 * It starts what it needs and stops it again: a fresh database on the PostgreSQL server of
 * TEST_DATABASE_URL (default 127.0.0.1:5432), a Temporal dev server, the sandbox chain and
 * the product's HTTP server (harness.ts); then the same on PGlite, the embedded default, for
 * x402 `exact` (and its burst) and GET /balance's rows; then builds web/ and opens it in Chromium.
 * Each row's detail (sample sizes, p95s, each program's CPU per paid call) follows the table.
 *
 *   npm run bench                 # the full run, a few minutes
 *   npm run bench -- --quick      # small samples: checks the runner, figures mean little
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureBalance } from './balance';
import { requirePostgres } from './entry';
import { startHarness } from './harness';
import { measureIntentList } from './intent-list';
import { describeMachine } from './machine';
import { measurePayments, measureTransfers } from './payments';
import { evaluate, formatDetails, formatMachine, formatTable, toResults } from './report';
import { log } from './timing';
import { measureWebBundle, webMeasurements } from './web-bundle';
import { measureX402, x402Table } from './x402';

const RESULTS = fileURLToPath(new URL('../results/latest.json', import.meta.url));

// Sized so the whole run takes a few minutes on a 2-core machine.
const FULL = {
  transfers: { samples: 50, owners: 16, perOwner: 16 },
  payments: { samples: 20, burst: 100, owners: 16, perOwner: 10 },
  x402: { payments: 15, burst: 10 },
  balance: { rate: 200, seconds: 10, connections: 10 },
  intentList: { intents: 100_000, samples: 50 },
  web: { lcpSamples: 5 },
};
const QUICK: typeof FULL = {
  transfers: { samples: 5, owners: 16, perOwner: 2 },
  payments: { samples: 3, burst: 100, owners: 16, perOwner: 1 },
  x402: { payments: 3, burst: 2 },
  balance: { rate: 200, seconds: 2, connections: 10 },
  intentList: { intents: 100_000, samples: 5 },
  web: { lcpSamples: 1 },
};

requirePostgres();
const sizes = process.argv.includes('--quick') ? QUICK : FULL;
const started = performance.now();

const h = await startHarness({ app: true });
/** The harness running now: the main one, then PGlite's for GET /balance. */
let running = h;
// Ctrl-C or a kill still stops the dev server and the chain and drops the database. The work
// cut short fails as its connections close; those errors must not end the process first.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping what the bench started`);
    const ignore = (error: unknown) => log(`(interrupted: ${error instanceof Error ? error.message : String(error)})`);
    process.on('uncaughtException', ignore);
    process.on('unhandledRejection', ignore);
    void running.close().finally(() => process.exit(130));
  });
}
const { machine, transfers, payments, x402, balance, intentList } = await (async () => {
  try {
    return {
      machine: await describeMachine(h.databaseUrl),
      transfers: await measureTransfers(h, sizes.transfers),
      payments: await measurePayments(h, sizes.payments),
      x402: await measureX402(h, sizes.x402),
      balance: await measureBalance(h, sizes.balance),
      // Last: its 100,000 intents stay out of the other benchmarks' tables.
      intentList: await measureIntentList(h, sizes.intentList),
    };
  } finally {
    log('stopping the product, the chain, Temporal and the database');
    await h.close();
  }
})();
// x402 and GET /balance again on the embedded default `npm start` runs (PGlite), on a harness of its own.
const { balanceOnPglite, x402OnPglite } = await (async () => {
  const embedded = (running = await startHarness({ app: true, database: 'pglite' }));
  try {
    return { x402OnPglite: await measureX402(embedded, { ...sizes.x402, exactOnly: true }), balanceOnPglite: await measureBalance(embedded, sizes.balance) };
  } finally {
    await embedded.close();
  }
})();
// After the services stop: the build and the browser get the machine to themselves.
const web = webMeasurements(await measureWebBundle(sizes.web));

const rows = [
  transfers.latency,
  transfers.burst,
  payments.latency,
  payments.burst,
  ...x402Table(x402),
  ...x402Table(x402OnPglite),
  balance.pacedP50,
  balance.pacedP99,
  balance.pacedCpu,
  balance.burstyP50,
  balance.burstyP99,
  balanceOnPglite.pacedP50,
  balanceOnPglite.pacedP99,
  balanceOnPglite.pacedCpu,
  balanceOnPglite.burstyP50,
  balanceOnPglite.burstyP99,
  payments.owners,
  intentList.first,
  intentList.later,
  intentList.filtered,
  intentList.search,
  web.js,
  web.lcp,
].map(evaluate);
const results = toResults({ ...machine, date: new Date().toISOString() }, rows);
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote ${RESULTS}`);
process.stdout.write(`${formatMachine(results.machine)}\n\n${formatTable(rows)}\n`);
process.stdout.write(`\nDetails:\n\n${formatDetails(rows)}\n`);
process.stdout.write(`\nEXPLAIN (ANALYZE, BUFFERS) of the payment list's page queries (100,000 intents):\n\n${intentList.explain}\n`);
