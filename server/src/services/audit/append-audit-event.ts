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
import { auditChainIdOf, GENESIS_HASH, hashAuditEvent, type AuditData } from './audit-hash';

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
 * Writes events in the order they were appended, one insert per chain, each chain's head locked
 * first (chains in a fixed order, so two transactions writing to the same two chains cannot
 * deadlock on them).
 */
async function writeAuditEvents(tx: TransactionClient, events: readonly AuditEventInput[]): Promise<void> {
  const byChain = new Map<string, AuditEventInput[]>();
  for (const event of events) {
    const chainId = auditChainIdOf(event.ownerId ? event.ownerId.toLowerCase() : null);
    byChain.set(chainId, [...(byChain.get(chainId) ?? []), event]);
  }
  for (const chainId of [...byChain.keys()].sort()) {
    const head = await lockAuditChainHead(tx, chainId);
    let { lastSeq: seq, lastHash: prevHash } = head;
    const rows = byChain.get(chainId)!.map((input) => {
      const fields = {
        chainId,
        chainSeq: ++seq,
        at: input.at!,
        actor: input.actor,
        action: input.action,
        subject: input.subject,
        // As PostgreSQL hands a uuid back, so the hash verifies and the chain matches the owner.
        ownerId: input.ownerId ? input.ownerId.toLowerCase() : null,
        // Through JSON once, so what is hashed is exactly what jsonb stores and hands back.
        data: JSON.parse(JSON.stringify(input.data ?? {})) as Prisma.InputJsonObject,
        prevHash,
      };
      prevHash = hashAuditEvent(fields);
      return { ...fields, hash: prevHash };
    });
    // The insert trigger moves the head along, row by row.
    await tx.auditEvent.createMany({ data: rows });
  }
}

type ChainHead = { lastSeq: bigint; lastHash: string };

/**
 * Locks the chain's head row until commit and returns it. A chain's first append creates the
 * head at genesis; ON CONFLICT DO NOTHING waits for a concurrent first append of the same
 * chain to commit, after which the second SELECT locks the head that one left.
 */
async function lockAuditChainHead(tx: TransactionClient, chainId: string): Promise<ChainHead> {
  const locked = await selectHeadForUpdate(tx, chainId);
  if (locked) return locked;
  await tx.$executeRaw`
    INSERT INTO "audit_chain_heads" ("chain_id", "last_seq", "last_hash") VALUES (${chainId}, 0, ${GENESIS_HASH})
    ON CONFLICT ("chain_id") DO NOTHING`;
  const created = await selectHeadForUpdate(tx, chainId);
  if (!created) throw new Error(`audit chain head ${chainId} is missing after it was created`);
  return created;
}

async function selectHeadForUpdate(tx: TransactionClient, chainId: string): Promise<ChainHead | undefined> {
  const rows = await tx.$queryRaw<{ last_seq: string; last_hash: string }[]>`
    SELECT "last_seq"::text AS "last_seq", "last_hash" FROM "audit_chain_heads" WHERE "chain_id" = ${chainId} FOR UPDATE`;
  const row = rows[0];
  return row && { lastSeq: BigInt(row.last_seq), lastHash: row.last_hash };
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
