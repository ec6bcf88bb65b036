/**
 * `npm run audit:verify`: recomputes every audit event's hash and checks every link. Prints
 * "audit chain ok: N events" and exits 0 when the chain is sound; otherwise names the first
 * bad event's seq and why, and exits 1. Works while `npm start` runs (through the PGlite socket).
 */
import { isAppError } from '@purser/core';
import { openDatabaseForTool } from '@purser/db';
import { loadEnv } from '../env';
import { verifyAuditChain } from '../services/audit/verify-audit-chain';

async function main(): Promise<number> {
  const env = loadEnv();
  const db = await openDatabaseForTool({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const report = await verifyAuditChain(db.prisma);
    if (report.ok) {
      process.stdout.write(`audit chain ok: ${report.checked} events\n`);
      return 0;
    }
    const bad = report.firstBad;
    process.stdout.write(`audit chain broken at seq ${bad?.seq.toString()}: ${bad?.reason} (${report.checked} events checked)\n`);
    return 1;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(isAppError(error) ? `${error.code}: ${error.message}` : error);
    process.exit(2);
  },
);
