/**
 * The hash-chained audit log on a real database: one chain per owner and the system chain,
 * appending, verifying every chain, concurrent writers of one chain and of many, owners that
 * do not wait for each other's chain, tampering by someone with database access, the
 * services that record their changes, the export, and the audit:verify / audit:export
 * commands. The legacy chain (events from before per-owner chains) is audit-migration.db.test.ts.
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
import { auditChainIdOf, GENESIS_HASH, hashAuditEvent, SYSTEM_CHAIN_ID } from '../src/services/audit/audit-hash';
import { exportAuditLog } from '../src/services/audit/export-audit-log';
import { verifyAuditChains, type AuditChainReport, type AuditVerificationReport } from '../src/services/audit/verify-audit-chains';
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

function append(prisma: PrismaClient, n: number, ownerId?: string) {
  return withAuditRetry(prisma, (tx) => appendAuditEvent(tx, { actor: 'system', action: 'test.appended', subject: `test:${n}`, ownerId, data: { n } }));
}

function events(prisma: PrismaClient) {
  return prisma.auditEvent.findMany({ orderBy: { seq: 'asc' } });
}

function chainEvents(prisma: PrismaClient, chainId: string) {
  return prisma.auditEvent.findMany({ where: { chainId }, orderBy: { chainSeq: 'asc' } });
}

function headOf(prisma: PrismaClient, chainId: string) {
  return prisma.auditChainHead.findUnique({ where: { chainId } });
}

function chainReport(report: AuditVerificationReport, chainId: string): AuditChainReport | undefined {
  return report.chains.find((chain) => chain.chainId === chainId);
}

/** Each event links to the one before it from 64 zeros, numbered 1, 2, 3, ..., its hash its own. */
function expectSoundChain(rows: Awaited<ReturnType<typeof chainEvents>>, chainId: string): void {
  rows.forEach((row, i) => {
    expect(row.chainId).toBe(chainId);
    expect(row.chainSeq).toBe(BigInt(i + 1));
    expect(row.prevHash).toBe(i === 0 ? GENESIS_HASH : rows[i - 1]?.hash);
    expect(row.hash).toBe(hashAuditEvent(row));
  });
}

/** What an attacker with database access does: switch the guards off, rewrite, switch them on. */
async function tamper(prisma: PrismaClient, seq: bigint, change: { data?: object; hash?: string; chainSeq?: bigint; remove?: true }): Promise<void> {
  await prisma.$transaction(async (tx: TransactionClient) => {
    await tx.$executeRawUnsafe('ALTER TABLE "audit_events" DISABLE TRIGGER USER');
    if (change.data) await tx.$executeRaw`UPDATE "audit_events" SET "data" = ${JSON.stringify(change.data)}::jsonb WHERE "seq" = ${seq}`;
    if (change.hash) await tx.$executeRaw`UPDATE "audit_events" SET "hash" = ${change.hash} WHERE "seq" = ${seq}`;
    if (change.chainSeq) await tx.$executeRaw`UPDATE "audit_events" SET "chain_seq" = ${change.chainSeq} WHERE "seq" = ${seq}`;
    if (change.remove) await tx.$executeRaw`DELETE FROM "audit_events" WHERE "seq" = ${seq}`;
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

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
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

  it('puts events without an owner in the system chain, numbered from 1 and linked from 64 zeros, and the chain verifies', async () => {
    for (let n = 0; n < 5; n++) await append(prisma, n);
    const rows = await chainEvents(prisma, SYSTEM_CHAIN_ID);
    expect(rows).toHaveLength(5);
    expectSoundChain(rows, SYSTEM_CHAIN_ID);
    expect(rows.map((row) => row.data)).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(await headOf(prisma, SYSTEM_CHAIN_ID)).toEqual({ chainId: SYSTEM_CHAIN_ID, lastSeq: 5n, lastHash: rows[4]?.hash });
    const sound = { ok: true, checked: 5, chains: [{ chainId: SYSTEM_CHAIN_ID, ok: true, checked: 5 }] };
    expect(await verifyAuditChains(prisma)).toEqual(sound);
    expect(await verifyAuditChains(prisma, { batchSize: 2 })).toEqual(sound);
  });

  it('gives each owner a chain of their own from genesis, however their appends interleave, and verifies each', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    for (const [n, owner] of [a, b, a, a, b].entries()) await append(prisma, n, owner);
    const chainA = await chainEvents(prisma, `owner:${a}`);
    const chainB = await chainEvents(prisma, `owner:${b}`);
    expect(chainA.map((row) => row.data)).toEqual([{ n: 0 }, { n: 2 }, { n: 3 }]);
    expect(chainB.map((row) => row.data)).toEqual([{ n: 1 }, { n: 4 }]);
    expectSoundChain(chainA, `owner:${a}`);
    expectSoundChain(chainB, `owner:${b}`);
    for (const row of [...chainA, ...chainB]) expect(row.ownerId).toBe(row.chainId.slice('owner:'.length));
    expect(await headOf(prisma, `owner:${a}`)).toMatchObject({ lastSeq: 3n, lastHash: chainA[2]?.hash });
    // The hash binds an event to its chain and position: moved elsewhere, it no longer verifies.
    expect(hashAuditEvent({ ...chainA[0]!, chainId: `owner:${b}` })).not.toBe(chainA[0]?.hash);
    expect(hashAuditEvent({ ...chainA[1]!, chainSeq: 1n })).not.toBe(chainA[1]?.hash);

    const report = await verifyAuditChains(prisma, { batchSize: 2 });
    expect(report.ok).toBe(true);
    expect(report.checked).toBe(await prisma.auditEvent.count());
    expect(chainReport(report, `owner:${a}`)).toEqual({ chainId: `owner:${a}`, ok: true, checked: 3 });
    expect(chainReport(report, `owner:${b}`)).toEqual({ chainId: `owner:${b}`, ok: true, checked: 2 });
    expect(report.chains.map((chain) => chain.chainId)).toEqual([...report.chains.map((chain) => chain.chainId)].sort());
  });

  it('names the chain by the owner id as PostgreSQL returns it, whatever case it came in', async () => {
    const owner = randomUUID();
    await append(prisma, 0, owner.toUpperCase());
    const appended = await chainEvents(prisma, auditChainIdOf(owner));
    expect(appended).toHaveLength(1);
    expect(appended[0]).toMatchObject({ chainId: `owner:${owner}`, ownerId: owner, chainSeq: 1n, prevHash: GENESIS_HASH });
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
  });

  it('drops an appended event, and leaves the chain head where it was, when its transaction rolls back', async () => {
    const before = await prisma.auditEvent.count();
    const systemHead = await headOf(prisma, SYSTEM_CHAIN_ID);
    const newOwner = randomUUID();
    for (const ownerId of [undefined, newOwner]) {
      const failure = await errorOf(
        prisma.$transaction(async (tx: TransactionClient) => {
          await appendAuditEvent(tx, { actor: 'system', action: 'test.rolled_back', subject: 'test:x', ownerId });
          throw new Error('the change failed');
        }),
      );
      expect(failure).toMatchObject({ message: 'the change failed' });
    }
    expect(await prisma.auditEvent.count()).toBe(before);
    expect(await headOf(prisma, SYSTEM_CHAIN_ID)).toEqual(systemHead);
    expect(await headOf(prisma, `owner:${newOwner}`)).toBeNull();
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
  });

  it('runs a transaction again when it lost the race for its chain’s head', async () => {
    const before = await prisma.auditEvent.count();
    const failures: unknown[] = [];
    let attempts = 0;
    await withAuditRetry(prisma, async (tx) => {
      attempts++;
      if (attempts === 1) {
        // A writer that read the head before somebody else appended names a stale position.
        try {
          await tx.auditEvent.create({
            data: { chainId: SYSTEM_CHAIN_ID, chainSeq: 1n, actor: 'system', action: 'test.stale', subject: 'test:stale', prevHash: GENESIS_HASH, hash: 'stale' },
          });
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
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
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

  it('twenty concurrent appends of one owner form one unbroken chain numbered 1 to 20', async () => {
    const prisma = t.db.prisma;
    const owner = randomUUID();
    await Promise.all(Array.from({ length: 20 }, (_, n) => append(prisma, n, owner)));
    const rows = await chainEvents(prisma, `owner:${owner}`);
    expect(rows).toHaveLength(20);
    expectSoundChain(rows, `owner:${owner}`);
    expect(new Set(rows.map((row) => (row.data as { n: number }).n)).size).toBe(20);
    expect(await verifyAuditChains(prisma)).toEqual({ ok: true, checked: 20, chains: [{ chainId: `owner:${owner}`, ok: true, checked: 20 }] });
  }, 60_000);

  it('concurrent appends of four owners and the system form five unbroken chains', async () => {
    const prisma = t.db.prisma;
    const owners = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), undefined];
    await Promise.all(owners.flatMap((owner) => Array.from({ length: 6 }, (_, n) => append(prisma, n, owner))));
    for (const owner of owners) expectSoundChain(await chainEvents(prisma, auditChainIdOf(owner)), auditChainIdOf(owner));
    const report = await verifyAuditChains(prisma);
    expect(report.ok).toBe(true);
    for (const owner of owners) expect(chainReport(report, auditChainIdOf(owner))).toEqual({ chainId: auditChainIdOf(owner), ok: true, checked: 6 });
  }, 60_000);
});

// PGlite is one session: its transactions run one at a time whatever they lock, so only
// PostgreSQL can show two owners' transactions passing each other.
if (testDatabaseKind() === 'postgres') {
  describe('owners do not wait for each other', () => {
    let t: TestApp;
    let prisma: PrismaClient;

    beforeAll(async () => {
      t = await createTestApp();
      prisma = t.deps.db.prisma;
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    /** Resolves once another session of this database waits for a lock. */
    async function someoneWaitsForALock(): Promise<void> {
      for (;;) {
        const [waiting] = await prisma.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        if ((waiting?.n ?? 0) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    /** `promise`'s outcome, or 'still waiting' once `ms` have passed (generous: a hang, not a pace). */
    function outcomeOf<T>(promise: Promise<T>, ms: number): Promise<{ done: T } | 'still waiting'> {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
      return Promise.race([promise.then((done) => ({ done })), gaveUp]).finally(() => clearTimeout(timer));
    }

    it('owner B’s audited changes complete while owner A’s open transaction holds A’s chain head, and A’s next append waits for it', async () => {
      const ownerA = (await createOwner(prisma, 'Owner A')).userId;
      const ownerB = (await createOwner(prisma, 'Owner B')).userId;
      const appendedA = deferred();
      const commitA = deferred();
      // Owner A's change: appended, then held open until the test lets it commit.
      const transactionA = prisma.$transaction(
        async (tx: TransactionClient) => {
          await appendAuditEvent(tx, { actor: `owner:${ownerA}`, action: 'test.held_open', subject: 'test:a', ownerId: ownerA });
          appendedA.resolve();
          await commitA.promise;
        },
        { timeout: 180_000 },
      );
      const pending: Promise<unknown>[] = [transactionA];
      try {
        await appendedA.promise;

        // A's next audited change queues behind A's open transaction, on A's chain head.
        let nextADone = false;
        const nextA = append(prisma, 1, ownerA).then(() => (nextADone = true));
        pending.push(nextA);
        await someoneWaitsForALock();

        // Owner B's audited service calls, from start to commit, while A's transaction stays open.
        const changesOfB = (async () => {
          const created = await createAgent(t.deps, ownerB, createAgentInput.parse({ name: 'B’s agent', max_transaction_amount: 5, max_daily_limit: 50 }));
          await suspendAgent(t.deps, ownerB, created.agent.id);
          await createOwnerApiKey(prisma, { userId: ownerB, via: 'session' }, { name: 'B’s key', scopes: ['read'], expires_in_days: 30 });
        })();
        pending.push(changesOfB);
        expect(await outcomeOf(changesOfB, 60_000)).not.toBe('still waiting');
        expect((await chainEvents(prisma, `owner:${ownerB}`)).map((event) => event.action)).toEqual(['agent.created', 'agent.suspended', 'owner_api_key.created']);
        // Still open: nothing of A's is visible, and A's next append is still waiting.
        expect(await chainEvents(prisma, `owner:${ownerA}`)).toEqual([]);
        expect(nextADone).toBe(false);

        commitA.resolve();
        await transactionA;
        await nextA;
        expect(nextADone).toBe(true);
      } finally {
        commitA.resolve();
        await Promise.allSettled(pending);
      }

      expect((await chainEvents(prisma, `owner:${ownerA}`)).map((event) => [event.chainSeq, event.action])).toEqual([
        [1n, 'test.held_open'],
        [2n, 'test.appended'],
      ]);
      const report = await verifyAuditChains(prisma);
      expect(report.ok).toBe(true);
      expect(chainReport(report, `owner:${ownerA}`)).toEqual({ chainId: `owner:${ownerA}`, ok: true, checked: 2 });
      expect(chainReport(report, `owner:${ownerB}`)).toEqual({ chainId: `owner:${ownerB}`, ok: true, checked: 3 });
    }, 240_000);

    it('one owner’s audited transaction locks its chain head only at its end: another of the same owner’s commits while the first is still at work', async () => {
      const owner = (await createOwner(prisma, 'Owner C')).userId;
      const appendedFirst = deferred();
      const finishFirst = deferred();
      // The first transaction appends at its start, then goes on working (a payment's gate and hold).
      const first = withAuditRetry(prisma, async (tx) => {
        await appendAuditEvent(tx, { actor: `owner:${owner}`, action: 'test.first', subject: 'test:first', ownerId: owner });
        appendedFirst.resolve();
        await finishFirst.promise;
      });
      try {
        await appendedFirst.promise;
        // The second appends, writes and commits meanwhile: the head was not locked by the first's append.
        expect(await outcomeOf(append(prisma, 2, owner), 60_000)).not.toBe('still waiting');
        expect((await chainEvents(prisma, `owner:${owner}`)).map((event) => [event.chainSeq, event.action])).toEqual([[1n, 'test.appended']]);
      } finally {
        finishFirst.resolve();
        await first;
      }
      // The first's event follows the head it found when it wrote, at its end.
      expect((await chainEvents(prisma, `owner:${owner}`)).map((event) => [event.chainSeq, event.action])).toEqual([
        [1n, 'test.appended'],
        [2n, 'test.first'],
      ]);
      expect(chainReport(await verifyAuditChains(prisma), `owner:${owner}`)).toEqual({ chainId: `owner:${owner}`, ok: true, checked: 2 });
    }, 240_000);
  });
}

describe('tampering', () => {
  let t: TestDatabase;
  let prisma: PrismaClient;
  /** A chain nobody tampers with. */
  let bystander: string;

  /** A new owner's chain of `length` events. */
  async function newChain(length = 5) {
    const owner = randomUUID();
    for (let n = 0; n < length; n++) await append(prisma, n, owner);
    const chainId = `owner:${owner}`;
    return { chainId, rows: await chainEvents(prisma, chainId) };
  }

  async function verdictOn(chainId: string): Promise<AuditChainReport | undefined> {
    const report = await verifyAuditChains(prisma);
    expect(report.ok).toBe(false);
    expect(chainReport(report, bystander)).toEqual({ chainId: bystander, ok: true, checked: 3 });
    return chainReport(report, chainId);
  }

  beforeAll(async () => {
    t = await openTestDatabase();
    prisma = t.db.prisma;
    bystander = (await newChain(3)).chainId;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('is refused by the database while its guards are on', async () => {
    const { rows } = await newChain(1);
    const failure = await errorOf(prisma.$executeRaw`UPDATE "audit_events" SET "data" = '{"n": 99}'::jsonb WHERE "seq" = ${rows[0]?.seq}`);
    expect(String(failure)).toMatch(/append-only/);
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
  });

  it('changing one event’s data fails its chain with a hash mismatch at that event, and no other chain', async () => {
    const { chainId, rows } = await newChain();
    const victim = rows[2]!;
    await tamper(prisma, victim.seq, { data: { n: 99 } });
    expect(await verdictOn(chainId)).toEqual({ chainId, ok: false, checked: 3, firstBad: { chainSeq: 3n, seq: victim.seq, reason: 'hash mismatch' } });
  });

  it('changing one event’s data and its hash breaks the link of the event after it', async () => {
    const { chainId, rows } = await newChain();
    const victim = rows[1]!;
    await tamper(prisma, victim.seq, { data: { n: 42 }, hash: hashAuditEvent({ ...victim, data: { n: 42 } }) });
    expect(await verdictOn(chainId)).toEqual({ chainId, ok: false, checked: 3, firstBad: { chainSeq: 3n, seq: rows[2]!.seq, reason: 'broken link' } });
  });

  it('deleting an event leaves a gap at the event after it', async () => {
    const { chainId, rows } = await newChain();
    await tamper(prisma, rows[1]!.seq, { remove: true });
    expect(await verdictOn(chainId)).toEqual({ chainId, ok: false, checked: 2, firstBad: { chainSeq: 3n, seq: rows[2]!.seq, reason: 'sequence gap' } });
  });

  it('deleting the newest events leaves the chain short of its head', async () => {
    const { chainId, rows } = await newChain();
    await tamper(prisma, rows[4]!.seq, { remove: true });
    await tamper(prisma, rows[3]!.seq, { remove: true });
    expect(await verdictOn(chainId)).toEqual({ chainId, ok: false, checked: 3, firstBad: { chainSeq: 5n, reason: 'head mismatch' } });
  });

  it('swapping two events’ positions breaks the link at the first of them', async () => {
    const { chainId, rows } = await newChain();
    await tamper(prisma, rows[1]!.seq, { chainSeq: 1000n });
    await tamper(prisma, rows[2]!.seq, { chainSeq: 2n });
    await tamper(prisma, rows[1]!.seq, { chainSeq: 3n });
    expect(await verdictOn(chainId)).toEqual({ chainId, ok: false, checked: 2, firstBad: { chainSeq: 2n, seq: rows[2]!.seq, reason: 'broken link' } });
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
    // A new owner's first events: their chain from position 1.
    expect(recorded.map((event) => [event.chainId, event.chainSeq])).toEqual([1n, 2n, 3n, 4n, 5n, 6n].map((n) => [`owner:${ownerId}`, n]));
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
    expect((await verifyAuditChains(prisma)).ok).toBe(true);
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
    const key = await createOwnerApiKey(prisma, owner, { name: 'CI', scopes: ['read', 'payments:approve'], expires_in_days: 90 });
    await revokeOwnerApiKey(prisma, owner, { id: key.id });
    await revokeOwnerApiKey(prisma, owner, { id: key.id });

    const recorded = await eventsAfter(start);
    expect(recorded.map((event) => [event.action, event.subject, event.actor, event.ownerId, event.data])).toEqual([
      ['owner_api_key.created', `owner_api_key:${key.id}`, `owner:${ownerId}`, ownerId, { name: 'CI', scopes: ['read', 'payments:approve'], expires_at: key.expires_at }],
      ['owner_api_key.revoked', `owner_api_key:${key.id}`, `owner:${ownerId}`, ownerId, { name: 'CI' }],
    ]);
    expect(JSON.stringify(recorded.map((event) => event.data))).not.toContain(key.key);
  });

  it('records nothing when an owner API key change is refused', async () => {
    const ownerId = await newOwner();
    const key = await createOwnerApiKey(prisma, { userId: ownerId, via: 'session' }, { name: 'Mine', scopes: ['read'], expires_in_days: 30 });
    const stranger = await newOwner();
    const start = await newestSeq();
    expect(await errorOf(revokeOwnerApiKey(prisma, { userId: stranger, via: 'session' }, { id: key.id }))).toMatchObject({ code: 'NOT_FOUND' });
    const byKey = { userId: ownerId, via: 'api_key' as const, apiKey: { id: key.id, scopes: key.scopes, expiresAt: new Date(key.expires_at), lastUsedAt: null } };
    expect(await errorOf(createOwnerApiKey(prisma, byKey, { name: 'Minted by a key', scopes: ['read'], expires_in_days: 30 }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await eventsAfter(start)).toEqual([]);
  });

  it('exports the log as JSON lines, all of it or one owner’s', async () => {
    const ownerId = await newOwner();
    await createOwnerApiKey(prisma, { userId: ownerId, via: 'session' }, { name: 'Exported', scopes: ['read'], expires_in_days: 30 });
    const all: string[] = [];
    for await (const line of exportAuditLog(prisma, { batchSize: 3 })) all.push(line);
    expect(all).toHaveLength(await prisma.auditEvent.count());
    const parsed = all.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const event of parsed) {
      expect(event.seq).toMatch(/^\d+$/);
      expect(event.chainSeq).toMatch(/^\d+$/);
      expect(Object.keys(event).sort()).toEqual(['action', 'actor', 'at', 'chainId', 'chainSeq', 'data', 'hash', 'ownerId', 'prevHash', 'seq', 'subject']);
    }
    expect(parsed.map((event) => BigInt(event.seq as string))).toEqual([...parsed.map((event) => BigInt(event.seq as string))].sort((a, b) => (a < b ? -1 : 1)));

    const mine: string[] = [];
    for await (const line of exportAuditLog(prisma, { ownerId })) mine.push(line);
    expect(mine.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ ownerId, chainId: `owner:${ownerId}`, chainSeq: '1', action: 'owner_api_key.created', data: expect.objectContaining({ name: 'Exported' }) }),
    ]);
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

  const ownerId = randomUUID();

  it('audit:verify exits 0 and reports each chain', async () => {
    for (let n = 0; n < 3; n++) await append(db.prisma, n);
    await withAuditRetry(db.prisma, (tx) => appendAuditEvent(tx, { actor: 'system', action: 'test.owned', subject: 'test:owned', ownerId }));
    const result = await run('audit-verify');
    expect(result).toMatchObject({
      code: 0,
      stdout: `chain owner:${ownerId}: ok, 1 event\nchain system: ok, 3 events\naudit chains ok: 4 events in 2 chains\n`,
    });
  }, 60_000);

  it('audit:export writes one JSON line per event with its chain and position, and only the owner’s with --owner', async () => {
    const all = await run('audit-export');
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string>).map(({ seq, chainId, chainSeq }) => [seq, chainId, chainSeq])).toEqual([
      ['1', 'system', '1'],
      ['2', 'system', '2'],
      ['3', 'system', '3'],
      ['4', `owner:${ownerId}`, '1'],
    ]);
    const mine = await run('audit-export', ['--owner', ownerId]);
    expect(mine.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ seq: '4', chainId: `owner:${ownerId}`, chainSeq: '1', ownerId, action: 'test.owned' }),
    ]);
  }, 60_000);

  it('audit:verify exits 1 and names the first tampered event of the broken chain', async () => {
    const victim = (await events(db.prisma))[1]!;
    await tamper(db.prisma, victim.seq, { data: { n: 1000 } });
    const result = await run('audit-verify');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `chain owner:${ownerId}: ok, 1 event\n` +
        `chain system: broken at chain_seq 2 (seq ${victim.seq}): hash mismatch (2 events checked)\n` +
        'audit chains broken: 1 of 2 chains (3 events in 2 chains checked)\n',
    );
  }, 60_000);
});
