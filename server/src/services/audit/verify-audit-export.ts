/**
 * Verifies an audit export (JSON Lines, as exportAuditLog writes them) on its own, without the
 * database: the lines are grouped by chain and each chain is walked in file order with the
 * checks verifyAuditChains makes (positions without gaps from 1, each link, each hash).
 *
 * An export has no chain heads, so events cut from the end of a chain are not evident from the
 * file alone. The legacy chain was global: an owner's export holds that owner's legacy events
 * with other owners' between them, so its positions have gaps that are no fault. Legacy lines
 * are therefore checked position by position only where they run contiguously (a whole export
 * holds the whole chain); elsewhere each hash is still recomputed, and the chain is reported as
 * checked by hashes only.
 */
import { auditExportLine, type AuditExportLine } from '@purser/core';
import { GENESIS_HASH, hashAuditEvent, LEGACY_CHAIN_ID } from './audit-hash';
import type { AuditChainProblem, AuditChainReport } from './verify-audit-chains';

export type AuditExportChainReport = AuditChainReport & {
  /** Legacy events with gaps between them: their hashes were checked, the links across the gaps could not be. */
  hashesOnly?: true;
};

export type AuditExportReport = {
  ok: boolean;
  /** Events checked in all chains. */
  checked: number;
  /** One report per chain, in chain id order. */
  chains: AuditExportChainReport[];
};

/** A line that is not an export line: the file is not an audit export (or was cut mid-line). */
export class AuditExportFormatError extends Error {
  override name = 'AuditExportFormatError';
  constructor(
    readonly lineNumber: number,
    message: string,
  ) {
    super(`line ${lineNumber}: ${message}`);
  }
}

type ChainWalk = {
  report: AuditExportChainReport;
  /** The last event's position and hash; undefined before the chain's first line. */
  last?: { chainSeq: bigint; hash: string };
};

/** `lines` without their line breaks; blank lines are skipped. */
export async function verifyAuditExport(lines: AsyncIterable<string> | Iterable<string>): Promise<AuditExportReport> {
  const walks = new Map<string, ChainWalk>();
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === '') continue;
    const line = parseLine(text, lineNumber);
    let walk = walks.get(line.chainId);
    if (!walk) walks.set(line.chainId, (walk = { report: { chainId: line.chainId, ok: true, checked: 0 } }));
    // As in the database walk, a chain's first bad event ends its check.
    if (!walk.report.ok) continue;
    checkLine(walk, line);
  }
  const chains = [...walks.values()].map((walk) => walk.report).sort((a, b) => (a.chainId < b.chainId ? -1 : a.chainId > b.chainId ? 1 : 0));
  return { ok: chains.every((chain) => chain.ok), checked: chains.reduce((sum, chain) => sum + chain.checked, 0), chains };
}

function parseLine(text: string, lineNumber: number): AuditExportLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AuditExportFormatError(lineNumber, 'not JSON');
  }
  const parsed = auditExportLine.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AuditExportFormatError(lineNumber, `not an audit export line (${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}

function checkLine(walk: ChainWalk, line: AuditExportLine): void {
  const { report } = walk;
  const chainSeq = BigInt(line.chainSeq);
  const bad = (reason: AuditChainProblem) => {
    report.ok = false;
    report.firstBad = { chainSeq, seq: BigInt(line.seq), reason };
  };
  report.checked++;
  const expectedSeq = (walk.last?.chainSeq ?? 0n) + 1n;
  const expectedPrevHash = walk.last?.hash ?? GENESIS_HASH;
  if (line.chainId === LEGACY_CHAIN_ID && chainSeq > expectedSeq) {
    // Other owners' legacy events sat between: nothing to link this one to in the file.
    report.hashesOnly = true;
  } else {
    // Every other chain is whole in an export, from position 1 (the database keeps each of an
    // owner's events in their chain), so a missing or repeated position is a fault.
    if (chainSeq !== expectedSeq) return bad('sequence gap');
    if (line.prevHash !== expectedPrevHash) return bad('broken link');
  }
  const hash = hashAuditEvent({ ...line, chainSeq, at: new Date(line.at) });
  if (hash !== line.hash) return bad('hash mismatch');
  walk.last = { chainSeq, hash };
}
