/**
 * Payment rails: one interface (quote, execute, status) over the internal ledger, x402 on
 * Base, Solana and the card and bank simulators (docs/rails.md).
 *
 * A rail never posts ledger entries: the payment workflow reserves the funds before execute
 * and captures or releases them after. A rail performs the rail-side operation and records
 * it once per payment intent as a RailOperation, so a retried activity or a restarted worker
 * that calls execute again gets the first operation back instead of paying twice.
 */
import { AppError, railFromDb, railToDb, type Currency, type RailName } from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import { databaseErrorOf, isUniqueViolation } from '../ledger/database-error';

/** What a rail needs to know about a payment: plain data, built from the intent. */
export interface RailPayment {
  intentId: string;
  /** Atomic units (6 decimals), > 0. */
  amount: bigint;
  currency: Currency;
  toAddress: string | null;
  merchant: string | null;
  geography: string | null;
  metadata: Record<string, unknown>;
  payer: { agentId: string; walletAddress: string; evmAddress: string | null };
}

export interface RailQuote {
  rail: RailName;
  available: boolean;
  /** Why the rail cannot carry this payment; set when available is false. */
  reason?: string;
  /**
   * What the rail's network would charge for this payment, in atomic units of its currency.
   * Informational: sandbox rails charge nothing and the workflow moves only the amount.
   */
  fee: bigint;
  estimatedSettlementMs: number;
  sandbox: boolean;
}

export type RailOperationState = 'pending' | 'settled' | 'declined';

/** JSON-safe details of an operation (network, authorisation code, signature, ...). */
export type RailDetails = Record<string, string | number | boolean | null>;

export interface RailResult {
  rail: RailName;
  /** The rail's own reference: authorisation id, transfer id, transaction signature. */
  reference: string;
  status: RailOperationState;
  declineCode: string | null;
  declineMessage: string | null;
  /** Pending operations: when the (simulated) network settles or returns them. */
  settleAfter: Date | null;
  settledAt: Date | null;
  sandbox: boolean;
  details: RailDetails;
}

export interface Rail {
  name: RailName;
  /** Simulators and test chains: labelled sandbox wherever they are shown. */
  sandbox: boolean;
  currencies: readonly Currency[];
  quote(payment: RailPayment): Promise<RailQuote>;
  /**
   * Performs the payment on the rail, once per intent: a second call returns the first
   * operation (advanced, when its settlement time has passed). A decline is a result with
   * status 'declined', not an error; RAIL_UNAVAILABLE is thrown when the rail cannot try.
   */
  execute(payment: RailPayment): Promise<RailResult>;
  /** The operation of the intent, advanced to settled or declined once its time has come. */
  status(intentId: string): Promise<RailResult>;
  /**
   * Ends a pending operation early where the rail can (an x402 authorisation is cancelled on
   * chain), then answers its state. Rails without it are followed with status until final.
   */
  abandon?(intentId: string): Promise<RailResult>;
}

export type Clock = () => Date;

/**
 * The workflow's non-retryable failure for a declined result: PAYMENT_DECLINED with the
 * rail's message, and the rail's code in `details`.
 */
export function declinedError(result: RailResult): AppError {
  return new AppError('PAYMENT_DECLINED', result.declineMessage ?? `The ${result.rail} rail declined the payment`, {
    details: { rail: result.rail, reference: result.reference, declineCode: result.declineCode },
  });
}

/** A sandbox simulator's refusal (a card decline, a bank return), chosen by test amounts' cents. */
export interface SandboxRefusal {
  /** Payments whose amount ends in these cents are refused with this code. */
  cents: number;
  code: string;
  message: string;
}

/**
 * The refusal a simulator answers for a payment: the one `metadata.sandbox_outcome` names, else
 * the one its amount's cents pick, else null (it goes through). Decided from the payment alone,
 * so a restarted worker reaches the same answer.
 */
export function sandboxRefusalFor<T extends SandboxRefusal>(
  payment: { amount: bigint; metadata: unknown },
  refusals: readonly T[],
  outcomes: readonly string[],
  rail: RailName,
): T | null {
  const { outcome } = sandboxOutcomeOf(payment.metadata, outcomes, rail);
  if (outcome) return refusals.find((refusal) => refusal.code === outcome) ?? null;
  return refusals.find((refusal) => refusal.cents === centsOf(payment.amount)) ?? null;
}

/** The amount's cents (0-99): the sandbox simulators' test amounts end in particular cents. */
export function centsOf(amount: bigint): number {
  return Number((amount / 10_000n) % 100n);
}

/**
 * `metadata.sandbox_outcome`, the simulators' explicit switch: undefined when absent, an
 * error message when present but not one of `allowed`.
 */
export function sandboxOutcomeOf<T extends string>(
  metadata: unknown,
  allowed: readonly T[],
  rail: RailName,
): { outcome?: T; error?: string } {
  const value = (metadata as Record<string, unknown> | null | undefined)?.sandbox_outcome;
  if (value === undefined || value === null) return {};
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return { outcome: value as T };
  return { error: `metadata.sandbox_outcome ${JSON.stringify(value)} is not a ${rail} sandbox outcome; use one of ${allowed.join(', ')}` };
}

// ---------------------------------------------------------------- the RailOperation record

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
): Promise<{ operation: StoredOperation; created: boolean }> {
  const existing = await findOperation(prisma, intentId);
  if (existing) return { operation: assertSameRail(existing, intentId, rail.name), created: false };

  const operation = await perform();
  try {
    await insertOperation(prisma, rail, intentId, operation);
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
 * concurrent status calls write once; every caller then reads the stored outcome.
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
  const learnt = JSON.stringify(details);
  if (outcome.status === 'settled') {
    await prisma.$executeRaw`
      UPDATE rail_operations SET status = 'settled', settled_at = ${outcome.settledAt}, details = details || ${learnt}::jsonb, updated_at = now()
       WHERE id = ${operation.id}::uuid AND status = 'pending'`;
  } else {
    await prisma.$executeRaw`
      UPDATE rail_operations SET status = 'declined', decline_code = ${outcome.declineCode}, decline_message = ${outcome.declineMessage},
             details = details || ${learnt}::jsonb, updated_at = now()
       WHERE id = ${operation.id}::uuid AND status = 'pending'`;
  }
  const row = await findOperationRow(prisma, { id: operation.id });
  if (!row) throw new Error(`Rail operation ${operation.id} disappeared`);
  return toStored(row);
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
