/**
 * Appends one event to the hash-chained audit log inside the caller's transaction, so the
 * event commits or rolls back with the change it records. Call it as the transaction's last
 * step: it locks audit_events against other appends until commit, which makes concurrent
 * writers queue instead of forking the chain. Should two writers still collide (a writer
 * that skipped the lock, a deadlock), the database refuses the loser (prev_hash is unique
 * and must name the newest event); `withAuditRetry` runs such a transaction again.
 *
 * `data` records what changed, never secrets: no keys, key hashes, tokens or key material.
 */
import { Prisma, type PrismaClient, type TransactionClient } from '@purser/db';
import { GENESIS_HASH, hashAuditEvent, type AuditData } from './audit-hash';

export type AuditEventInput = {
  /** "owner:<user id>", "agent:<did>", "system", ... */
  actor: string;
  /** "agent.created", "owner_api_key.revoked", ... */
  action: string;
  /** "agent:<id>", "owner_api_key:<id>", ... */
  subject: string;
  ownerId?: string | null;
  data?: AuditData;
  at?: Date;
};

export type AppendedAuditEvent = { seq: bigint; hash: string; prevHash: string };

export async function appendAuditEvent(tx: TransactionClient, input: AuditEventInput): Promise<AppendedAuditEvent> {
  // SHARE ROW EXCLUSIVE conflicts with itself and with INSERT, not with reads: appends queue
  // here until the holder commits; the verifier and exports keep reading.
  await tx.$executeRaw`LOCK TABLE "audit_events" IN SHARE ROW EXCLUSIVE MODE`;
  const newest = await tx.auditEvent.findFirst({ orderBy: { seq: 'desc' }, select: { hash: true } });
  const prevHash = newest?.hash ?? GENESIS_HASH;
  // Through JSON once, so what is hashed is exactly what jsonb stores and hands back.
  const data = JSON.parse(JSON.stringify(input.data ?? {})) as Prisma.InputJsonObject;
  const fields = {
    at: input.at ?? new Date(),
    actor: input.actor,
    action: input.action,
    subject: input.subject,
    ownerId: input.ownerId ?? null,
    data,
    prevHash,
  };
  const hash = hashAuditEvent(fields);
  const row = await tx.auditEvent.create({ data: { ...fields, hash }, select: { seq: true } });
  return { seq: row.seq, hash, prevHash };
}

/**
 * True for the errors two racing audit writers get: a duplicate prev_hash, a link to an
 * event that is no longer the newest (the link trigger, SQLSTATE 23514 with its message),
 * a serialization failure (40001) or a deadlock (40P01).
 */
export function isAuditChainConflict(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const meta = JSON.stringify(error.meta ?? {});
  if (error.code === 'P2002') return meta.includes('prev_hash') || meta.includes('prevHash');
  const sqlState = /"originalCode":"(\w+)"/.exec(meta)?.[1];
  if (sqlState === '40001' || sqlState === '40P01') return true;
  return sqlState === '23514' && /audit event (must link to|seq .* does not follow) the newest event/.test(meta);
}

/**
 * `prisma.$transaction(fn)`, run again (up to `attempts` times in all) when it fails on an
 * audit chain conflict. `fn` must be safe to repeat: everything it wrote rolled back.
 */
export async function withAuditRetry<T>(
  prisma: PrismaClient,
  fn: (tx: TransactionClient) => Promise<T>,
  options: { attempts?: number; transactionOptions?: { maxWait?: number; timeout?: number } } = {},
): Promise<T> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction((tx: TransactionClient) => fn(tx), options.transactionOptions);
    } catch (error) {
      if (attempt >= attempts || !isAuditChainConflict(error)) throw error;
    }
  }
}
