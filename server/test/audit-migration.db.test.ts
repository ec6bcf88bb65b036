/**
 * The move to per-owner audit chains on a database that already holds events of the one
 * global chain: the migration keeps them exactly as written, as the closed legacy chain that
 * still verifies, and new events start per-owner chains beside it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../src/services/audit/append-audit-event';
import { GENESIS_HASH, hashAuditEvent, LEGACY_CHAIN_ID } from '../src/services/audit/audit-hash';
import { verifyAuditChains } from '../src/services/audit/verify-audit-chains';
import { openDatabaseBefore, type DatabaseBeforeMigration } from './support/database-before-migration';

const CHAINS_MIGRATION = '20261124021706_audit_chain_per_owner';

type LegacyEvent = { seq: bigint; ownerId: string | null; prevHash: string; hash: string };

/**
 * A database migrated up to just before per-owner chains, a way to run SQL on it, and the
 * step that applies the rest of the migrations and opens it as the product does.
 */

describe('moving to per-owner audit chains', () => {
  let database: DatabaseBeforeMigration;
  let db: Database;
  const owners = [randomUUID(), randomUUID()];
  const legacy: LegacyEvent[] = [];

  beforeAll(async () => {
    database = await openDatabaseBefore(CHAINS_MIGRATION);
    // Events written the old way: one global chain, each linking to the newest event, hashed
    // without chain columns. A rolled-back append left a gap in seq.
    const at = new Date('2026-11-20T10:00:00.000Z');
    for (const [n, ownerId] of [owners[0], null, owners[1], owners[0], owners[0]].entries()) {
      if (n === 3) await database.sql(`SELECT nextval(pg_get_serial_sequence('audit_events', 'seq'))`);
      const seq = BigInt(n < 3 ? n + 1 : n + 2);
      const prevHash = legacy.at(-1)?.hash ?? GENESIS_HASH;
      const fields = { at, actor: 'system', action: 'legacy.recorded', subject: `test:${n}`, ownerId: ownerId ?? null, data: { n }, prevHash };
      const hash = hashAuditEvent({ ...fields, chainId: LEGACY_CHAIN_ID, chainSeq: 0n });
      await database.sql(
        `INSERT INTO audit_events (at, actor, action, subject, owner_id, data, prev_hash, hash)
         VALUES ('${at.toISOString()}', 'system', 'legacy.recorded', 'test:${n}', ${ownerId ? `'${ownerId}'` : 'NULL'}, '{"n": ${n}}', '${prevHash}', '${hash}')`,
      );
      legacy.push({ seq, ownerId: ownerId ?? null, prevHash, hash });
    }
    db = await database.migrateAndOpen();
  }, 120_000);
  afterAll(async () => {
    await database?.cleanup();
  });

  it('keeps the events written before as the legacy chain, exactly as written, numbered in seq order', async () => {
    const rows = await db.prisma.auditEvent.findMany({ orderBy: { seq: 'asc' } });
    expect(rows.map(({ seq, chainId, chainSeq, ownerId, prevHash, hash }) => ({ seq, chainId, chainSeq, ownerId, prevHash, hash }))).toEqual(
      legacy.map((event, i) => ({ ...event, chainId: LEGACY_CHAIN_ID, chainSeq: BigInt(i + 1) })),
    );
    expect(await db.prisma.auditChainHead.findMany()).toEqual([{ chainId: LEGACY_CHAIN_ID, lastSeq: 5n, lastHash: legacy[4]?.hash }]);
    expect(await verifyAuditChains(db.prisma, { batchSize: 2 })).toEqual({ ok: true, checked: 5, chains: [{ chainId: LEGACY_CHAIN_ID, ok: true, checked: 5 }] });
  });

  it('starts each owner’s chain from genesis beside it, and the legacy chain takes no new events', async () => {
    for (const ownerId of owners) {
      await withAuditRetry(db.prisma, (tx) => appendAuditEvent(tx, { actor: 'system', action: 'test.after', subject: 'test:after', ownerId }));
      const appended = await db.prisma.auditEvent.findMany({ where: { chainId: `owner:${ownerId}` } });
      expect(appended).toEqual([expect.objectContaining({ chainSeq: 1n, prevHash: GENESIS_HASH, action: 'test.after' })]);
    }
    await expect(
      db.prisma.auditEvent.create({
        data: { chainId: LEGACY_CHAIN_ID, chainSeq: 6n, actor: 'system', action: 'late', subject: 's', prevHash: legacy[4]!.hash, hash: randomUUID() },
      }),
    ).rejects.toThrow(/the legacy audit chain is closed/);

    const report = await verifyAuditChains(db.prisma);
    expect(report).toEqual({
      ok: true,
      checked: 7,
      chains: [
        { chainId: LEGACY_CHAIN_ID, ok: true, checked: 5 },
        ...[...owners].sort().map((ownerId) => ({ chainId: `owner:${ownerId}`, ok: true, checked: 1 })),
      ],
    });
  });

  it('still finds an edited legacy event', async () => {
    await db.prisma.$transaction(async (tx: TransactionClient) => {
      await tx.$executeRawUnsafe('ALTER TABLE "audit_events" DISABLE TRIGGER USER');
      await tx.$executeRaw`UPDATE "audit_events" SET "data" = '{"n": 99}'::jsonb WHERE "seq" = ${legacy[3]!.seq}`;
      await tx.$executeRawUnsafe('ALTER TABLE "audit_events" ENABLE TRIGGER USER');
    });
    const report = await verifyAuditChains(db.prisma);
    expect(report.chains[0]).toEqual({ chainId: LEGACY_CHAIN_ID, ok: false, checked: 4, firstBad: { chainSeq: 4n, seq: legacy[3]!.seq, reason: 'hash mismatch' } });
  });
});
