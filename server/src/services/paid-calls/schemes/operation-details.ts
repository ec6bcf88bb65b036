/**
 * The one way paid-call state is written into `rail_operations.details`: a merge in one statement,
 * so what another writer added meanwhile stays (the workflow's outcome, the seller's answer kept
 * by the agent's request). Each scheme's state (exact/, upto/, batch-settlement/) and the front's
 * (front/kept-answers.ts) has its own zod schema; they call this with a patch of their own type.
 */
import { Prisma, type TransactionClient } from '@purser/db';
import type { RailOperationState } from '../../rail-operations/rail';

export interface DetailsTarget {
  /** The operation, by its id or by its payment intent's. */
  id?: string;
  intentId?: string;
  /** Only while the operation is in this state. */
  status?: RailOperationState;
}

/**
 * Merges `patch` into the target's details (keys in `keepFirst` keep a value already stored;
 * `whileStatus` is merged too, only while the operation is in its state) and
 * answers the details as stored afterwards, or only the `returning` keys of them (a kept seller
 * answer may weigh 256 kB: it is not read back for a transaction hash); null when no operation
 * matched.
 */
export async function mergeDetails(
  db: TransactionClient,
  target: DetailsTarget,
  patch: Record<string, unknown>,
  options: { keepFirst?: readonly string[]; returning?: readonly string[]; whileStatus?: { status: RailOperationState; patch: Record<string, unknown> } } = {},
): Promise<Record<string, unknown> | null> {
  const { keepFirst = [], returning, whileStatus } = options;
  const where = [
    target.id !== undefined ? Prisma.sql`id = ${target.id}::uuid` : null,
    target.intentId !== undefined ? Prisma.sql`payment_intent_id = ${target.intentId}::uuid` : null,
    target.status !== undefined ? Prisma.sql`status::text = ${target.status}` : null,
  ].filter((condition) => condition !== null);
  if (target.id === undefined && target.intentId === undefined) throw new Error('mergeDetails needs an operation or an intent');
  const kept = Prisma.sql`jsonb_strip_nulls(${pick(keepFirst)})`;
  const conditional = whileStatus
    ? Prisma.sql`CASE WHEN status::text = ${whileStatus.status} THEN ${JSON.stringify(whileStatus.patch)}::jsonb ELSE '{}'::jsonb END`
    : Prisma.sql`'{}'::jsonb`;
  const [row] = await db.$queryRaw<Array<{ details: Record<string, unknown> }>>`
    UPDATE rail_operations SET details = details || ${JSON.stringify(patch)}::jsonb || ${conditional} || ${kept}, updated_at = now()
     WHERE ${Prisma.join(where, ' AND ')}
     RETURNING ${returning ? pick(returning) : Prisma.sql`details`} AS details`;
  return row?.details ?? null;
}

/** The stored details' values of `keys`, as one JSON object (`{}` for none). */
function pick(keys: readonly string[]): Prisma.Sql {
  if (keys.length === 0) return Prisma.sql`'{}'::jsonb`;
  return Prisma.sql`jsonb_build_object(${Prisma.join(keys.flatMap((key) => [Prisma.sql`${key}::text`, Prisma.sql`details->${key}::text`]))})`;
}
