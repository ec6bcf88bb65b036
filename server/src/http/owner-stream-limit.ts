/**
 * How many live-update streams (the web app's tRPC subscriptions, server-sent events) one owner
 * may hold open at once, across every server. Each open stream is a subscription to the event bus
 * and a credential check every few seconds, and lasts up to an hour: counting requests alone
 * would let one owner pile up thousands. A stream holds a lease (services/rate-limits/stream-leases.ts)
 * from its request until its connection closes, renewed while it lasts, in the store the rate
 * limits count in; a server that dies leaves its leases to expire within STREAM_LEASE_MS.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import { databaseStreamLeases, memoryStreamLeases, type StreamLeases } from '../services/rate-limits/stream-leases';
import { redisStreamLeases } from './stream-leases-redis';

export const STREAM_LEASE_MS = 60_000;

export interface OwnerStreamLimit {
  /**
   * Takes one of the owner's places for the request's stream, given back when its connection
   * closes; false when the owner holds `max` already.
   */
  open(request: FastifyRequest, reply: FastifyReply, ownerId: string): Promise<boolean>;
}

export function ownerStreamLimit(deps: Pick<AppDeps, 'db' | 'logger' | 'rateLimitStore'>, max: number): OwnerStreamLimit {
  const leases = streamLeasesOf(deps);
  return {
    async open(request, reply, ownerId) {
      const key = `owner-streams:${ownerId}`;
      const leaseId = await leases.acquire(key, max, STREAM_LEASE_MS);
      if (leaseId === null) return false;
      const warn = (error: unknown) => request.log.warn({ err: error }, 'could not renew or return a stream lease; it expires by itself');
      const renewal = setInterval(() => void leases.renew(key, leaseId, STREAM_LEASE_MS).catch(warn), STREAM_LEASE_MS / 3);
      renewal.unref();
      const end = () => {
        clearInterval(renewal);
        void leases.release(key, leaseId).catch(warn);
      };
      // The client may have gone while the lease was taken.
      if (reply.raw.closed) end();
      else reply.raw.once('close', end);
      return true;
    },
  };
}

function streamLeasesOf(deps: Pick<AppDeps, 'db' | 'logger' | 'rateLimitStore'>): StreamLeases {
  const store = deps.rateLimitStore ?? { kind: 'memory' };
  if (store.kind === 'redis') return redisStreamLeases(store.client, store.keyPrefix, deps.logger);
  if (store.kind === 'database') return databaseStreamLeases(deps.db);
  return memoryStreamLeases();
}
