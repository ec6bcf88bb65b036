/**
 * `npm run audit:verify`: verifies every audit chain (the legacy chain, each owner's, the
 * system chain): positions without gaps, every link, every hash recomputed, the head naming
 * the last event. Prints one line per chain, then "audit chains ok: N events in M chains" and
 * exits 0 when all are sound; otherwise each bad chain's line names its first bad event
 * (chain position and seq) and why, and the command exits 1. Works while `npm start` runs
 * (through the PGlite socket).
 *
 * `npm run audit:verify -- --file <export.jsonl>`: verifies an export (`npm run audit:export`,
 * or an owner's download from GET /api/v1/audit-entries/export) on its own, without the
 * database, with the same output and exit codes (verify-audit-export.ts says what an export
 * can and cannot show). Exit 2: the command failed (no database, no such file, a line that is
 * not an export line).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { isAppError } from '@purser/core';
import { openDatabaseForTool } from '@purser/db';
import { loadEnv } from '../env';
import { verifyAuditChains, type AuditChainReport } from '../services/audit/verify-audit-chains';
import { AuditExportFormatError, verifyAuditExport, type AuditExportChainReport } from '../services/audit/verify-audit-export';

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function describeChain(chain: AuditChainReport & Pick<AuditExportChainReport, 'hashesOnly'>): string {
  const events = count(chain.checked, 'event');
  const bad = chain.firstBad;
  if (!bad && chain.hashesOnly) return `chain ${chain.chainId}: ok, ${events} (hashes only: the export holds some of this chain's events, not those between them)`;
  if (!bad) return `chain ${chain.chainId}: ok, ${events}`;
  const where = bad.seq === undefined ? `chain_seq ${bad.chainSeq}` : `chain_seq ${bad.chainSeq} (seq ${bad.seq})`;
  return `chain ${chain.chainId}: broken at ${where}: ${bad.reason} (${events} checked)`;
}

function printReport(report: { ok: boolean; checked: number; chains: (AuditChainReport & Pick<AuditExportChainReport, 'hashesOnly'>)[] }): number {
  for (const chain of report.chains) process.stdout.write(`${describeChain(chain)}\n`);
  const bad = report.chains.filter((chain) => !chain.ok).length;
  const total = `${count(report.checked, 'event')} in ${count(report.chains.length, 'chain')}`;
  process.stdout.write(report.ok ? `audit chains ok: ${total}\n` : `audit chains broken: ${bad} of ${count(report.chains.length, 'chain')} (${total} checked)\n`);
  return report.ok ? 0 : 1;
}

async function verifyDatabase(): Promise<number> {
  const env = loadEnv();
  const db = await openDatabaseForTool({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    return printReport(await verifyAuditChains(db.prisma));
  } finally {
    await db.close();
  }
}

async function verifyFile(file: string): Promise<number> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    return printReport(await verifyAuditExport(lines));
  } catch (error) {
    // Not an export, or no file to read: the message is the whole story, no stack needed.
    const unreadable = error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
    if (!(error instanceof AuditExportFormatError) && !unreadable) throw error;
    process.stderr.write(`${error instanceof AuditExportFormatError ? `${file}: ${error.message}` : error.message}\n`);
    return 2;
  } finally {
    lines.close();
    input.destroy();
  }
}

async function main(): Promise<number> {
  let file: string | undefined;
  try {
    file = parseArgs({ options: { file: { type: 'string' } } }).values.file;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: npm run audit:verify [-- --file <export.jsonl>]\n`);
    return 2;
  }
  return file === undefined ? verifyDatabase() : verifyFile(file);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(isAppError(error) ? `${error.code}: ${error.message}` : error);
    process.exit(2);
  },
);
