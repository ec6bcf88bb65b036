/**
 * Runs a money-moving operation in one database transaction, at most once per idempotency
 * key. The key's record is inserted first, inside that same transaction, so the unique
 * index on (principal_type, principal_id, key) decides: a concurrent duplicate blocks on the
 * index until the first commits, then fails and replays the stored response; if the first
 * rolls back (an error), so does its record, and the duplicate runs as if it were first.
 * A failed operation therefore stores nothing: retrying it with the same key runs it again.
 *
 * - same principal + key + endpoint + request hash: the first response, nothing moves again;
 * - same key with another request or endpoint: 409 IDEMPOTENCY_CONFLICT, nothing moves;
 * - no key: the operation simply runs in a transaction.
 */
import { createHash } from 'node:crypto';
import { AppError, canonicalJson } from '@purser/core';
import type { Prisma, Principal, PrismaClient, TransactionClient } from '@purser/db';
import { databaseErrorOf, isUniqueViolation } from '../ledger/database-error';

/** How long a key is remembered; a record past it is replaced by the next request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Money transactions wait on the paying wallet's row lock, so a burst on one wallet queues
 * there; Prisma's defaults (2 s to start, 5 s to finish) would fail such a burst spuriously.
 */
export const MONEY_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

export interface IdempotencyScope {
  principalType: Principal;
  principalId: string;
  /** The operation, independent of the surface that called it, e.g. "wallets.top-up". */
  endpoint: string;
  /** From the Idempotency-Key header or the idempotency_key field; undefined runs unguarded. */
  key: string | undefined;
  /** The parsed request (amounts in atomic units), hashed canonically: 10, "10" and "10.00" agree. */
  request: unknown;
}

export interface Idempotent<T> {
  response: T;
  /** True when the response is the stored one of an earlier request with the same key. */
  replayed: boolean;
}

const MAX_ATTEMPTS = 3;

export async function withIdempotency<T>(
  prisma: PrismaClient,
  scope: IdempotencyScope,
  run: (tx: TransactionClient) => Promise<T>,
): Promise<Idempotent<T>> {
  const key = scope.key;
  const requestHash = hashRequest(scope.request);
  const where = key === undefined ? undefined : { principalType_principalId_key: { principalType: scope.principalType, principalId: scope.principalId, key } };

  for (let attempt = 1; ; attempt += 1) {
    const now = new Date();
    const existing = where ? await prisma.idempotencyRecord.findUnique({ where }) : null;
    if (existing && existing.expiresAt > now) return replay<T>(existing, scope.endpoint, requestHash);

    let ours = false;
    try {
      const response = await prisma.$transaction(async (tx: TransactionClient) => {
        if (key === undefined) return run(tx);
        if (existing) await tx.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
        const record = await tx.idempotencyRecord.create({
          data: {
            principalType: scope.principalType,
            principalId: scope.principalId,
            key,
            endpoint: scope.endpoint,
            requestHash,
            expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
          },
          select: { id: true },
        });
        ours = true;
        const result = await run(tx);
        await tx.idempotencyRecord.update({
          where: { id: record.id },
          data: { responseStatus: 200, responseBody: toJson(result), completedAt: new Date() },
        });
        return result;
      }, MONEY_TRANSACTION_OPTIONS);
      return { response, replayed: false };
    } catch (error) {
      // Each case rolled the whole transaction back, so running again cannot move money twice:
      // our record was refused (another request with this key committed first: replay it),
      // or the database broke a deadlock or serialisation conflict.
      const retry = (key !== undefined && !ours && isUniqueViolation(error)) || isTransientConflict(error);
      if (retry && attempt < MAX_ATTEMPTS) continue;
      if (isTransactionTimeout(error)) {
        throw new AppError('UNAVAILABLE', 'The wallet is busy, please try again', { cause: error });
      }
      throw error;
    }
  }
}

/** Deadlock (40P01) or serialisation failure (40001; Prisma P2034). */
function isTransientConflict(error: unknown): boolean {
  const code = databaseErrorOf(error)?.code;
  return (error as { code?: unknown } | undefined)?.code === 'P2034' || code === '40P01' || code === '40001';
}

/** Prisma P2028: no connection within maxWait, or the transaction outlived its timeout (rolled back). */
function isTransactionTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'P2028';
}

function replay<T>(record: { endpoint: string; requestHash: string; responseBody: unknown }, endpoint: string, requestHash: string): Idempotent<T> {
  if (record.endpoint !== endpoint || record.requestHash !== requestHash) {
    throw new AppError('IDEMPOTENCY_CONFLICT', 'This idempotency key was already used for a different request');
  }
  if (record.responseBody === null) {
    // Not reachable while records are written in the operation's own transaction; kept so a
    // record written another way can never be mistaken for a result.
    throw new AppError('IDEMPOTENCY_CONFLICT', 'A request with this idempotency key is still in progress');
  }
  return { response: record.responseBody as T, replayed: true };
}

/** sha256 over JSON with sorted keys; bigints as decimal strings. */
export function hashRequest(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

function toJson(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonValue;
}
