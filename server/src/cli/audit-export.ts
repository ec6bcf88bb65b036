/**
 * `npm run audit:export -- [--owner <uuid>]`: writes the audit log to stdout as JSON lines,
 * oldest first, each naming its chain and position, optionally only one owner's events.
 */
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { isAppError } from '@purser/core';
import { openDatabaseForTool } from '@purser/db';
import { loadEnv } from '../env';
import { exportAuditLog } from '../services/audit/export-audit-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { owner: { type: 'string' } } });
  if (values.owner !== undefined && !UUID.test(values.owner)) throw new Error(`--owner must be a UUID, not ${values.owner}`);
  const env = loadEnv();
  const db = await openDatabaseForTool({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    for await (const line of exportAuditLog(db.prisma, { ownerId: values.owner })) {
      if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
    }
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(isAppError(error) ? `${error.code}: ${error.message}` : error);
  process.exit(1);
});
