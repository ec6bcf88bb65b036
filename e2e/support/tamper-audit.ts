// Alters one stored audit entry of the running product, as someone with database access would:
// the audit spec's proof that the console notices. The product started by scripts/test.mjs runs
// PGlite in DATA_DIR (E2E_DATA_DIR) and serves it over the PostgreSQL wire protocol on the port
// named in `<DATA_DIR>/pglite.lock.json` (prisma/src/lock.ts); that socket takes one client at a
// time and keeps a client's transaction apart from the product's, so this connects, rewrites in
// one transaction and disconnects at once.
//
// The owner's id: the sign-up answer's `user.id`, or `GET /auth/v1/user` (`{ id, ... }`) with
// `Authorization: Bearer <access token>` or the page's session cookies (page.request).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function socketPortOf(dataDir: string): Promise<number> {
  const file = path.join(dataDir, 'pglite.lock.json');
  const lock = JSON.parse(await readFile(file, 'utf8')) as { socketPort?: unknown };
  if (typeof lock.socketPort !== 'number') throw new Error(`${file} names no socket port: is the product running on PGlite in ${dataDir}?`);
  return lock.socketPort;
}

/**
 * Changes the data of the entry at `chainSeq` in the owner's chain ("owner:<id>") in place,
 * leaving its hash as it was: the owner's verification then says "broken at entry <chainSeq>"
 * (hash mismatch). The append-only trigger is switched off for the change and on again, in the
 * same transaction.
 */
export async function tamperOwnerAuditEntry(dataDir: string, ownerId: string, chainSeq: number): Promise<void> {
  if (!UUID.test(ownerId)) throw new Error(`ownerId must be a UUID, not ${ownerId}`);
  if (!Number.isSafeInteger(chainSeq) || chainSeq < 1) throw new Error(`chainSeq must be a position from 1, not ${chainSeq}`);
  const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${await socketPortOf(dataDir)}/postgres` });
  await client.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_append_only"');
      const changed = await client.query(`UPDATE "audit_events" SET "data" = "data" || '{"tampered": true}'::jsonb WHERE "chain_id" = $1 AND "chain_seq" = $2`, [
        `owner:${ownerId.toLowerCase()}`,
        chainSeq,
      ]);
      await client.query('ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_append_only"');
      if (changed.rowCount !== 1) throw new Error(`owner ${ownerId} has no audit entry at position ${chainSeq}`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    await client.end();
  }
}
