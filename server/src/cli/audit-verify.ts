/**
 * `npm run audit:verify`: verifies every audit chain (the legacy chain, each owner's, the
 * system chain): positions without gaps, every link, every hash recomputed, the head naming
 * the last event. Prints one line per chain, then "audit chains ok: N events in M chains" and
 * exits 0 when all are sound; otherwise each bad chain's line names its first bad event
 * (chain position and seq) and why, and the command exits 1. Works while `npm start` runs
 * (through the PGlite socket).
 */
import { isAppError } from '@purser/core';
import { openDatabaseForTool } from '@purser/db';
import { loadEnv } from '../env';
import { verifyAuditChains, type AuditChainReport } from '../services/audit/verify-audit-chains';

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function describeChain(chain: AuditChainReport): string {
  const events = count(chain.checked, 'event');
  const bad = chain.firstBad;
  if (!bad) return `chain ${chain.chainId}: ok, ${events}`;
  const where = bad.seq === undefined ? `chain_seq ${bad.chainSeq}` : `chain_seq ${bad.chainSeq} (seq ${bad.seq})`;
  return `chain ${chain.chainId}: broken at ${where}: ${bad.reason} (${events} checked)`;
}

async function main(): Promise<number> {
  const env = loadEnv();
  const db = await openDatabaseForTool({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const report = await verifyAuditChains(db.prisma);
    for (const chain of report.chains) process.stdout.write(`${describeChain(chain)}\n`);
    const bad = report.chains.filter((chain) => !chain.ok).length;
    const total = `${count(report.checked, 'event')} in ${count(report.chains.length, 'chain')}`;
    process.stdout.write(report.ok ? `audit chains ok: ${total}\n` : `audit chains broken: ${bad} of ${count(report.chains.length, 'chain')} (${total} checked)\n`);
    return report.ok ? 0 : 1;
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
