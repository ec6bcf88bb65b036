/**
 * A database migrated up to just before one migration, on the engine PURSER_TEST_DB names, for
 * tests of what a migration does to rows written before it: run SQL on it, then apply the rest
 * and open it as the product does.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { applyMigrations, migrationsDir, openDatabase, openPgliteInstance, PGliteAdapterFactory, PostgresAdapterFactory, type Database } from '@purser/db';
import { testDatabaseKind } from '@purser/db/testing';

export interface DatabaseBeforeMigration {
  sql(text: string): Promise<unknown>;
  migrateAndOpen(): Promise<Database>;
  cleanup(): Promise<void>;
}

/** `migration`: the folder name of the first migration not applied yet. */
export async function openDatabaseBefore(migration: string): Promise<DatabaseBeforeMigration> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'purser-before-migration-'));
  for (const entry of await readdir(migrationsDir)) {
    if (entry < migration) await cp(path.join(migrationsDir, entry), path.join(scratch, entry), { recursive: true });
  }
  const removeScratch = () => rm(scratch, { recursive: true, force: true });

  if (testDatabaseKind() === 'pglite') {
    const pglite = await PGlite.create();
    await applyMigrations(new PGliteAdapterFactory(pglite), { dir: scratch });
    let db: Database | undefined;
    return {
      sql: (text) => pglite.exec(text),
      migrateAndOpen: async () => (db = await openPgliteInstance(pglite)),
      async cleanup() {
        await (db ? db.close() : pglite.close());
        await removeScratch();
      },
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `purser_test_${randomBytes(6).toString('hex')}`;
  const admin = (text: string) => withClient(adminUrl, (client) => client.query(text));
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  await applyMigrations(new PostgresAdapterFactory({ connectionString: databaseUrl }), { dir: scratch });
  let db: Database | undefined;
  return {
    sql: (text) => withClient(databaseUrl, (client) => client.query(text)),
    migrateAndOpen: async () => (db = await openDatabase({ databaseUrl, dataDir: '' })),
    async cleanup() {
      await db?.close();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await removeScratch();
    },
  };
}

async function withClient<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
