/**
 * Waits, for a bounded time, until an intent reaches a state the caller can answer with: the
 * agent API answers a payment when it settles, fails or waits for the owner. The workflow may
 * run in another process, so the database is the place to look; it is read with a short,
 * growing interval (10 ms doubling to 200 ms), which keeps a settled payment's answer within a
 * few milliseconds of the commit without hammering the database while a payment waits.
 */
import type { IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { getIntent } from './get-intent';

const FIRST_INTERVAL_MS = 10;
const MAX_INTERVAL_MS = 200;

/** The intent once `until` holds for it, or as it stands when `timeoutMs` has passed. */
export async function awaitIntent(
  prisma: PrismaClient,
  ownerId: string,
  intentId: string,
  until: (intent: IntentView) => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<{ intent: IntentView; reached: boolean }> {
  const deadline = Date.now() + timeoutMs;
  let interval = FIRST_INTERVAL_MS;
  for (;;) {
    const intent = await getIntent(prisma, ownerId, intentId);
    if (await until(intent)) return { intent, reached: true };
    const left = deadline - Date.now();
    if (left <= 0) return { intent, reached: false };
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
    interval = Math.min(interval * 2, MAX_INTERVAL_MS);
  }
}
