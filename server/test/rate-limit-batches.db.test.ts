/**
 * The database's rate limit counters under a high limit (services/rate-limits/rate-limit-counters.ts):
 * each server claims a hundredth of the limit in one statement and counts those hits in memory.
 * Two counters on one database stand for two servers. Shared counting as such (small limits,
 * hit by hit) is in rate-limits-shared.db.test.ts.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, openDatabase, type Database } from '@purser/db';
import { createRateLimitCounters, type RateLimitCounters } from '../src/services/rate-limits/rate-limit-counters';
import { createTestApp, type TestApp } from './support/test-app';

const logger = pino({ level: 'silent' });
const MINUTE = 60_000;
let t: TestApp;
let other: Database;
let key = 0;
const nextKey = () => `batches:${++key}`;

beforeAll(async () => {
  t = await createTestApp();
  // PostgreSQL: the second server has connections of its own. PGlite lives in one process: the same one.
  other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: '', migrate: false }) : t.deps.db;
});

afterAll(async () => {
  if (other && other !== t?.deps.db) await other.close();
  await t?.cleanup();
});

const servers = (): [RateLimitCounters, RateLimitCounters] => [
  createRateLimitCounters({ db: t.deps.db, logger }),
  createRateLimitCounters({ db: other, logger }),
];

describe('under a limit of at least 200 hits a window', () => {
  it('claims a batch of a hundredth of the limit in one statement and counts its hits in memory, exactly on one server', async () => {
    const [counters] = servers();
    const k = nextKey();
    const { result: states, statements } = await countStatements(async () => {
      const counted = [];
      for (let n = 0; n < 25; n++) counted.push(await counters.hit(k, MINUTE, 1_000));
      return counted;
    });
    // Batches of 10: three claims for 25 hits (the first server's first hit also sweeps).
    expect(statements.filter((sql) => sql.includes('INSERT INTO "rate_limit_counters"'))).toHaveLength(3);
    expect(states.map((state) => state.current)).toEqual(Array.from({ length: 25 }, (_, n) => n + 1));
    for (const state of states) expect(state.ttl).toBeGreaterThan(MINUTE - 5_000);
    // The shared count holds the whole third batch; what this server has not used is given back when read.
    expect((await t.deps.db.prisma.rateLimitCounter.findUniqueOrThrow({ where: { key: k }, select: { count: true } })).count).toBe(30);
    expect(await counters.read(k)).toMatchObject({ current: 25 });
  });

  it('never lets more than the limit through across servers, racing, and refuses less than a batch per server early', async () => {
    const [a, b] = servers();
    const k = nextKey();
    // Batches of 3: each server may end holding a batch it has used only one hit of.
    const max = 300;
    const hits = await Promise.all(Array.from({ length: 400 }, (_, n) => (n % 2 === 0 ? a : b).hit(k, MINUTE, max)));
    const allowed = hits.filter((state) => state.current <= max).length;
    expect(allowed).toBeLessThanOrEqual(max);
    expect(allowed).toBeGreaterThanOrEqual(max - 2 * 2);
    // Each hit was counted once: no two hits of one server were given the same place.
    const places = hits.map((state) => state.current);
    expect(new Set(places).size).toBe(places.length);
  });

  it('starts again with the next window, and counts a small limit hit by hit as before', async () => {
    const [counters] = servers();
    const k = nextKey();
    await counters.hit(k, 100, 1_000);
    await counters.hit(k, 100, 1_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await counters.hit(k, 100, 1_000)).toMatchObject({ current: 1 });

    const small = nextKey();
    const { statements } = await countStatements(async () => {
      for (let n = 0; n < 3; n++) await counters.hit(small, MINUTE, 199);
    });
    expect(statements).toHaveLength(3);
    expect((await t.deps.db.prisma.rateLimitCounter.findUniqueOrThrow({ where: { key: small }, select: { count: true } })).count).toBe(3);
  });
});
