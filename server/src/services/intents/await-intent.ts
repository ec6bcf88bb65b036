/**
 * Waits, for a bounded time, until an intent reaches a state the caller can answer with: the
 * agent API answers a payment when it settles, fails or waits for the owner. The workflow may
 * run in another process, so the database is the place to look. It is read every 20 ms for the
 * first seconds, when a payment usually completes, so the answer follows the commit closely;
 * after that every 200 ms, so a payment waiting for the owner does not load the database.
 */
import type { IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { getIntent } from './get-intent';

const FAST_INTERVAL_MS = 20;
const FAST_PHASE_MS = 3_000;
const SLOW_INTERVAL_MS = 200;

/** The intent once `until` holds for it, or as it stands when `timeoutMs` has passed. */
export async function awaitIntent(
  prisma: PrismaClient,
  ownerId: string,
  intentId: string,
  until: (intent: IntentView) => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<{ intent: IntentView; reached: boolean }> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  for (;;) {
    const intent = await getIntent(prisma, ownerId, intentId);
    if (await until(intent)) return { intent, reached: true };
    const now = Date.now();
    if (now >= deadline) return { intent, reached: false };
    const interval = now - started < FAST_PHASE_MS ? FAST_INTERVAL_MS : SLOW_INTERVAL_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, deadline - now)));
  }
}
