/**
 * Counts the statements the product sends to its database: each one is a round trip, and a
 * round trip is what a hot path is made of (docs/performance.md). Both adapters (adapters.ts)
 * report every statement here, BEGIN and COMMIT included, as Prisma hands it to the driver.
 *
 * - `statementsSent()`: every statement this process has sent since it started, for the bench's
 *   statements per paid call.
 * - `countStatements(fn)`: the statements sent by `fn` and the work it starts (an async
 *   context), for tests that pin how many round trips a path takes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

let sent = 0;
const counting = new AsyncLocalStorage<string[]>();

/** Called by the adapters with each statement's SQL, just before it is sent. */
export function noteStatement(sql: string): void {
  sent++;
  counting.getStore()?.push(sql);
}

/** Every statement this process has sent, on every client. */
export function statementsSent(): number {
  return sent;
}

/** Runs `fn`, collecting the SQL of every statement it sends (in order). */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  // Awaited inside the context: a Prisma query (and Fastify's inject) is a lazy thenable that
  // starts only when awaited, and it must start in here to be counted.
  const result = await counting.run(statements, async () => await fn());
  return { result, statements };
}
