/**
 * The signed-in owner's events for a subscription procedure. A stream outlives the request
 * that authenticated it, so it re-checks its credentials every few seconds against the
 * database (every replica sees a sign-out there) and ends with UNAUTHORIZED once the session
 * is signed out, revoked or expired, or the owner API key revoked.
 *
 * The bus ends a subscription only when the server shuts down; the stream then fails with a
 * retryable code, so the client's EventSource reconnects (to a live server) instead of
 * treating it as finished.
 */
import { TRPCError } from '@trpc/server';
import type { BusMessage, RealtimeTopic } from '../../services/realtime/event-bus';
import type { Context } from '../context';
import type { AuthenticatedOwner } from '../../services/auth/authenticate-owner';

/** Default of AppDeps.realtimeAuthCheckMs: one indexed lookup per open stream this often. */
export const REALTIME_AUTH_CHECK_MS = 2_000;

type EventsContext = Pick<Context, 'events' | 'logger' | 'reauthenticate' | 'realtimeAuthCheckMs'> & { owner: AuthenticatedOwner };

export async function* ownerEvents<T extends RealtimeTopic>(
  ctx: EventsContext,
  topics: readonly T[],
  signal: AbortSignal | undefined,
): AsyncGenerator<BusMessage<T>, void, undefined> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (signal?.aborted) stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const watch = watchCredentials(ctx, () => stop.abort());
  try {
    yield* ctx.events.subscribe({ ownerId: ctx.owner.userId, topics, signal: stop.signal });
  } finally {
    watch.stop();
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) return;
  if (watch.ended === 'signed-out') throw new TRPCError({ code: 'UNAUTHORIZED', message: 'The session or API key is no longer valid; sign in again' });
  if (watch.ended === 'unchecked') throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'The session could not be checked; reconnect' });
  throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'The server is shutting down; reconnect' });
}

interface CredentialWatch {
  /** Why the watch ended the stream, if it did. */
  readonly ended: 'signed-out' | 'unchecked' | undefined;
  stop(): void;
}

/**
 * Re-runs the request's authentication on a timer (never overlapping) and calls `end` when it
 * no longer yields the same owner. A check that fails outright (the database is unreachable)
 * ends the stream too, retryably: a stream nobody can vouch for is not kept open.
 */
function watchCredentials(ctx: EventsContext, end: () => void): CredentialWatch {
  const watch = { ended: undefined as CredentialWatch['ended'], stop };
  const { reauthenticate } = ctx;
  // In-process callers (createCaller) hold no credentials to re-check.
  if (!reauthenticate) return watch;
  const intervalMs = ctx.realtimeAuthCheckMs ?? REALTIME_AUTH_CHECK_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const check = async () => {
    try {
      const owner = await reauthenticate();
      if (stopped) return;
      if (owner?.userId !== ctx.owner.userId) watch.ended = 'signed-out';
    } catch (error) {
      if (stopped) return;
      ctx.logger.warn({ err: error, ownerId: ctx.owner.userId }, 'could not re-check the credentials of a subscription; ending it');
      watch.ended = 'unchecked';
    }
    if (watch.ended) end();
    else schedule();
  };
  function schedule() {
    timer = setTimeout(() => void check(), intervalMs);
  }
  function stop() {
    stopped = true;
    clearTimeout(timer);
  }
  schedule();
  return watch;
}
