/**
 * Rate limits of the owner's surfaces (owner-surfaces.ts: tRPC, the REST API, the edge functions,
 * the assistant, /auth/v1), counted where every server sees the same counts (rate-limit-store.ts):
 *
 * - requests per owner per window, each call of a tRPC batch counted;
 * - searches per owner per window, besides: the payment list asked with a search text (GET
 *   /api/v1/intents?search=, tRPC intents.list), which no index serves, and the assistant;
 * - live-update streams one owner holds open at once (owner-stream-limit.ts).
 *
 * A request counts against the owner its credential names (services/auth/claimed-owner.ts);
 * one without a genuine owner credential against its client address (client-address.ts). Over a
 * limit: 429 RATE_LIMITED with Retry-After, before anything of the request ran (for tRPC in its
 * own error shape, early-refusal.ts). The surfaces' own limits (sign-in and sign-up per address,
 * the assistant's per address) apply as well. Set by OWNER_RATE_LIMIT_PER_MINUTE,
 * OWNER_SEARCH_RATE_LIMIT_PER_MINUTE and OWNER_STREAM_LIMIT.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ASSISTANT_PATH } from '@purser/core';
import type { AppDeps } from '../deps';
import { claimedOwnerId } from '../services/auth/claimed-owner';
import { appRouter } from '../trpc/router';
import { clientAddressKey } from './client-address';
import { refuseEarly } from './early-refusal';
import { ownerStreamLimit } from './owner-stream-limit';
import { isOwnerSurface, ownerAuthorization, pathOf, trpcCallsOf } from './owner-surfaces';
import { rateLimitStoreOptions, type RateLimitName } from './rate-limit-store';

export interface OwnerRateLimits {
  /** Requests (tRPC calls) per owner per window; before sign-in, per client address. */
  requests: number;
  /** Payment-list searches and assistant requests per owner (or address) per window. */
  searches: number;
  /** Live-update streams one owner may hold open at once. */
  streams: number;
  windowMs: number;
}

/** Well above what the console asks (a page is a few calls, its search is debounced, a tab holds up to three streams). */
export const DEFAULT_OWNER_RATE_LIMITS: OwnerRateLimits = { requests: 1_200, searches: 120, streams: 30, windowMs: 60_000 };

/** When no stream has closed yet, how long a refused one is told to wait. */
const STREAM_RETRY_AFTER_SECONDS = 10;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

const subscriptions = new Set(
  Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
    .filter(([, procedure]) => procedure._def.type === 'subscription')
    .map(([path]) => path),
);

/** Registers the limits' onRequest hook on `app`; after @fastify/cookie, whose cookies it reads. */
export async function registerOwnerRateLimits(app: FastifyInstance, options: { deps: AppDeps; limits?: Partial<OwnerRateLimits> }): Promise<void> {
  const { deps } = options;
  const limits = { ...DEFAULT_OWNER_RATE_LIMITS, ...options.limits };
  const keys = new WeakMap<FastifyRequest, string>();
  const keyOf = (request: FastifyRequest) => keys.get(request) ?? `ip:${clientAddressKey(request)}`;
  const requests = await limiterIn(app, deps, 'owner', limits.requests, limits.windowMs, keyOf);
  const searches = await limiterIn(app, deps, 'owner-search', limits.searches, limits.windowMs, keyOf);
  const streams = ownerStreamLimit(deps, limits.streams);

  app.addHook('onRequest', async (request, reply) => {
    const pathname = pathOf(request);
    if (!isOwnerSurface(pathname)) return undefined;
    const ownerId = await claimedOwnerId(deps, { authorization: ownerAuthorization(request), cookies: request.cookies });
    keys.set(request, ownerId === null ? `ip:${clientAddressKey(request)}` : `owner:${ownerId}`);
    const calls = trpcCallsOf(pathname);

    const wait = (await charge(requests, request, Math.max(1, calls.length))) ?? (await charge(searches, request, searchesIn(request, pathname, calls)));
    if (wait !== undefined) return refuse(request, reply, wait, `Too many requests. Please try again in ${wait} second${wait === 1 ? '' : 's'}.`);

    const stream = ownerId !== null && calls.length === 1 && subscriptions.has(calls[0]!);
    if (stream && !(await streams.open(request, reply, ownerId))) {
      return refuse(request, reply, STREAM_RETRY_AFTER_SECONDS, `Too many live-update streams are open for this account (at most ${limits.streams}). Close a tab, or try again later.`);
    }
    return undefined;
  });
}

/**
 * A limit counted under `name`, in a scope of its own: @fastify/rate-limit decorates the instance
 * it is registered on, and the surfaces register theirs below the root.
 */
async function limiterIn(app: FastifyInstance, deps: AppDeps, name: RateLimitName, max: number, windowMs: number, keyGenerator: (request: FastifyRequest) => string): Promise<Limiter> {
  let limiter: Limiter | undefined;
  await app.register(async (scope) => {
    await scope.register(fastifyRateLimit, { ...rateLimitStoreOptions(deps.rateLimitStore, name), global: false, max, timeWindow: windowMs, keyGenerator });
    limiter = scope.createRateLimit();
  });
  return limiter!;
}

/** Counts `hits` against the limit; the seconds to wait once it is exceeded. */
async function charge(limiter: Limiter, request: FastifyRequest, hits: number): Promise<number | undefined> {
  for (let hit = 0; hit < hits; hit++) {
    const state = await limiter(request);
    if (!state.isAllowed && state.isExceeded) return Math.max(1, state.ttlInSeconds);
  }
  return undefined;
}

/** How many of the request's calls are searches. */
function searchesIn(request: FastifyRequest, pathname: string, calls: string[]): number {
  if (pathname === ASSISTANT_PATH) return 1;
  const query = (request.query ?? {}) as { search?: unknown; input?: unknown; batch?: unknown };
  if (pathname === '/api/v1/intents') return request.method === 'GET' && hasText(query.search) ? 1 : 0;
  if (!calls.includes('intents.list') || typeof query.input !== 'string') return 0;
  let input: unknown;
  try {
    input = JSON.parse(query.input);
  } catch {
    return 0;
  }
  const inputOf = (index: number) => (query.batch === '1' ? (input as Record<string, unknown> | null)?.[index] : input);
  return calls.filter((call, index) => call === 'intents.list' && hasText((inputOf(index) as { search?: unknown } | null | undefined)?.search)).length;
}

const hasText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

function refuse(request: FastifyRequest, reply: FastifyReply, waitSeconds: number, message: string): Promise<FastifyReply> {
  request.log.warn({ route: pathOf(request) }, 'owner rate limit exceeded');
  reply.header('retry-after', waitSeconds);
  return refuseEarly(request, reply, new AppError('RATE_LIMITED', message));
}
