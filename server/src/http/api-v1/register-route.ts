/**
 * Serves a route declaration (define-route.ts): authenticates the caller, validates the request
 * with the declaration's schemas, runs the handler and answers as the declaration says. Every
 * REST surface registers its routes here, so what is served is what openapi.ts documents.
 * Refusals are thrown as AppErrors: the app's error handler answers them (error-answer.ts).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, PUBLIC_ANON_KEY } from '@purser/core';
import { authorizeOwnerApiKeyUse } from '../../services/api-keys/authorize-owner-api-key-use';
import { authenticateOwner, bearerToken } from '../../services/auth/authenticate-owner';
import type { AuthDeps } from '../../services/auth/session-tokens';
import { idempotencyKeyOf, parseInput } from '../request-input';
import type { ApiRoute, Owner } from './define-route';

/** Where a surface's routes are served, and what their handlers get. */
export interface RouteMount<D> {
  deps: D;
  /** Put before each route's path; none when the plugin is registered under a Fastify prefix. */
  prefix?: string;
  /** How 'owner' routes authenticate, and the 401's message; a mount without it serves none. */
  owners?: { deps: AuthDeps; refusal?: string };
}

const NO_OWNER: Owner = { userId: '', via: 'session' };

export function registerRoute<D>(app: FastifyInstance, route: ApiRoute<z.ZodType, z.ZodType, z.ZodType, z.ZodType, D>, mount: RouteMount<D>): void {
  if ((route.auth ?? 'owner') === 'owner' && !mount.owners) throw new Error(`${route.operationId} needs an owner, and its mount authenticates none`);
  // The type requires it; this holds for a declaration that got past the type (a cast).
  if ((route.auth ?? 'owner') === 'owner' && !route.scope) throw new Error(`${route.operationId} is an owner route without the API key scope it requires`);
  app.route({
    method: route.method,
    url: `${mount.prefix ?? ''}${route.path}`,
    ...(route.config ? { config: route.config } : {}),
    handler: async (request, reply) => {
      const owner = await callerOf(route, mount, request);
      const readQuery = () => (route.query ? parseInput(route.query, request.query) : undefined);
      // The body is read first, unless the query decides which body is valid.
      const queryFirst = route.bodyFor ? readQuery() : undefined;
      const bodySchema = route.bodyFor ? route.bodyFor(queryFirst) : route.body;
      const body = bodySchema ? parseInput(bodySchema, request.body) : undefined;
      const context = {
        deps: mount.deps,
        owner: owner ?? NO_OWNER,
        params: route.params ? parseInput(route.params, request.params) : undefined,
        query: route.bodyFor ? queryFirst : readQuery(),
        body,
        idempotencyKey: route.idempotent ? idempotencyKeyOf(request, (body as { idempotency_key?: string } | undefined)?.idempotency_key) : undefined,
        request,
        reply,
      };
      if (route.stream) {
        const items = await route.handler(context);
        return sendStream(reply.status(route.status ?? 200).type(route.stream), items);
      }
      if (route.mediaType !== undefined) return route.handler(context);
      const result = await route.handler(context);
      // An idempotent replay is not a second creation: 200 with Idempotent-Replayed, not 201.
      const status = reply.hasHeader('idempotent-replayed') ? 200 : (route.status ?? 200);
      return reply.status(status).send(route.response.parse(result));
    },
  });
}

/**
 * The route's caller. An owner API key must also hold the route's scope and be unexpired; its
 * use is recorded either way, before anything of the route runs (authorize-owner-api-key-use.ts).
 */
async function callerOf<D>(route: Pick<ApiRoute, 'auth' | 'scope' | 'method' | 'operationId'>, mount: RouteMount<D>, request: FastifyRequest): Promise<Owner | null> {
  if (route.auth === 'public') return null;
  if (route.auth === 'client-key') {
    if (bearerToken(request.headers.authorization) !== PUBLIC_ANON_KEY) throw new AppError('UNAUTHORIZED', 'Missing or invalid client key');
    return null;
  }
  const owners = mount.owners!;
  const owner = await authenticateOwner(owners.deps, { authorization: request.headers.authorization, cookies: request.cookies });
  if (!owner) throw new AppError('UNAUTHORIZED', owners.refusal ?? 'Missing or invalid credentials');
  if (owner.via === 'api_key') {
    const use = { scope: route.scope!, method: route.method, route: request.routeOptions.url ?? '', operation: route.operationId, requestId: String(request.id) };
    await authorizeOwnerApiKeyUse(owners.deps.db.prisma, owner, use);
  }
  return owner;
}

/**
 * Sends the lines as they come. The first is read before anything is sent, so a failure before
 * any output (the database down) answers as an error rather than as a cut-off download; a
 * failure later aborts the response, which the client sees as an incomplete transfer.
 */
async function sendStream(reply: FastifyReply, items: AsyncIterable<string>): Promise<FastifyReply> {
  const iterator = items[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* lines(): AsyncGenerator<string> {
    for (let next = first; !next.done; next = await iterator.next()) yield `${next.value}\n`;
  }
  return reply.send(Readable.from(lines()));
}
