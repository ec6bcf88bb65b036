/**
 * The environment of the database command-line tools, read once. Same names and defaults
 * as server/src/env.ts: DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite, default .data).
 */
import path from 'node:path';

export type CliEnv = { databaseUrl: string | undefined; dataDir: string };

export function loadCliEnv(source: Record<string, string | undefined> = process.env): CliEnv {
  // Empty strings mean "unset", as in server/src/env.ts.
  const databaseUrl = source.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return { databaseUrl, dataDir: path.resolve(source.DATA_DIR || '.data') };
}
