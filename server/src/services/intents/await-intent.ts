/**
 * Waits, for a bounded time, until an intent reaches a state the caller can answer with: the
 * agent API answers a payment when it settles, fails or waits for the owner. The workflow may
 * run in another process, so the database is the place to look.
 *
 * With the event bus, the intent is read again when the database announces a change to it
 * (every intent update notifies 'purser_events' on commit) or asks subscribers to re-read
 * after a reconnection, so the answer follows the commit without polling; a read every
 * 250 ms remains as a backstop. A rail operation's row announces its intent too, so a
 * predicate may look at it. Without the bus, the intent is read every 20 ms for the first
 * seconds, when a payment usually completes, then every 200 ms, so a payment waiting for the
 * owner does not load the database.
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
  const started = Date.now();
  const deadline = started + timeoutMs;
  const announced = options.events ? watchIntent(options.events, ownerId, intentId) : undefined;
  try {
    for (;;) {
      announced?.markRead();
      const intent = await getIntent(prisma, ownerId, intentId);
      if (await until(intent)) return { intent, reached: true };
      const now = Date.now();
      if (now >= deadline) return { intent, reached: false };
      if (announced) await announced.change(Math.min(BACKSTOP_INTERVAL_MS, deadline - now));
      else await sleep(Math.min(now - started < FAST_PHASE_MS ? FAST_INTERVAL_MS : SLOW_INTERVAL_MS, deadline - now));
    }
  } finally {
    announced?.stop();
  }
}

/** The database's announcements about one intent, as something to wait for between reads. */
function watchIntent(events: EventBus, ownerId: string, intentId: string) {
  const stop = new AbortController();
  // Set when an announcement concerns this intent (or everything must be re-read) after the
  // last read began: that read may have missed the change, so another one follows at once.
  let stale = false;
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
  return {
    markRead() {
      stale = false;
    },
    /** Resolves on an announcement since the last read, or after `backstopMs`. */
    async change(backstopMs: number) {
      if (stale) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backstopMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    },
    /** Ends the subscription; not awaited, so a listener still connecting never holds the answer. */
    stop() {
      stop.abort();
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
