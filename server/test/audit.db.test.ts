/**
 * The hash-chained audit log on a real database: appending, verifying, concurrent writers,
 * tampering by someone with database access, the services that record their changes, the
 * export, and the audit:verify / audit:export commands.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentInput, isAppError, updateSpendingRulesInput } from '@purser/core';
import { openDatabase, type Database, type PrismaClient, type TransactionClient } from '@purser/db';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '@purser/db/testing';
import { appendAuditEvent, isAuditChainConflict, withAuditRetry } from '../src/services/audit/append-audit-event';
import { GENESIS_HASH, hashAuditEvent } from '../src/services/audit/audit-hash';
import { exportAuditLog } from '../src/services/audit/export-audit-log';
import { verifyAuditChain } from '../src/services/audit/verify-audit-chain';
import { createAgent } from '../src/services/agents/create-agent';
import { deleteAgent } from '../src/services/agents/delete-agent';
import { reactivateAgent } from '../src/services/agents/reactivate-agent';
import { rotateAgentApiKey } from '../src/services/agents/rotate-agent-api-key';
import { suspendAgent } from '../src/services/agents/suspend-agent';
import { updateSpendingRules } from '../src/services/agents/update-spending-rules';
import { createOwnerApiKey } from '../src/services/api-keys/create-owner-api-key';
import { revokeOwnerApiKey } from '../src/services/api-keys/revoke-owner-api-key';
import { createTestApp, type TestApp } from './support/test-app';
import { createOwner } from './support/wallet-fixtures';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function append(prisma: PrismaClient, n: number) {
  return withAuditRetry(prisma, (tx) => appendAuditEvent(tx, { actor: 'system', action: 'test.appended', subject: `test:${n}`, data: { n } }));
}

function events(prisma: PrismaClient) {
  return prisma.auditEvent.findMany({ orderBy: { seq: 'asc' } });
}

/** What an attacker with database access does: switch the guards off, rewrite, switch them on. */
async function tamper(prisma: PrismaClient, seq: bigint, change: { data?: object; hash?: string }): Promise<void> {
  await prisma.$transaction(async (tx: TransactionClient) => {
    await tx.$executeRawUnsafe('ALTER TABLE "audit_events" DISABLE TRIGGER USER');
    if (change.data) await tx.$executeRaw`UPDATE "audit_events" SET "data" = ${JSON.stringify(change.data)}::jsonb WHERE "seq" = ${seq}`;
    if (change.hash) await tx.$executeRaw`UPDATE "audit_events" SET "hash" = ${change.hash} WHERE "seq" = ${seq}`;
    await tx.$executeRawUnsafe('ALTER TABLE "audit_events" ENABLE TRIGGER USER');
  });
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('appending and verifying', () => {
  let t: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    t = await openTestDatabase();
    prisma = t.db.prisma;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('links each appended event to the one before it, starting from 64 zeros, and the chain verifies', async () => {
    for (let n = 0; n < 5; n++) await append(prisma, n);
    const rows = await events(prisma);
    expect(rows).toHaveLength(5);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    rows.slice(1).forEach((row, i) => expect(row.prevHash).toBe(rows[i]?.hash));
    for (const row of rows) expect(row.hash).toBe(hashAuditEvent(row));
    expect(rows.map((row) => row.data)).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(await verifyAuditChain(prisma)).toEqual({ ok: true, checked: 5 });
    expect(await verifyAuditChain(prisma, { batchSize: 2 })).toEqual({ ok: true, checked: 5 });
  });

  it('drops an appended event when its transaction rolls back', async () => {
    const before = await prisma.auditEvent.count();
    const failure = await errorOf(
      prisma.$transaction(async (tx: TransactionClient) => {
        await appendAuditEvent(tx, { actor: 'system', action: 'test.rolled_back', subject: 'test:x' });
        throw new Error('the change failed');
      }),
    );
    expect(failure).toMatchObject({ message: 'the change failed' });
    expect(await prisma.auditEvent.count()).toBe(before);
    expect((await verifyAuditChain(prisma)).ok).toBe(true);
  });

  it('runs a transaction again when it lost the race for the newest event', async () => {
    const before = await prisma.auditEvent.count();
    const failures: unknown[] = [];
    let attempts = 0;
    await withAuditRetry(prisma, async (tx) => {
      attempts++;
      if (attempts === 1) {
        // A writer that read the chain before somebody else appended links to a stale hash.
        try {
          await tx.auditEvent.create({ data: { actor: 'system', action: 'test.stale', subject: 'test:stale', prevHash: GENESIS_HASH, hash: 'stale' } });
        } catch (error) {
          failures.push(error);
          throw error;
        }
      }
      return appendAuditEvent(tx, { actor: 'system', action: 'test.retried', subject: 'test:retried' });
    });
    expect(attempts).toBe(2);
    expect(failures.map(isAuditChainConflict)).toEqual([true]);
    expect(await prisma.auditEvent.count()).toBe(before + 1);
    expect((await verifyAuditChain(prisma)).ok).toBe(true);
  });

  it('gives up on errors that are not audit chain conflicts', async () => {
    let attempts = 0;
    const failure = await errorOf(
      withAuditRetry(prisma, async () => {
        attempts++;
        throw new Error('not a conflict');
      }),
    );
    expect(failure).toMatchObject({ message: 'not a conflict' });
    expect(attempts).toBe(1);
  });
});

describe('concurrent writers', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestDatabase();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('twenty concurrent appends form one unbroken chain of twenty events', async () => {
    const prisma = t.db.prisma;
    await Promise.all(Array.from({ length: 20 }, (_, n) => append(prisma, n)));
    const rows = await events(prisma);
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((row) => (row.data as { n: number }).n)).size).toBe(20);
    expect(await verifyAuditChain(prisma)).toEqual({ ok: true, checked: 20 });
  }, 60_000);
});

describe('tampering', () => {
  let t: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    t = await openTestDatabase();
    prisma = t.db.prisma;
    for (let n = 0; n < 5; n++) await append(prisma, n);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('is refused by the database while its guards are on', async () => {
    const [first] = await events(prisma);
    const failure = await errorOf(prisma.$executeRaw`UPDATE "audit_events" SET "data" = '{"n": 99}'::jsonb WHERE "seq" = ${first?.seq}`);
    expect(String(failure)).toMatch(/append-only/);
  });

  it('changing one event’s data makes verification fail with a hash mismatch at that event', async () => {
    const rows = await events(prisma);
    const victim = rows[2]!;
    await tamper(prisma, victim.seq, { data: { n: 99 } });
    expect(await verifyAuditChain(prisma)).toEqual({ ok: false, checked: 3, firstBad: { seq: victim.seq, reason: 'hash mismatch' } });
    await tamper(prisma, victim.seq, { data: { n: 2 } });
    expect((await verifyAuditChain(prisma)).ok).toBe(true);
  });

  it('changing one event’s data and its hash breaks the link of the event after it', async () => {
    const rows = await events(prisma);
    const victim = rows[1]!;
    const forged = hashAuditEvent({ ...victim, data: { n: 42 } });
    await tamper(prisma, victim.seq, { data: { n: 42 }, hash: forged });
    expect(await verifyAuditChain(prisma)).toEqual({ ok: false, checked: 3, firstBad: { seq: rows[2]!.seq, reason: 'broken link' } });
  });
});

describe('services record their changes', () => {
  let t: TestApp;
  let prisma: PrismaClient;

  beforeAll(async () => {
    t = await createTestApp();
    prisma = t.deps.db.prisma;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  async function newOwner(): Promise<string> {
    return (await createOwner(prisma, 'Audited Owner')).userId;
  }

  async function eventsAfter(seq: bigint) {
    return prisma.auditEvent.findMany({ where: { seq: { gt: seq } }, orderBy: { seq: 'asc' } });
  }

  async function newestSeq(): Promise<bigint> {
    return (await prisma.auditEvent.findFirst({ orderBy: { seq: 'desc' }, select: { seq: true } }))?.seq ?? 0n;
  }

  it('records each change to an agent as one event by its owner, without key material', async () => {
    const ownerId = await newOwner();
    const start = await newestSeq();
    const created = await createAgent(t.deps, ownerId, createAgentInput.parse({ name: 'Audited', max_transaction_amount: 5, max_daily_limit: 50 }));
    const agentId = created.agent.id;
    await updateSpendingRules(t.deps, ownerId, updateSpendingRulesInput.parse({ agent_id: agentId, max_daily_limit: 20 }));
    await suspendAgent(t.deps, ownerId, agentId);
    await suspendAgent(t.deps, ownerId, agentId);
    await reactivateAgent(t.deps, ownerId, agentId);
    const rotated = await rotateAgentApiKey(t.deps, ownerId, agentId);
    await deleteAgent(t.deps, ownerId, agentId);

    const recorded = await eventsAfter(start);
    expect(recorded.map((event) => event.action)).toEqual([
      'agent.created',
      'agent.spending_rules_updated',
      'agent.suspended',
      'agent.reactivated',
      'agent.api_key_rotated',
      'agent.deleted',
    ]);
    for (const event of recorded) {
      expect(event).toMatchObject({ actor: `owner:${ownerId}`, subject: `agent:${agentId}`, ownerId });
      const text = JSON.stringify(event.data);
      for (const secret of [created.api_key.key, rotated.api_key.key, created.api_key.prefix, rotated.api_key.prefix]) expect(text).not.toContain(secret);
    }
    expect(recorded[0]?.data).toMatchObject({ name: 'Audited', status: 'active', max_transaction_amount: '5', max_daily_limit: '50' });
    expect(recorded[1]?.data).toMatchObject({ max_transaction_amount: '5', max_daily_limit: '20' });
    expect(recorded[2]?.data).toEqual({ status: 'suspended' });
    expect(recorded[4]?.data).toEqual({ api_key_id: rotated.api_key.id, revoked_api_keys: 1 });
    expect((await verifyAuditChain(prisma)).ok).toBe(true);
  });

  it('records nothing when an agent change is refused', async () => {
    const ownerId = await newOwner();
    const stranger = await newOwner();
    const { agent } = await createAgent(t.deps, ownerId, createAgentInput.parse({ name: 'Not yours' }));
    const start = await newestSeq();
    for (const attempt of [suspendAgent, deleteAgent, rotateAgentApiKey]) {
      expect(isAppError(await errorOf(attempt(t.deps, stranger, agent.id)))).toBe(true);
    }
    expect(await eventsAfter(start)).toEqual([]);
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { status: true } })).status).toBe('active');
  });

  it('records creating and revoking an owner API key, once each, without the key', async () => {
    const ownerId = await newOwner();
    const owner = { userId: ownerId, via: 'session' as const };
    const start = await newestSeq();
    const key = await createOwnerApiKey(prisma, owner, { name: 'CI' });
    await revokeOwnerApiKey(prisma, owner, { id: key.id });
    await revokeOwnerApiKey(prisma, owner, { id: key.id });

    const recorded = await eventsAfter(start);
    expect(recorded.map((event) => [event.action, event.subject, event.actor, event.ownerId, event.data])).toEqual([
      ['owner_api_key.created', `owner_api_key:${key.id}`, `owner:${ownerId}`, ownerId, { name: 'CI' }],
      ['owner_api_key.revoked', `owner_api_key:${key.id}`, `owner:${ownerId}`, ownerId, { name: 'CI' }],
    ]);
    expect(JSON.stringify(recorded.map((event) => event.data))).not.toContain(key.key);
  });

  it('records nothing when an owner API key change is refused', async () => {
    const ownerId = await newOwner();
    const key = await createOwnerApiKey(prisma, { userId: ownerId, via: 'session' }, { name: 'Mine' });
    const stranger = await newOwner();
    const start = await newestSeq();
    expect(await errorOf(revokeOwnerApiKey(prisma, { userId: stranger, via: 'session' }, { id: key.id }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await errorOf(createOwnerApiKey(prisma, { userId: ownerId, via: 'api_key' }, { name: 'Minted by a key' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await eventsAfter(start)).toEqual([]);
  });

  it('exports the log as JSON lines, all of it or one owner’s', async () => {
    const ownerId = await newOwner();
    await createOwnerApiKey(prisma, { userId: ownerId, via: 'session' }, { name: 'Exported' });
    const all: string[] = [];
    for await (const line of exportAuditLog(prisma, { batchSize: 3 })) all.push(line);
    expect(all).toHaveLength(await prisma.auditEvent.count());
    const parsed = all.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const event of parsed) {
      expect(event.seq).toMatch(/^\d+$/);
      expect(Object.keys(event).sort()).toEqual(['action', 'actor', 'at', 'data', 'hash', 'ownerId', 'prevHash', 'seq', 'subject']);
    }
    expect(parsed.map((event) => BigInt(event.seq as string))).toEqual([...parsed.map((event) => BigInt(event.seq as string))].sort((a, b) => (a < b ? -1 : 1)));

    const mine: string[] = [];
    for await (const line of exportAuditLog(prisma, { ownerId })) mine.push(line);
    expect(mine.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ ownerId, action: 'owner_api_key.created', data: { name: 'Exported' } })]);
  });
});

describe('the audit:verify and audit:export commands', () => {
  // PostgreSQL: the test database's URL. PGlite: an on-disk database this process owns and
  // serves on its socket, which the commands reach the way they reach a running product.
  let db: Database;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const base = { ...process.env };
    delete base.DATABASE_URL;
    if (testDatabaseKind() === 'postgres') {
      const t = await openTestDatabase();
      db = t.db;
      env = { ...base, DATABASE_URL: t.databaseUrl };
      close = t.cleanup;
    } else {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'purser-audit-'));
      db = await openDatabase({ dataDir, serveSocket: true });
      env = { ...base, DATA_DIR: dataDir };
      close = async () => {
        await db.close();
        await rm(dataDir, { recursive: true, force: true });
      };
    }
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  // Asynchronous on purpose: with PGlite this process serves the database the command reads.
  function run(cli: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, ['scripts/run-ts.mjs', `server/src/cli/${cli}.ts`, ...args], { cwd: ROOT, env }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  it('audit:verify exits 0 and counts the events of a sound chain', async () => {
    for (let n = 0; n < 3; n++) await append(db.prisma, n);
    const result = await run('audit-verify');
    expect(result).toMatchObject({ code: 0, stdout: 'audit chain ok: 3 events\n' });
  }, 60_000);

  it('audit:export writes one JSON line per event, and only the owner’s with --owner', async () => {
    const ownerId = randomUUID();
    await withAuditRetry(db.prisma, (tx) => appendAuditEvent(tx, { actor: 'system', action: 'test.owned', subject: 'test:owned', ownerId }));
    const all = await run('audit-export');
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n').map((line) => JSON.parse(line).seq)).toEqual(['1', '2', '3', '4']);
    const mine = await run('audit-export', ['--owner', ownerId]);
    expect(mine.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ seq: '4', ownerId, action: 'test.owned' })]);
  }, 60_000);

  it('audit:verify exits 1 and names the first tampered event', async () => {
    const victim = (await events(db.prisma))[1]!;
    await tamper(db.prisma, victim.seq, { data: { n: 1000 } });
    const result = await run('audit-verify');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`seq ${victim.seq}: hash mismatch`);
  }, 60_000);
});
