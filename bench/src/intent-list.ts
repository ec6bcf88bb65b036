/**
 * The owner console's payment list over 100,000 intents of one owner: the p50 server time of
 * listIntents (what intents.list and GET /api/v1/intents run: input parsing, the keyset page
 * query, the rows through Prisma) for the first page of 50, a page deep in the list (by
 * cursor, 50,000 rows in), a page filtered by status and a text search, each beside its
 * floor: the same page read the cheapest way, one bare SQL query through node-postgres
 * returning the page's rows with their approval. Taken in turns with the floor. Also prints
 * the EXPLAIN (ANALYZE, BUFFERS) of the service's page queries: the first three read the
 * (owner_id[, status], created_at desc, id desc) indexes and stop after 51 rows whatever the
 * depth; the search has no index to read (no trigram index) and walks the owner's rows in
 * list order until the page fills.
 *
 * The intents are seeded in one INSERT ... SELECT over generate_series (seconds, not
 * minutes), spread over 10 agents and a mix of statuses (2 % waiting for approval), 1 %
 * tagged 'Needle' in their metadata for the search, with pairs created in the same
 * millisecond so the id half of the cursor is exercised.
 *
 * `npm run bench` calls measureIntentList; on its own (PostgreSQL only, no Temporal needed):
 *   PURSER_TEST_DB=postgres npx tsx bench/src/intent-list.ts [intents=100000] [samples=50]
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { listIntentsInput, type ListIntentsInput } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { openTestDatabase } from '@purser/db/testing';
import { encodeIntentCursor, intentPageQuery, listIntents } from '@purser/server';
import { isEntryPoint, printMeasurements, requirePostgres } from './entry';
import { percentile, TARGETS, type Measurement } from './report';
import { log, pairedLatencies } from './timing';

export interface IntentListOptions {
  /** Intents seeded for the one owner. */
  intents: number;
  /** Timed calls of each side, per page. */
  samples: number;
}

export interface IntentListResults {
  first: Measurement;
  later: Measurement;
  filtered: Measurement;
  /** A text search matching 1 % of the intents: no index serves it, the owner's rows are read in order until the page fills. */
  search: Measurement;
  /** The EXPLAIN output of the three page queries, for the run's output. */
  explain: string;
}

const PAGE = 50;
const AGENTS = 10;
/** A page this deep is read by cursor in the same time as the first. */
const DEPTH = 50_000;

export async function measureIntentList(target: { prisma: PrismaClient; databaseUrl: string }, { intents, samples }: IntentListOptions): Promise<IntentListResults> {
  const { prisma } = target;
  log(`intent list: seeding ${intents} intents for one owner`);
  const seeded = performance.now();
  const ownerId = await seed(prisma, intents);
  log(`intent list: seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  const depth = Math.min(DEPTH, intents - PAGE);
  const [position] = await prisma.$queryRaw<{ created_at: Date; id: string }[]>`
    SELECT "created_at", "id"::text AS "id" FROM "payment_intents" WHERE "owner_id" = ${ownerId}::uuid
     ORDER BY "created_at" DESC, "id" DESC OFFSET ${depth - 1} LIMIT 1`;
  const cursor = encodeIntentCursor({ createdAt: position!.created_at, id: position!.id });
  const pages = {
    first: listIntentsInput.parse({ limit: PAGE }),
    later: listIntentsInput.parse({ limit: PAGE, cursor }),
    filtered: listIntentsInput.parse({ limit: PAGE, status: 'pending_approval' }),
    search: listIntentsInput.parse({ limit: PAGE, search: 'needle' }),
  };

  const pool = new pg.Pool({ connectionString: target.databaseUrl });
  try {
    const floor = (input: ListIntentsInput) => {
      if (input === pages.later) return pool.query(FLOOR.later, [ownerId, position!.created_at, position!.id, PAGE + 1]);
      if (input === pages.filtered) return pool.query(FLOOR.filtered, [ownerId, 'pending_approval', PAGE + 1]);
      if (input === pages.search) return pool.query(FLOOR.search, [ownerId, '%needle%', PAGE + 1]);
      return pool.query(FLOOR.first, [ownerId, PAGE + 1]);
    };
    const explain = (await Promise.all(Object.entries(pages).map(async ([name, input]) => `-- ${name} page\n${await explainPage(prisma, ownerId, input)}`))).join('\n\n');

    const measure = async (name: string, input: ListIntentsInput): Promise<Measurement> => {
      const check = await listIntents(prisma, ownerId, input);
      if (check.intents.length !== PAGE || check.nextCursor === null) throw new Error(`the ${name} page has ${check.intents.length} intents`);
      // Warm both sides: plans cached, pages in shared buffers.
      for (let i = 0; i < 10; i++) {
        await listIntents(prisma, ownerId, listIntentsInput.parse(rawInput(input)));
        await floor(input);
      }
      log(`intent list: ${name} page, ${samples} calls each way`);
      const [service, bare] = await pairedLatencies(
        samples,
        () => listIntents(prisma, ownerId, listIntentsInput.parse(rawInput(input))),
        () => floor(input),
      );
      return {
        name: `Payments list, ${name} page of ${PAGE} (${intents.toLocaleString('en-US')} intents) p50`,
        value: percentile(service, 0.5),
        unit: 'ms',
        floor: percentile(bare, 0.5),
        floorName: 'same keyset page, bare SQL',
        target: TARGETS.intentListPage,
        detail: `${samples} calls each; listIntents p95 ${percentile(service, 0.95).toFixed(2)} ms, floor p95 ${percentile(bare, 0.95).toFixed(2)} ms`,
      };
    };
    return {
      first: await measure('first', pages.first),
      later: await measure(`page ${depth / PAGE + 1} (cursor)`, pages.later),
      filtered: await measure('pending_approval', pages.filtered),
      search: await measure('search (1 % match)', pages.search),
      explain,
    };
  } finally {
    await pool.end();
  }
}

/** The parsed input back in the shape a client sends, so each timed call parses it again. */
function rawInput(input: ListIntentsInput) {
  return {
    limit: input.limit,
    ...(input.cursor ? { cursor: input.cursor } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.search ? { search: input.search } : {}),
  };
}

/**
 * The floors: one round trip each returning the page's rows (and their approval), keyset-paged
 * on the same order and the same indexes, with no ORM, no second query and no mapping.
 */
const FLOOR_SELECT = `
  SELECT i.*, a.status AS approval_status, a.reason AS approval_reason, a.decided_at, a.expires_at AS approval_expires_at
    FROM payment_intents i
    LEFT JOIN approvals a ON a.payment_intent_id = i.id`;
const FLOOR_ORDER = 'ORDER BY i.created_at DESC, i.id DESC';
const FLOOR = {
  first: `${FLOOR_SELECT} WHERE i.owner_id = $1::uuid ${FLOOR_ORDER} LIMIT $2`,
  later: `${FLOOR_SELECT} WHERE i.owner_id = $1::uuid AND (i.created_at, i.id) < ($2::timestamptz, $3::uuid) ${FLOOR_ORDER} LIMIT $4`,
  filtered: `${FLOOR_SELECT} WHERE i.owner_id = $1::uuid AND i.status = $2::"PaymentIntentStatus" ${FLOOR_ORDER} LIMIT $3`,
  search: `${FLOOR_SELECT} WHERE i.owner_id = $1::uuid AND (i.purpose ILIKE $2 OR i.merchant ILIKE $2 OR i.metadata::text ILIKE $2) ${FLOOR_ORDER} LIMIT $3`,
};

async function explainPage(prisma: PrismaClient, ownerId: string, input: ListIntentsInput): Promise<string> {
  const rows = await prisma.$queryRaw<{ 'QUERY PLAN': string }[]>`EXPLAIN (ANALYZE, BUFFERS) ${intentPageQuery(ownerId, input)}`;
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** One owner, 10 agents and `count` intents; the owner's id. */
async function seed(prisma: PrismaClient, count: number): Promise<string> {
  const owner = await prisma.user.create({ data: { email: `${randomUUID()}@bench.test`, passwordHash: 'x', fullName: 'Bench console owner' }, select: { id: true } });
  const agentIds = Array.from({ length: AGENTS }, () => randomUUID());
  await prisma.agent.createMany({ data: agentIds.map((id, index) => ({ id, ownerId: owner.id, name: `Bench agent ${index + 1}`, did: `did:agnic:${id}` })) });
  // Newest at g = 1; two intents per millisecond step, so ties on created_at are common.
  await prisma.$executeRaw`
    INSERT INTO "payment_intents"
      ("id", "owner_id", "agent_id", "created_by", "amount", "currency", "purpose", "merchant", "metadata", "status", "rail",
       "workflow_id", "idempotency_key", "request_hash", "created_at", "updated_at")
    SELECT s.id, ${owner.id}::uuid, (${agentIds}::uuid[])[1 + s.g % ${AGENTS}], 'agent', (1 + s.g % 5000) * 10000, 'USDC',
           'Bench payment ' || s.g, 'merchant-' || (s.g % 97), jsonb_build_object('order', 'bench-' || s.g, 'tag', CASE WHEN s.g % 100 = 0 THEN 'Needle' ELSE 'hay' END),
           (CASE WHEN s.g % 50 = 0 THEN 'pending_approval' WHEN s.g % 20 = 0 THEN 'failed' WHEN s.g % 33 = 0 THEN 'blocked' ELSE 'settled' END)::"PaymentIntentStatus",
           'ledger', 'payment-' || s.id, 'bench:' || s.g, 'bench', s.at, s.at
      FROM (SELECT g, gen_random_uuid() AS id, now() - (g / 2) * interval '1 millisecond' * 700 AS at FROM generate_series(1, ${count}::int) AS g) AS s`;
  await prisma.$executeRaw`ANALYZE "payment_intents"`;
  return owner.id;
}

if (isEntryPoint(import.meta.url)) {
  requirePostgres();
  const [intents = 100_000, samples = 50] = process.argv.slice(2).map(Number);
  const database = await openTestDatabase();
  try {
    const results = await measureIntentList({ prisma: database.db.prisma, databaseUrl: database.databaseUrl! }, { intents, samples });
    printMeasurements([results.first, results.later, results.filtered, results.search]);
    process.stdout.write(`\nEXPLAIN (ANALYZE, BUFFERS) of listIntents' page queries:\n\n${results.explain}\n`);
  } finally {
    await database.cleanup();
  }
}
