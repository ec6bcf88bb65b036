/**
 * Test support: a fresh, migrated database per call, on the engine named by PURSER_TEST_DB.
 *
 * - `pglite` (default): an in-memory PGlite, loaded from a migrated copy made once per
 *   process (about three times faster than creating and migrating each time).
 * - `postgres`: a new database `purser_test_<random>` on the server of TEST_DATABASE_URL
 *   (default postgresql://postgres@127.0.0.1:5432/postgres), dropped on cleanup.
 *
 * Test support may read process.env; nothing else in this workspace does.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PGliteAdapterFactory, PostgresAdapterFactory } from './adapters';
import { openDatabase, openPgliteInstance, type Database } from './index';

export type TestDatabaseKind = 'postgres' | 'pglite';

export function testDatabaseKind(): TestDatabaseKind {
  const kind = process.env.PURSER_TEST_DB || 'pglite';
  if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`PURSER_TEST_DB must be postgres or pglite, not ${kind}`);
  return kind;
}

export type TestDatabase = {
  db: Database;
  /** PostgreSQL only: the test database's URL, for a second connection (another process's view). */
  databaseUrl?: string;
  cleanup(): Promise<void>;
};

/** A fresh database with every migration applied. Call cleanup() when done (afterAll). */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind() === 'pglite') {
    const pglite = await PGlite.create({ loadDataDir: await migratedPgliteImage() });
    const db = await openPgliteInstance(pglite, { migrate: false });
    return { db, cleanup: () => db.close() };
  }
  const server = await createPostgresDatabase();
  try {
    const db = await openDatabase({ databaseUrl: server.url, dataDir: '' });
    return {
      db,
      databaseUrl: server.url,
      async cleanup() {
        await db.close();
        await server.drop();
      },
    };
  } catch (error) {
    await server.drop();
    throw error;
  }
}

export type EmptyTestDatabase = {
  /** For applyMigrations() and other schema-engine calls. */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Runs one SQL statement and returns its rows. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  cleanup(): Promise<void>;
};

/** A fresh database with nothing in it, for tests of the migrations themselves. */
export async function openEmptyTestDatabase(): Promise<EmptyTestDatabase> {
  if (testDatabaseKind() === 'pglite') {
    const pglite = await PGlite.create();
    return {
      adapterFactory: new PGliteAdapterFactory(pglite),
      query: async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows,
      cleanup: () => pglite.close(),
    };
  }
  const server = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: server.url, max: 1 });
  return {
    adapterFactory: new PostgresAdapterFactory({ connectionString: server.url }),
    query: async (sql) => (await pool.query<Record<string, unknown>>(sql)).rows,
    async cleanup() {
      await pool.end();
      await server.drop();
    },
  };
}

let pgliteImage: Promise<Blob> | undefined;

function migratedPgliteImage(): Promise<Blob> {
  pgliteImage ??= (async () => {
    const pglite = await PGlite.create();
    const db = await openPgliteInstance(pglite);
    try {
      return await pglite.dumpDataDir('none');
    } finally {
      await db.close();
    }
  })();
  return pgliteImage;
}

async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `purser_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

async function withAdmin(adminUrl: string, fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}
