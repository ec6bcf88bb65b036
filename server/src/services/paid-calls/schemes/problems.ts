/**
 * Refusals of what a seller asked or a client signed: every difference is listed, then one
 * X402_REFUSED names them all, so a log line or an agent sees the whole story at once.
 */
import { AppError } from '@purser/core';

export type Expect = (ok: boolean, problem: string) => void;

export function refused(message: string): AppError {
  return new AppError('X402_REFUSED', message);
}

/** A list of problems: `expect` adds one when its condition fails; `count` says how many so far. */
export function problemList(): { expect: Expect; problems: string[] } {
  const problems: string[] = [];
  return { expect: (ok, problem) => void (ok || problems.push(problem)), problems };
}

/**
 * A checker that reports to `expect` and counts its own failures, so a check can skip what
 * depends on the fields it found wrong (a signature over terms already known to differ).
 */
export function countingExpect(expect: Expect): { check: Expect; failed: () => number } {
  let failures = 0;
  return { check: (ok, problem) => void (ok || (failures++, expect(ok, problem))), failed: () => failures };
}
