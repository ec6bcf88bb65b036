/**
 * A dependency that is briefly away (the database dropped the connection, restarted or is not
 * reachable; the Temporal frontend is restarting) is not a fault of the request. Such failures
 * answer 503 UNAVAILABLE with Retry-After, so a client retries (with its Idempotency-Key) instead
 * of reading a 500 as "something broke". Whatever the request had started was rolled back with
 * its transaction, or is found again by its idempotency key.
 */
import { AppError } from '@purser/core';

/** SQLSTATE classes and codes that mean "the connection, not the statement": 08 connection exceptions, 57P0x shutdowns, 53300 too many connections. */
const TRANSIENT_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
/** Prisma's codes for an unreachable, timed-out or closed database, or an exhausted pool. */
const TRANSIENT_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/**
 * P2028 is every interactive-transaction error; only this one means "no connection came free in
 * time" (the pool's maxWait). An expired or closed transaction is a slow statement, not an absence.
 */
const PRISMA_NO_TRANSACTION_IN_TIME = /Unable to start a transaction in the given time/;
/** Driver adapter error kinds of the same meaning. */
const TRANSIENT_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Socket errors of a peer that went away. */
const TRANSIENT_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/** node-postgres's own words for a connection that broke under a query (it gives no code). */
const PG_CONNECTION_MESSAGES = /^(Client has encountered a connection error and is not queryable|Connection terminated( unexpectedly)?|Client was closed and is not queryable|timeout exceeded when trying to connect)$/;
/** gRPC status UNAVAILABLE, as @temporalio/client reports an unreachable frontend. */
const GRPC_UNAVAILABLE = 14;

export const RETRY_AFTER_SECONDS = 1;

/**
 * Walks the error and its causes (and a Prisma error's driver adapter error), since a dropped
 * connection surfaces at any depth: services/ledger/database-error.ts reads one level only.
 */
export function isTransientDependencyError(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const fields = current as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof fields.code === 'string' && (TRANSIENT_PRISMA_CODES.has(fields.code) || TRANSIENT_SOCKET_CODES.has(fields.code) || TRANSIENT_SQLSTATE.test(fields.code))) return true;
    if (fields.code === 'P2028' && typeof fields.message === 'string' && PRISMA_NO_TRANSACTION_IN_TIME.test(fields.message)) return true;
    if (typeof fields.originalCode === 'string' && TRANSIENT_SQLSTATE.test(fields.originalCode)) return true;
    if (typeof fields.kind === 'string' && TRANSIENT_ADAPTER_KINDS.has(fields.kind)) return true;
    if (fields.code === GRPC_UNAVAILABLE) return true;
    if (typeof fields.message === 'string' && PG_CONNECTION_MESSAGES.test(fields.message)) return true;
    pending.push(fields.cause, fields.meta?.driverAdapterError);
  }
  return false;
}

/** The answer for a transient failure; the original error stays the cause, for the log. */
export function unavailableError(cause: unknown): AppError {
  return new AppError('UNAVAILABLE', 'A service Purser depends on is briefly unavailable. Send the same request again in a moment, with the same Idempotency-Key, and it is applied once.', { cause });
}
