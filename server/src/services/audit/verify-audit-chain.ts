/**
 * Walks the whole audit log in seq order, a batch at a time, and checks that each event links
 * to the one before it (the first to 64 zeros) and that its hash is the hash of its contents.
 * The first event failing either check is reported; a row edited in place shows as a hash
 * mismatch, a row edited and re-hashed as a broken link on the row after it.
 */
import type { PrismaClient } from '@purser/db';
import { GENESIS_HASH, hashAuditEvent } from './audit-hash';

export type AuditChainReport = {
  ok: boolean;
  /** Events checked, the bad one included. */
  checked: number;
  firstBad?: { seq: bigint; reason: 'hash mismatch' | 'broken link' };
};

export async function verifyAuditChain(prisma: PrismaClient, options: { batchSize?: number } = {}): Promise<AuditChainReport> {
  const batchSize = options.batchSize ?? 500;
  let expectedPrevHash = GENESIS_HASH;
  let checked = 0;
  let after: bigint | undefined;
  for (;;) {
    const batch = await prisma.auditEvent.findMany({
      where: after === undefined ? {} : { seq: { gt: after } },
      orderBy: { seq: 'asc' },
      take: batchSize,
    });
    for (const event of batch) {
      checked++;
      if (event.prevHash !== expectedPrevHash) return { ok: false, checked, firstBad: { seq: event.seq, reason: 'broken link' } };
      if (hashAuditEvent(event) !== event.hash) return { ok: false, checked, firstBad: { seq: event.seq, reason: 'hash mismatch' } };
      expectedPrevHash = event.hash;
    }
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return { ok: true, checked };
    after = last.seq;
  }
}
