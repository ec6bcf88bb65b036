import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '@purser/db';
import { auditExportLine } from '@purser/core';
import { auditRecordOf, hashAuditEvent, LEGACY_CHAIN_ID } from './audit-hash';
import { exportAuditLog } from './export-audit-log';

const ownerId = '7b0c5b1e-0000-4000-8000-000000000001';
const row = {
  seq: 41n,
  chainId: `owner:${ownerId}`,
  chainSeq: 7n,
  at: new Date(Date.UTC(2026, 10, 26, 9, 30, 15, 123)),
  actor: 'owner:abc',
  action: 'policy.updated',
  subject: 'policy:p1',
  ownerId,
  data: { amount: '1.25', nested: { z: 1, a: [true, null, 'x'] } },
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
};
const legacyRow = { ...row, chainId: LEGACY_CHAIN_ID, ownerId: null };

/** The export of these rows, as exportAuditLog reads them from the table. */
async function exportOf(rows: (typeof row | typeof legacyRow)[]): Promise<string[]> {
  const prisma = { auditEvent: { findMany: async () => rows } } as unknown as PrismaClient;
  const lines: string[] = [];
  for await (const line of exportAuditLog(prisma, { batchSize: rows.length + 1 })) lines.push(line);
  return lines;
}

describe('the audit record', () => {
  it('hashes as chains written before it was shared still verify', () => {
    // Recorded from the hash as it was written field by field, before the record existed.
    expect(hashAuditEvent(row)).toBe('be6cbbb630bb202f6ee8134a58ccad63d2dfffee0c2ab0bc09b6a65ec4c60798');
    expect(hashAuditEvent(legacyRow)).toBe('2b6075c621f0d1f6fc763d12a46e4e26beb9a12ffd2afec144d2074cb425fa98');
    expect(hashAuditEvent({ ...row, chainId: 'system', ownerId: null, data: null })).toBe('c26afb1a205ec1ae3271c60e3095d5a776cff8789bb28966b6d7628ee65d6940');
  });

  it('is what an export line holds between seq and hash, in the same order and bytes as before', async () => {
    expect(await exportOf([row, legacyRow])).toEqual([
      `{"seq":"41","chainId":"owner:${ownerId}","chainSeq":"7","at":"2026-11-26T09:30:15.123Z","actor":"owner:abc","action":"policy.updated","subject":"policy:p1","ownerId":"${ownerId}","data":{"amount":"1.25","nested":{"z":1,"a":[true,null,"x"]}},"prevHash":"${'a'.repeat(64)}","hash":"${'b'.repeat(64)}"}`,
      `{"seq":"41","chainId":"legacy","chainSeq":"7","at":"2026-11-26T09:30:15.123Z","actor":"owner:abc","action":"policy.updated","subject":"policy:p1","ownerId":null,"data":{"amount":"1.25","nested":{"z":1,"a":[true,null,"x"]}},"prevHash":"${'a'.repeat(64)}","hash":"${'b'.repeat(64)}"}`,
    ]);
  });

  it('survives the export contract whole, so a verifier that reads an exported line computes the hash the database holds', async () => {
    for (const event of [row, legacyRow]) {
      const hashed = { ...event, hash: hashAuditEvent(event) };
      const [text] = await exportOf([hashed]);
      // What verify-audit-export.ts does with each line: parse it with the core contract, hash it again.
      const line = auditExportLine.parse(JSON.parse(text!));
      const { seq: _seq, hash, ...record } = line;
      expect(record).toEqual(auditRecordOf(event));
      expect(hashAuditEvent({ ...line, chainSeq: BigInt(line.chainSeq), at: new Date(line.at) })).toBe(hash);
    }
  });
});
