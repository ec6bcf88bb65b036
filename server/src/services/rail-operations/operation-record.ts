/**
 * The RailOperation record: each rail performs its operation once per payment intent and records
 * it here, so a retried activity or a restarted worker that calls execute again gets the first
 * operation back instead of paying twice; a pending one is resolved once, by whoever sees its end.
 */
import { AppError, railFromDb, railToDb, type RailName } from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import { databaseErrorOf, isUniqueViolation } from '../ledger/database-error';
import type { RailDetails, RailOperationState, RailResult } from './rail';

/** An operation as it is stored, with the intent fields a simulator decides its outcome from. */
export interface StoredOperation {
  id: string;
  rail: RailName;
  reference: string;
  status: RailOperationState;
  sandbox: boolean;
  declineCode: string | null;
  declineMessage: string | null;
  settleAfter: Date | null;
  settledAt: Date | null;
  details: RailDetails;
  createdAt: Date;
  intent: { amount: bigint; metadata: unknown };
}

export interface NewOperation {
  reference: string;
  status: RailOperationState;
  declineCode?: string | null;
  declineMessage?: string | null;
  settleAfter?: Date | null;
  settledAt?: Date | null;
  details: RailDetails;
}

const operationSelect = {
  id: true,
  rail: true,
  reference: true,
  status: true,
  sandbox: true,
  declineCode: true,
  declineMessage: true,
  settleAfter: true,
  settledAt: true,
  details: true,
  createdAt: true,
  paymentIntent: { select: { amount: true, metadata: true } },
} as const;

type OperationRow = NonNullable<Awaited<ReturnType<typeof findOperationRow>>>;

function findOperationRow(prisma: PrismaClient, where: { paymentIntentId: string } | { id: string }) {
  return prisma.railOperation.findUnique({ where, select: operationSelect });
}

function toStored(row: OperationRow): StoredOperation {
  const { paymentIntent, rail, details, ...rest } = row;
  return { ...rest, rail: railFromDb(rail), details: details as RailDetails, intent: paymentIntent };
}

async function findOperation(prisma: PrismaClient, intentId: string): Promise<StoredOperation | null> {
  const row = await findOperationRow(prisma, { paymentIntentId: intentId });
  return row && toStored(row);
}

function assertSameRail(operation: StoredOperation, intentId: string, rail: RailName): StoredOperation {
  if (operation.rail !== rail) {
    throw new AppError('CONFLICT', `Payment intent ${intentId} was sent to the ${operation.rail} rail, not the ${rail} rail`);
  }
  return operation;
}

/** The intent's operation on `rail`; NOT_FOUND when execute has not recorded one yet. */
export async function readOperation(prisma: PrismaClient, intentId: string, rail: RailName): Promise<StoredOperation> {
  const operation = await findOperation(prisma, intentId);
  if (!operation) throw new AppError('NOT_FOUND', `Payment intent ${intentId} has no operation on the ${rail} rail yet`);
  return assertSameRail(operation, intentId, rail);
}

/**
 * The intent's operation on `rail`, performed and recorded on the first call only. `perform`
 * runs when no operation exists; if a concurrent call records one first, the unique index on
 * the intent refuses the second row and the first is returned.
 */
export async function recordOperationOnce(
  prisma: PrismaClient,
  rail: { name: RailName; sandbox: boolean },
  intentId: string,
  perform: () => Promise<NewOperation>,
  options: {
    /**
     * The last word on the operation, in the transaction that records it: answers the operation
     * to record (the one performed, or one that replaces it, e.g. a refusal once the agent was
     * suspended while it signed: what was signed is then never stored, so never sent).
     */
    recordIn?: (tx: TransactionClient, operation: NewOperation) => Promise<NewOperation>;
  } = {},
): Promise<{ operation: StoredOperation; created: boolean }> {
  const existing = await findOperation(prisma, intentId);
  if (existing) return { operation: assertSameRail(existing, intentId, rail.name), created: false };

  const operation = await perform();
  const { recordIn } = options;
  try {
    if (recordIn) await prisma.$transaction(async (tx: TransactionClient) => insertOperation(tx, rail, intentId, await recordIn(tx, operation)));
    else await insertOperation(prisma, rail, intentId, operation);
  } catch (error) {
    if (databaseErrorOf(error)?.code === '23503' || (error as { code?: unknown }).code === 'P2003') {
      throw new AppError('NOT_FOUND', 'Payment intent not found', { cause: error });
    }
    if (!isUniqueViolation(error)) throw error;
    const winner = await findOperation(prisma, intentId);
    if (!winner) throw error;
    return { operation: assertSameRail(winner, intentId, rail.name), created: false };
  }
  return { operation: await readOperation(prisma, intentId, rail.name), created: true };
}

/** Writes an intent's operation, in a transaction of the caller's when `prisma` is one. */
export async function insertOperation(prisma: TransactionClient, rail: { name: RailName; sandbox: boolean }, intentId: string, operation: NewOperation): Promise<void> {
  await prisma.railOperation.create({
    data: {
      paymentIntentId: intentId,
      rail: railToDb(rail.name),
      reference: operation.reference,
      status: operation.status,
      sandbox: rail.sandbox,
      declineCode: operation.declineCode ?? null,
      declineMessage: operation.declineMessage ?? null,
      settleAfter: operation.settleAfter ?? null,
      settledAt: operation.settledAt ?? null,
      details: operation.details,
    },
    select: { id: true },
  });
}

/**
 * Moves a pending operation to its outcome. Conditional on it still being pending, so
 * concurrent status calls write once; every caller answers the stored outcome (the writer from
 * its own statement, the others by reading it).
 */
export async function resolveOperation(
  prisma: PrismaClient,
  operation: StoredOperation,
  outcome: { status: 'settled'; settledAt: Date } | { status: 'declined'; declineCode: string; declineMessage: string },
  /** Details learnt on the way (a transaction hash), merged into the stored ones. */
  details: RailDetails = {},
): Promise<StoredOperation> {
  // The details learnt are merged into the stored ones in the statement, not into this copy:
  // what another writer added meanwhile (the seller's answer, kept by the agent's request) stays.
  // The statement answers what it wrote; the rest of the operation does not change once recorded.
  const learnt = JSON.stringify(details);
  const [written] =
    outcome.status === 'settled'
      ? await prisma.$queryRaw<ResolvedColumns[]>`
          UPDATE rail_operations SET status = 'settled', settled_at = ${outcome.settledAt}, details = details || ${learnt}::jsonb, updated_at = now()
           WHERE id = ${operation.id}::uuid AND status = 'pending'
          RETURNING status::text, decline_code, decline_message, settled_at, details`
      : await prisma.$queryRaw<ResolvedColumns[]>`
          UPDATE rail_operations SET status = 'declined', decline_code = ${outcome.declineCode}, decline_message = ${outcome.declineMessage},
                 details = details || ${learnt}::jsonb, updated_at = now()
           WHERE id = ${operation.id}::uuid AND status = 'pending'
          RETURNING status::text, decline_code, decline_message, settled_at, details`;
  if (written) {
    return {
      ...operation,
      status: written.status,
      declineCode: written.decline_code,
      declineMessage: written.decline_message,
      settledAt: written.settled_at,
      details: written.details,
    };
  }
  // Resolved by another caller meanwhile: its outcome is the one stored.
  const row = await findOperationRow(prisma, { id: operation.id });
  if (!row) throw new Error(`Rail operation ${operation.id} disappeared`);
  return toStored(row);
}

/** What resolveOperation's UPDATE answers: the columns an outcome writes. */
interface ResolvedColumns {
  status: RailOperationState;
  decline_code: string | null;
  decline_message: string | null;
  settled_at: Date | null;
  details: RailDetails;
}

export function toRailResult(operation: StoredOperation): RailResult {
  return {
    rail: operation.rail,
    reference: operation.reference,
    status: operation.status,
    declineCode: operation.declineCode,
    declineMessage: operation.declineMessage,
    settleAfter: operation.settleAfter,
    settledAt: operation.settledAt,
    sandbox: operation.sandbox,
    details: operation.details,
  };
}
