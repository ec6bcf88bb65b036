/**
 * The database drops its connections (PostgreSQL terminates every backend of the product's
 * database, again and again for a few seconds) while owners move money with Idempotency-Keys.
 * What the client sees is 200, or 503 UNAVAILABLE with Retry-After, never a 500; a client that
 * retries with the same key gets each transfer applied exactly once, and the ledger balances.
 * In the temporal layer because it needs PostgreSQL (PGlite has no backends to terminate).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresAdapterFactory } from '@purser/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBalances, ownerBalances } from './support/wallet-fixtures';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';
import { createFundedAgent, expectLedgerConsistent, ownerCall, type TestAgent } from './support/x402-fixtures';

const TRANSFERS = 24;
const DROP_FOR_MS = 3_000;
const DROP_EVERY_MS = 20;
const ATOMIC_PER_DOLLAR = 1_000_000n;

let t: TestApp;
let owner: SignedUpOwner;
let agent: TestAgent;
let admin: pg.Client;

beforeAll(async () => {
  t = await createTestApp();
  if (!t.databaseUrl) throw new Error('This suite terminates PostgreSQL backends: run it with PURSER_TEST_DB=postgres');
  owner = await signUpTestOwner(t.app, t.deps.db.prisma);
  const topUp = await ownerCall(t.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 100, currency: 'USDC' });
  expect(topUp.statusCode, topUp.body).toBe(200);
  agent = await createFundedAgent(t.app, owner, { fund: 1 });
  admin = new pg.Client({ connectionString: t.databaseUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await t?.cleanup();
});

/** Terminates every other connection to the product's database until `until` has passed. */
async function dropConnections(until: number): Promise<number> {
  let terminated = 0;
  while (Date.now() < until) {
    const result = await admin.query<{ count: string }>(
      'SELECT count(pg_terminate_backend(pid)) AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    terminated += Number(result.rows[0]!.count);
    await new Promise((resolve) => setTimeout(resolve, DROP_EVERY_MS));
  }
  return terminated;
}

describe('database connections dropped during a burst of transfers', () => {
  it('answers 503 with Retry-After, never 500, and applies every retried transfer exactly once', async () => {
    const ownerBefore = await ownerBalances(t.deps.db.prisma, owner.userId);
    const agentBefore = await agentBalances(t.deps.db.prisma, agent.id);
    const answers: Array<{ status: number; retryAfter: string | undefined; code?: string }> = [];

    /** A client as a real one retries: the same key, after Retry-After, until it is answered. */
    const transfer = async (key: string) => {
      for (;;) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/v1/wallet/fund-agent',
          headers: { ...owner.headers, 'idempotency-key': key },
          payload: { agent_id: agent.id, amount: 1 },
        });
        const retryAfter = response.headers['retry-after'] as string | undefined;
        answers.push({ status: response.statusCode, retryAfter, code: (response.json() as { error?: { code: string } }).error?.code });
        if (response.statusCode !== 503) return response;
        await new Promise((resolve) => setTimeout(resolve, Number(retryAfter ?? 1) * 100));
      }
    };

    const keys = Array.from({ length: TRANSFERS }, () => randomUUID());
    const until = Date.now() + DROP_FOR_MS;
    const dropping = dropConnections(until);
    // Spread over the outage: each transfer starts at its own moment inside it.
    const responses = await Promise.all(
      keys.map(async (key, index) => {
        await new Promise((resolve) => setTimeout(resolve, (index * DROP_FOR_MS) / TRANSFERS));
        return transfer(key);
      }),
    );
    expect(await dropping).toBeGreaterThan(0);

    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
    const unavailable = answers.filter((answer) => answer.status === 503);
    // The drops reached requests: some were refused, each as the retryable kind.
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) expect(answer).toMatchObject({ retryAfter: '1', code: 'UNAVAILABLE' });

    const moved = BigInt(TRANSFERS) * ATOMIC_PER_DOLLAR;
    expect((await agentBalances(t.deps.db.prisma, agent.id)).USDC).toBe(agentBefore.USDC + moved);
    expect((await ownerBalances(t.deps.db.prisma, owner.userId)).USDC).toBe(ownerBefore.USDC - moved);

    // Sent again once the database is back: the same answers, nothing moves a second time.
    for (const key of keys) {
      const again = await transfer(key);
      expect(again.headers['idempotent-replayed']).toBe('true');
    }
    expect((await agentBalances(t.deps.db.prisma, agent.id)).USDC).toBe(agentBefore.USDC + moved);
    await expectLedgerConsistent(t.deps.db.prisma);
  });

  it('lives through a connection dropped while it is checked out, before anyone queries it', async () => {
    // The moment the adapter's transactions are exposed: a connection handed out by the pool and
    // not yet listened to by its user. Unhandled, the server's goodbye would end the process.
    const adapter = await new PostgresAdapterFactory({ connectionString: t.databaseUrl! }).connect();
    try {
      const pool = adapter.underlyingDriver() as pg.Pool;
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the goodbye arrives
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(true);
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await adapter.dispose();
    }
  });

  it('serves reads again as soon as the connections are back', async () => {
    await dropConnections(Date.now() + 200);
    let response = await ownerCall(t.app, owner, 'GET', '/api/v1/wallet');
    // At most the first read after the drop meets a dead connection; the pool replaces it.
    if (response.statusCode === 503) response = await ownerCall(t.app, owner, 'GET', '/api/v1/wallet');
    expect(response.statusCode, response.body).toBe(200);
  });
});
