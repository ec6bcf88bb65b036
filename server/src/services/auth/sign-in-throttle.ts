/**
 * Per-account back-off of password sign-in, on top of the per-address rate limit: an attacker
 * with many addresses (or forged X-Forwarded-For values) escapes that one, not this one.
 *
 * Every attempt for an email is counted before its password is checked, in one atomic upsert
 * that also refuses it while the email is locked, so concurrent guesses cannot slip past the
 * lock and a locked email costs no argon2 time. From the `maxFailures`th attempt without a
 * success, each counted attempt locks the email for `baseLockMs`, doubling per attempt up to
 * `maxLockMs`; a success deletes the count. Rows live in the database, so every replica sees
 * the same count, and are keyed by an HMAC of the normalised email: an email without an
 * account is throttled exactly like one with, and no email is stored in clear.
 */
import { createHmac } from 'node:crypto';
import { AppError } from '@purser/core';
import { Prisma, type PrismaClient } from '@purser/db';
import { deriveKey } from '../../secrets';

export interface SignInThrottleSettings {
  /** Attempts in a row without a success before the email is locked. */
  maxFailures: number;
  /** The first lock; each further counted attempt doubles it. */
  baseLockMs: number;
  maxLockMs: number;
  /** A count with no attempt for this long starts again from zero. */
  forgetAfterMs: number;
  /** The clock the locks are measured by (tests move it). */
  now: () => Date;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleSettings = {
  maxFailures: 5,
  baseLockMs: 1_000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
  now: () => new Date(),
};

/** Enough doublings to pass any sensible maxLockMs, few enough that 2^n stays finite. */
const MAX_DOUBLINGS = 40;

/** The throttle row's key: HMAC-SHA256 (hex) of the normalised email. */
export function signInThrottleKey(masterKey: Buffer, normalizedEmail: string): string {
  return createHmac('sha256', deriveKey(masterKey, 'sign-in-throttle')).update(normalizedEmail).digest('hex');
}

/**
 * Counts a sign-in attempt for the email, or throws 429 RATE_LIMITED (with `details.retryAfterSeconds`)
 * while it is locked; a refused attempt is not counted.
 */
export async function claimSignInAttempt(prisma: PrismaClient, emailKey: string, settings: SignInThrottleSettings): Promise<void> {
  const now = settings.now();
  // Times travel as ISO strings with their zone, whatever the session's TimeZone says.
  const at = now.toISOString();
  const forgetBefore = new Date(now.getTime() - settings.forgetAfterMs).toISOString();
  const firstLock = settings.maxFailures <= 1 ? new Date(now.getTime() + settings.baseLockMs).toISOString() : null;
  const failures = Prisma.sql`(CASE WHEN t."updated_at" <= ${forgetBefore}::timestamptz THEN 1 ELSE t."failures" + 1 END)`;
  const lockMs = Prisma.sql`LEAST(${settings.baseLockMs}::double precision * power(2, LEAST(${failures} - ${settings.maxFailures}::int, ${MAX_DOUBLINGS})), ${settings.maxLockMs}::double precision)`;
  // ON CONFLICT ... WHERE sees the newest committed row (and waits for a concurrent writer),
  // so of two racing attempts the second is judged by the first one's count and lock. A
  // locked row is left as it is and the statement returns nothing.
  const counted = await prisma.$queryRaw<{ failures: number }[]>`
    INSERT INTO "sign_in_throttles" AS t ("email_hash", "failures", "locked_until", "updated_at")
    VALUES (${emailKey}, 1, ${firstLock}::timestamptz, ${at}::timestamptz)
    ON CONFLICT ("email_hash") DO UPDATE SET
      "failures" = ${failures},
      "locked_until" = CASE
        WHEN ${failures} >= ${settings.maxFailures}::int THEN ${at}::timestamptz + ${lockMs} * interval '1 millisecond'
        ELSE NULL
      END,
      "updated_at" = ${at}::timestamptz
    WHERE t."locked_until" IS NULL OR t."locked_until" <= ${at}::timestamptz
    RETURNING "failures"`;
  if (counted.length > 0) return;

  const row = await prisma.signInThrottle.findUnique({ where: { emailHash: emailKey }, select: { lockedUntil: true } });
  const retryAfterSeconds = Math.max(1, Math.ceil(((row?.lockedUntil?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  throw new AppError('RATE_LIMITED', `Too many failed sign-in attempts for this email. Please try again in ${duration(retryAfterSeconds)}.`, {
    details: { retryAfterSeconds },
  });
}

/** A successful sign-in: the email's count starts again from zero. */
export async function clearSignInAttempts(prisma: PrismaClient, emailKey: string): Promise<void> {
  await prisma.signInThrottle.deleteMany({ where: { emailHash: emailKey } });
}

function duration(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
