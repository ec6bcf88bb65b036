/**
 * The PostgreSQL error behind a Prisma error (SQLSTATE and message), as both driver adapters
 * report it: PrismaClientKnownRequestError.meta.driverAdapterError.cause, or the
 * DriverAdapterError itself from raw queries.
 */
export interface DatabaseError {
  code: string;
  message: string;
}

export function databaseErrorOf(error: unknown): DatabaseError | undefined {
  const candidates = [
    (error as { meta?: { driverAdapterError?: { cause?: unknown } } } | undefined)?.meta?.driverAdapterError?.cause,
    (error as { cause?: unknown } | undefined)?.cause,
  ];
  for (const candidate of candidates) {
    const c = candidate as { originalCode?: unknown; code?: unknown; originalMessage?: unknown; message?: unknown } | undefined;
    const code = c?.originalCode ?? c?.code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, message: String(c?.originalMessage ?? c?.message ?? '') };
    }
  }
  return undefined;
}

/** A unique index refused the row (SQLSTATE 23505, Prisma P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'P2002' || databaseErrorOf(error)?.code === '23505';
}
