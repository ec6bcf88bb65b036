/**
 * Appends events to their owner's audit chain inside the caller's transaction, so each event
 * commits or rolls back with the change it records. Writing one locks its chain's head row until
 * commit, which makes one owner's writers queue instead of forking the chain while other owners'
 * writers do not wait at all. Should two writers still collide (a writer that skipped the lock, a
 * deadlock), the database refuses the loser (an event must follow its chain's head);
 * `withAuditRetry` runs such a transaction again.
 *
 * In a transaction of `withAuditRetry` the events are written as its last step, all at once: the
 * head is locked for the few milliseconds between that write and the commit, not for the whole
 * transaction. One owner's payments then queue on it only that long (a burst of one owner's
 * agents ran one transaction at a time before). In any other transaction an event is written at
 * once, and the head stays locked from there to the commit.
 *
 * `data` records what changed, never secrets: no keys, key hashes, tokens or key material.
 */
import { Prisma, type PrismaClient, type TransactionClient } from '@purser/db';
import { MONEY_TRANSACTION_OPTIONS } from '../idempotency/with-idempotency';
import { auditChainIdOf, auditHashParts, type AuditData } from './audit-hash';

export type AuditEventInput = {
  /** "owner:<user id>", "agent:<did>", "system", ... */
  actor: string;
  /** "agent.created", "owner_api_key.revoked", ... */
  action: string;
  /** "agent:<id>", "owner_api_key:<id>", ... */
  subject: string;
  /** Whose chain the event joins; without one, the system chain. */
  ownerId?: string | null;
  data?: AuditData;
  at?: Date;
};

/** The events a `withAuditRetry` transaction appended, written when its work is done. */
const pendingEvents = new WeakMap<TransactionClient, AuditEventInput[]>();

export async function appendAuditEvent(tx: TransactionClient, input: AuditEventInput): Promise<void> {
  // Timed when it happened, not when it is written.
  const event = { ...input, at: input.at ?? new Date() };
  const pending = pendingEvents.get(tx);
  if (pending) pending.push(event);
  else await writeAuditEvents(tx, [event]);
}

/**
 * Events as purser_append_audit_events takes them, one array per column: grouped by chain,
 * chains in sorted order (so two transactions writing to the same two chains lock their heads
 * in one order and cannot deadlock on them), in the order they were appended within a chain,
 * each with its canonical JSON cut around the position and previous hash the database fills in.
 */
export function auditEventColumns(events: readonly AuditEventInput[]) {
  const rows = events
    .map((input, order) => {
      // As PostgreSQL hands a uuid back, so the hash verifies and the chain matches the owner.
      const ownerId = input.ownerId ? input.ownerId.toLowerCase() : null;
      // Through JSON once, so what is hashed is exactly what jsonb stores and hands back.
      const data = JSON.parse(JSON.stringify(input.data ?? {})) as Prisma.InputJsonObject;
      const fields = { chainId: auditChainIdOf(ownerId), at: input.at ?? new Date(), actor: input.actor, action: input.action, subject: input.subject, ownerId, data };
      return { ...fields, order, parts: auditHashParts(fields) };
    })
    .sort((a, b) => (a.chainId < b.chainId ? -1 : a.chainId > b.chainId ? 1 : a.order - b.order));
  return {
    chain_ids: rows.map((row) => row.chainId),
    ats: rows.map((row) => row.at.toISOString()),
    actors: rows.map((row) => row.actor),
    actions: rows.map((row) => row.action),
    subjects: rows.map((row) => row.subject),
    owner_ids: rows.map((row) => row.ownerId),
    datas: rows.map((row) => row.data),
    head_parts: rows.map((row) => row.parts.head),
    middle_parts: rows.map((row) => row.parts.middle),
    tail_parts: rows.map((row) => row.parts.tail),
  };
}

/** Writes events in the order they were appended, in one statement (purser_append_audit_events). */
async function writeAuditEvents(tx: TransactionClient, events: readonly AuditEventInput[]): Promise<void> {
  if (events.length === 0) return;
  const columns = auditEventColumns(events);
  await tx.$executeRaw`
    SELECT "purser_append_audit_events"(
      ${columns.chain_ids}::text[],
      ${columns.ats}::text[]::timestamptz[],
      ${columns.actors}::text[],
      ${columns.actions}::text[],
      ${columns.subjects}::text[],
      ${columns.owner_ids}::text[]::uuid[],
      ${columns.datas.map((data) => JSON.stringify(data))}::text[]::jsonb[],
      ${columns.head_parts}::text[],
      ${columns.middle_parts}::text[],
      ${columns.tail_parts}::text[]
    )`;
}

/**
 * True for the errors two racing audit writers of one chain get: a duplicate chain position,
 * an event that no longer follows its chain's head (the insert trigger, SQLSTATE 23514 with
 * its message), a serialization failure (40001) or a deadlock (40P01).
 */
export function isAuditChainConflict(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const meta = JSON.stringify(error.meta ?? {});
  if (error.code === 'P2002') return meta.includes('chain_seq') || meta.includes('chainSeq');
  const sqlState = /"originalCode":"(\w+)"/.exec(meta)?.[1];
  if (sqlState === '40001' || sqlState === '40P01') return true;
  return sqlState === '23514' && /audit event must follow the head of chain/.test(meta);
}

/**
 * `prisma.$transaction(fn)`, run again (up to `attempts` times in all) when it fails on an
 * audit chain conflict. `fn` must be safe to repeat: everything it wrote rolled back. The audit
 * events `fn` appends are written after it returns, just before the commit.
 *
 * One owner's audited writes queue on the chain's head row, each holding a pooled connection
 * while it waits, so a burst for one owner (100 payments at once) also queues for connections.
 * Such transactions get the money transactions' patience by default: Prisma's 2 s to start
 * answered part of that burst with "Unable to start a transaction in the given time".
 */
export async function withAuditRetry<T>(
  prisma: PrismaClient,
  fn: (tx: TransactionClient) => Promise<T>,
  options: { attempts?: number; transactionOptions?: { maxWait?: number; timeout?: number } } = {},
): Promise<T> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction(async (tx: TransactionClient) => {
        const pending: AuditEventInput[] = [];
        pendingEvents.set(tx, pending);
        const result = await fn(tx);
        pendingEvents.delete(tx);
        await writeAuditEvents(tx, pending);
        return result;
      }, options.transactionOptions ?? MONEY_TRANSACTION_OPTIONS);
    } catch (error) {
      if (attempt >= attempts || !isAuditChainConflict(error)) throw error;
    }
  }
}
