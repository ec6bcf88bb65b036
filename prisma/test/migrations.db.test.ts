import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations, diffSchemaAgainstMigrations, migrationsDir, readMigrations } from '../src/migrations';
import { openEmptyTestDatabase, type EmptyTestDatabase } from '../src/testing';

let empty: EmptyTestDatabase | undefined;
let scratch: string | undefined;

afterEach(async () => {
  await empty?.cleanup();
  empty = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe('migrations', () => {
  it('apply cleanly to an empty database, and applying them again changes nothing', async () => {
    empty = await openEmptyTestDatabase();
    const { migrationDirectories } = await readMigrations();
    const names = migrationDirectories.map((migration) => migration.path);

    expect(await applyMigrations(empty.adapterFactory)).toEqual(names);
    expect(await applyMigrations(empty.adapterFactory)).toEqual([]);

    const rows = await empty.query(
      'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const sql = await readFile(path.join(migrationsDir, String(row.migration_name), 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  }, 60_000);

  it('a failing migration is recorded as failed and leaves none of its statements behind', async () => {
    empty = await openEmptyTestDatabase();
    scratch = await mkdtemp(path.join(tmpdir(), 'purser-migrations-'));
    await mkdir(path.join(scratch, '20000101000000_broken'));
    await writeFile(
      path.join(scratch, '20000101000000_broken', 'migration.sql'),
      // The function body holds semicolons: the script must reach the database whole.
      `CREATE TABLE half_done (id int);
CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END; $$;
SELECT * FROM no_such_table;`,
    );

    await expect(applyMigrations(empty.adapterFactory, { dir: scratch })).rejects.toThrow(/no_such_table/);

    expect(await empty.query("SELECT to_regclass('half_done') AS t")).toEqual([{ t: null }]);
    const [row] = await empty.query('SELECT finished_at, logs FROM _prisma_migrations');
    expect(row?.finished_at).toBeNull();
    expect(String(row?.logs)).toMatch(/no_such_table/);
  }, 60_000);

  it('the committed migrations produce exactly the schema in schema.prisma', async () => {
    expect(await diffSchemaAgainstMigrations()).toBe('');
  }, 120_000);
});
