/**
 * Waits, for a bounded time, until an intent reaches a state the caller can answer with: the
 * agent API answers a payment when it settles, fails or waits for the owner. The workflow may
 * run in another process, so the database is the place to look.
 *
 * With the event bus, the intent is read again when the database announces a change to it
 * (every intent update notifies 'purser_events' on commit) or asks subscribers to re-read
 * after a reconnection, so the answer follows the commit without polling; a read every
 * 250 ms remains as a backstop. Without it (and for predicates that look beyond the intent
 * row), it is read every 20 ms for the first seconds, when a payment usually completes, then
 * every 200 ms, so a payment waiting for the owner does not load the database.
 */
import type { IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import type { EventBus } from '../realtime/event-bus';
import { getIntent } from './get-intent';

const FAST_INTERVAL_MS = 20;
const FAST_PHASE_MS = 3_000;
const SLOW_INTERVAL_MS = 200;
const BACKSTOP_INTERVAL_MS = 250;

export interface AwaitIntentOptions {
  /** Wake on the database's announcements instead of polling (see the file's comment). */
  events?: EventBus;
}

/** The intent once `until` holds for it, or as it stands when `timeoutMs` has passed. */
export async function awaitIntent(
  prisma: PrismaClient,
  ownerId: string,
  intentId: string,
  until: (intent: IntentView) => boolean | Promise<boolean>,
  timeoutMs: number,
  options: AwaitIntentOptions = {},
): Promise<{ intent: IntentView; reached: boolean }> {
  if (options.events) return awaitAnnounced(options.events, prisma, ownerId, intentId, until, timeoutMs);
  const started = Date.now();
  const deadline = started + timeoutMs;
  for (;;) {
    const intent = await getIntent(prisma, ownerId, intentId);
    if (await until(intent)) return { intent, reached: true };
    const now = Date.now();
    if (now >= deadline) return { intent, reached: false };
    const interval = now - started < FAST_PHASE_MS ? FAST_INTERVAL_MS : SLOW_INTERVAL_MS;
    await sleep(Math.min(interval, deadline - now));
  }
}

async function awaitAnnounced(
  events: EventBus,
  prisma: PrismaClient,
  ownerId: string,
  intentId: string,
  until: (intent: IntentView) => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<{ intent: IntentView; reached: boolean }> {
  const deadline = Date.now() + timeoutMs;
  const stop = new AbortController();
  // Set when an announcement concerns this intent (or everything must be re-read) while a
  // read is under way: that read may have missed the change, so another one follows.
  let stale: boolean;
  let wake: (() => void) | undefined;
  const listening = (async () => {
    for await (const message of events.subscribe({ ownerId, topics: ['intents'], signal: stop.signal })) {
      if (message.type === 'sync' || message.event.intentId === intentId) {
        stale = true;
        wake?.();
      }
    }
  })();
  // The subscription fails only when the database cannot listen: the backstop reads go on.
  listening.catch(() => undefined);
  try {
    for (;;) {
      stale = false;
      const intent = await getIntent(prisma, ownerId, intentId);
      if (await until(intent)) return { intent, reached: true };
      const left = deadline - Date.now();
      if (left <= 0) return { intent, reached: false };
      if (!stale) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(BACKSTOP_INTERVAL_MS, left));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  } finally {
    // Ends the subscription; not awaited, so a listener still connecting never holds the answer.
    stop.abort();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
