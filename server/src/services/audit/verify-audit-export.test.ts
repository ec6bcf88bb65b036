import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditExportLine } from '@purser/core';
import { auditChainIdOf, GENESIS_HASH, hashAuditEvent, LEGACY_CHAIN_ID } from './audit-hash';
import { AuditExportFormatError, verifyAuditExport } from './verify-audit-export';

/** Lines of one chain as the export writes them, linked and hashed, at the given positions. */
function chainLines(chainId: string, ownerId: string | null, positions: number[], firstSeq = 1): AuditExportLine[] {
  const lines: AuditExportLine[] = [];
  let prevHash = GENESIS_HASH;
  for (const [i, position] of positions.entries()) {
    const fields = {
      chainId,
      chainSeq: BigInt(position),
      at: new Date(Date.UTC(2026, 0, 1, 0, i)),
      actor: 'system',
      action: 'test.appended',
      subject: `test:${position}`,
      ownerId,
      data: { n: position },
      prevHash,
    };
    const hash = hashAuditEvent(fields);
    lines.push({ ...fields, seq: String(firstSeq + i * 10), chainSeq: String(position), at: fields.at.toISOString(), hash });
    prevHash = hash;
  }
  return lines;
}

const text = (lines: AuditExportLine[]) => lines.map((line) => JSON.stringify(line));

describe('verifyAuditExport', () => {
  it('accepts whole chains, however their lines interleave, and reports each in chain id order', async () => {
    const ownerId = randomUUID();
    const owner = chainLines(auditChainIdOf(ownerId), ownerId, [1, 2, 3]);
    const system = chainLines('system', null, [1, 2]);
    const report = await verifyAuditExport(text([owner[0]!, system[0]!, owner[1]!, system[1]!, owner[2]!]).concat(''));
    expect(report).toEqual({
      ok: true,
      checked: 5,
      chains: [
        { chainId: `owner:${ownerId}`, ok: true, checked: 3 },
        { chainId: 'system', ok: true, checked: 2 },
      ],
    });
  });

  it('refuses an owner chain that does not start at position 1: its first events were removed', async () => {
    const ownerId = randomUUID();
    const lines = chainLines(auditChainIdOf(ownerId), ownerId, [1, 2, 3]);
    const report = await verifyAuditExport(text(lines.slice(1)));
    expect(report.chains[0]).toMatchObject({ ok: false, checked: 1, firstBad: { chainSeq: 2n, reason: 'sequence gap' } });
  });

  it("checks an owner export's legacy lines, which have other owners' events between them, by their hashes, and links only where positions are adjacent", async () => {
    // In the legacy chain every event links to the one before it in the whole table.
    const legacy = chainLines(LEGACY_CHAIN_ID, null, [1, 2, 3, 4, 5, 6]);
    const mine = [legacy[1]!, legacy[2]!, legacy[4]!];
    const report = await verifyAuditExport(text(mine));
    expect(report.chains).toEqual([{ chainId: LEGACY_CHAIN_ID, ok: true, checked: 3, hashesOnly: true }]);

    const edited = mine.map((line, i) => (i === 2 ? { ...line, data: { n: 500 } } : line));
    expect((await verifyAuditExport(text(edited))).chains[0]).toMatchObject({ ok: false, firstBad: { chainSeq: 5n, reason: 'hash mismatch' } });
    // Positions 2 and 3 are adjacent, so a forged 3 (edited and re-hashed) shows as a broken link.
    const forged = { ...mine[1]!, prevHash: 'f'.repeat(64) };
    forged.hash = hashAuditEvent({ ...forged, chainSeq: 3n, at: new Date(forged.at) });
    expect((await verifyAuditExport(text([mine[0]!, forged, mine[2]!]))).chains[0]).toMatchObject({ ok: false, firstBad: { chainSeq: 3n, reason: 'broken link' } });
    // Out of order is never a gap left by other owners.
    expect((await verifyAuditExport(text([mine[1]!, mine[0]!]))).chains[0]).toMatchObject({ ok: false, firstBad: { chainSeq: 2n, reason: 'sequence gap' } });
    // A whole export holds the whole legacy chain: checked like any other.
    expect((await verifyAuditExport(text(legacy))).chains).toEqual([{ chainId: LEGACY_CHAIN_ID, ok: true, checked: 6 }]);
  });

  it('throws a format error naming the line for text that is not an export line', async () => {
    const ownerId = randomUUID();
    const [line] = text(chainLines(auditChainIdOf(ownerId), ownerId, [1]));
    await expect(verifyAuditExport([line!, '{"seq":1}'])).rejects.toThrow(new AuditExportFormatError(2, 'not an audit export line (seq: Invalid input: expected string, received number)'));
    await expect(verifyAuditExport(['not json'])).rejects.toBeInstanceOf(AuditExportFormatError);
  });
});
