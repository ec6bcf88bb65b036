/**
 * The signed-in owner's events for a subscription procedure. The bus ends a subscription
 * only when the server shuts down; the stream then fails with a retryable code, so the
 * client's EventSource reconnects (to a live server) instead of treating it as finished.
 */
import { TRPCError } from '@trpc/server';
import type { BusMessage, RealtimeTopic } from '../../services/realtime/event-bus';
import type { Context } from '../context';
import type { AuthenticatedOwner } from '../../services/auth/authenticate-owner';

export async function* ownerEvents<T extends RealtimeTopic>(
  ctx: Pick<Context, 'events'> & { owner: AuthenticatedOwner },
  topics: readonly T[],
  signal: AbortSignal | undefined,
): AsyncGenerator<BusMessage<T>, void, undefined> {
  yield* ctx.events.subscribe({ ownerId: ctx.owner.userId, topics, signal });
  if (!signal?.aborted) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'The server is shutting down; reconnect' });
}
