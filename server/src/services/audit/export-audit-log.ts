/**
 * The audit log as JSON lines, oldest first (table-wide seq order): one event per yielded
 * string (no trailing newline), seq and chainSeq as decimal strings. Each line names its chain
 * and position, so a chain can be checked from an export alone: between seq and hash it holds
 * exactly the fields the hash covers (auditRecordOf in audit-hash.ts). With `ownerId`,
 * only that owner's events: their whole chain, and their events in the legacy chain (whose
 * links run through other owners' events there).
 */
import type { AuditExportLine } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { auditRecordOf } from './audit-hash';

export async function* exportAuditLog(prisma: PrismaClient, options: { ownerId?: string; batchSize?: number } = {}): AsyncGenerator<string> {
  const batchSize = options.batchSize ?? 500;
  let after: bigint | undefined;
  for (;;) {
    const batch = await prisma.auditEvent.findMany({
      where: {
        ...(options.ownerId === undefined ? {} : { ownerId: options.ownerId }),
        ...(after === undefined ? {} : { seq: { gt: after } }),
      },
      orderBy: { seq: 'asc' },
      take: batchSize,
    });
    for (const event of batch) {
      yield JSON.stringify({ seq: event.seq.toString(), ...auditRecordOf(event), hash: event.hash } satisfies AuditExportLine);
    }
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = last.seq;
  }
}
