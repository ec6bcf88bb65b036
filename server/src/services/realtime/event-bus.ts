/**
 * Live updates for the dashboard. The database announces committed changes on the channel
 * 'purser_events' (triggers of the realtime_notify migration; payloads hold an owner and ids,
 * never amounts). Each process listens once and fans every announcement out in memory to the
 * subscriptions of the owner it concerns, so an owner never sees another owner's events.
 * PostgreSQL carries announcements across processes (every replica hears every commit);
 * PGlite delivers them in-process.
 *
 * A subscription's first message is 'sync': the subscription is live, so the subscriber reads
 * the current state and every later change is announced. 'sync' comes again whenever events
 * may have been missed: the listening connection dropped and came back, or the subscriber fell
 * too far behind. Events are hints to re-read, never state.
 */
import { z } from 'zod';
import type { Database } from '@purser/db';
import type { Logger } from '../../logger';

export const EVENTS_CHANNEL = 'purser_events';

/** Queued events per subscription before they collapse into one 'sync'. */
const DEFAULT_MAX_QUEUE = 256;

const uuid = z.uuid();

/** The trigger payloads (snake_case, as the SQL writes them) and the events they become. */
const payloadSchema = z.discriminatedUnion('topic', [
  z
    .object({ topic: z.literal('wallet'), user_id: uuid, wallet_id: uuid })
    .transform((p) => ({ topic: p.topic, ownerId: p.user_id, walletId: p.wallet_id })),
  z
    .object({ topic: z.literal('agents'), owner_id: uuid, agent_id: uuid, op: z.enum(['INSERT', 'UPDATE', 'DELETE']) })
    .transform((p) => ({ topic: p.topic, ownerId: p.owner_id, agentId: p.agent_id, op: p.op })),
  z
    .object({ topic: z.literal('transactions'), user_id: uuid, wallet_id: uuid, id: uuid })
    .transform((p) => ({ topic: p.topic, ownerId: p.user_id, walletId: p.wallet_id, transactionId: p.id })),
  z
    .object({ topic: z.literal('agent_transactions'), owner_id: uuid, agent_id: uuid, id: uuid })
    .transform((p) => ({ topic: p.topic, ownerId: p.owner_id, agentId: p.agent_id, transactionId: p.id })),
  z
    .object({ topic: z.literal('intents'), owner_id: uuid, intent_id: uuid, status: z.string() })
    .transform((p) => ({ topic: p.topic, ownerId: p.owner_id, intentId: p.intent_id, status: p.status })),
  z
    .object({ topic: z.literal('budget_alerts'), owner_id: uuid, agent_id: uuid, id: uuid })
    .transform((p) => ({ topic: p.topic, ownerId: p.owner_id, agentId: p.agent_id, alertId: p.id })),
  // Sent by the payment-session services inside their transaction (session-events.ts), so heard on commit.
  z
    .object({ topic: z.literal('payment_sessions'), owner_id: uuid, agent_id: uuid, session_id: uuid })
    .transform((p) => ({ topic: p.topic, ownerId: p.owner_id, agentId: p.agent_id, sessionId: p.session_id })),
]);

export type RealtimeEvent = z.output<typeof payloadSchema>;
export type RealtimeTopic = RealtimeEvent['topic'];
export type RealtimeEventOf<T extends RealtimeTopic> = Extract<RealtimeEvent, { topic: T }>;

export type BusMessage<T extends RealtimeTopic> = { type: 'sync' } | { type: 'event'; event: RealtimeEventOf<T> };

export interface SubscribeOptions<T extends RealtimeTopic> {
  /** Only this owner's events are delivered. */
  ownerId: string;
  topics: readonly T[];
  /** Ends the subscription (the client went away). */
  signal?: AbortSignal;
}

export interface EventBus {
  /**
   * The owner's events on the given topics, starting with 'sync'. Rejects on first
   * iteration when the database cannot listen; ends when the signal aborts or the bus closes.
   */
  subscribe<T extends RealtimeTopic>(options: SubscribeOptions<T>): AsyncGenerator<BusMessage<T>, void, undefined>;
  /** Subscriptions currently open in this process. */
  subscriptionCount(): number;
  /** Ends every subscription and stops listening. */
  close(): Promise<void>;
}

export interface EventBusDeps {
  db: Pick<Database, 'listen'>;
  logger: Logger;
}

type Subscriber = {
  topics: ReadonlySet<RealtimeTopic>;
  queue: BusMessage<RealtimeTopic>[];
  ended: boolean;
  wake: (() => void) | undefined;
};

export function createEventBus(deps: EventBusDeps, options: { maxQueue?: number } = {}): EventBus {
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  const subscribers = new Map<string, Set<Subscriber>>();
  let listening: Promise<() => Promise<void>> | undefined;
  let closed = false;

  const push = (subscriber: Subscriber, message: BusMessage<RealtimeTopic>) => {
    if (message.type === 'sync' || subscriber.queue.length >= maxQueue) {
      // A sync makes everything queued before it redundant.
      subscriber.queue = [{ type: 'sync' }];
    } else {
      subscriber.queue.push(message);
    }
    subscriber.wake?.();
  };

  const forEachSubscriber = (fn: (subscriber: Subscriber) => void) => {
    for (const owned of subscribers.values()) for (const subscriber of owned) fn(subscriber);
  };

  const onPayload = (payload: string) => {
    let event: RealtimeEvent;
    try {
      event = payloadSchema.parse(JSON.parse(payload));
    } catch (error) {
      deps.logger.warn({ err: error, channel: EVENTS_CHANNEL }, 'Ignoring a malformed realtime payload');
      return;
    }
    for (const subscriber of subscribers.get(event.ownerId) ?? []) {
      if (subscriber.topics.has(event.topic)) push(subscriber, { type: 'event', event });
    }
  };

  const onReconnect = () => {
    deps.logger.info('Realtime listener reconnected; asking subscribers to re-read');
    forEachSubscriber((subscriber) => push(subscriber, { type: 'sync' }));
  };

  /** Listens on first use; a failure is not remembered, so the next subscriber tries again. */
  const ensureListening = () => {
    listening ??= deps.db.listen(EVENTS_CHANNEL, onPayload, { onReconnect }).catch((error: unknown) => {
      listening = undefined;
      throw error;
    });
    return listening;
  };

  async function* subscribe<T extends RealtimeTopic>(options: SubscribeOptions<T>): AsyncGenerator<BusMessage<T>, void, undefined> {
    const { ownerId, signal } = options;
    if (closed || signal?.aborted) return;
    await ensureListening();
    if (closed || signal?.aborted) return;

    const subscriber: Subscriber = { topics: new Set(options.topics), queue: [{ type: 'sync' }], ended: false, wake: undefined };
    const end = () => {
      subscriber.ended = true;
      subscriber.wake?.();
    };
    signal?.addEventListener('abort', end, { once: true });
    let owned = subscribers.get(ownerId);
    if (!owned) {
      owned = new Set();
      subscribers.set(ownerId, owned);
    }
    owned.add(subscriber);
    try {
      while (!subscriber.ended) {
        const message = subscriber.queue.shift();
        if (message) {
          // Only events on the subscriber's topics are ever queued for it.
          yield message as BusMessage<T>;
          continue;
        }
        await new Promise<void>((resolve) => {
          subscriber.wake = resolve;
        });
        subscriber.wake = undefined;
      }
    } finally {
      signal?.removeEventListener('abort', end);
      owned.delete(subscriber);
      if (owned.size === 0 && subscribers.get(ownerId) === owned) subscribers.delete(ownerId);
    }
  }

  return {
    subscribe,
    subscriptionCount() {
      let count = 0;
      for (const owned of subscribers.values()) count += owned.size;
      return count;
    },
    async close() {
      if (closed) return;
      closed = true;
      forEachSubscriber((subscriber) => {
        subscriber.ended = true;
        subscriber.wake?.();
      });
      const unlisten = await listening?.catch(() => undefined);
      listening = undefined;
      await unlisten?.();
    },
  };
}
