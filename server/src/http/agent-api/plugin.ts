/**
 * The agent API under /functions/v1/mcp-server: the REST routes of agent-routes.ts and the
 * MCP endpoint at /mcp. Every call authenticates the agent first (`X-Agent-DID` plus
 * `Authorization: Bearer <agent key>`, or an OAuth access token bound to the resource called:
 * 401 with a `WWW-Authenticate: Bearer` challenge when missing or wrong, 403 for a suspended or
 * deleted agent, 403 insufficient_scope for a call outside the token's scopes), then counts against that agent's rate limit (per minute, across all servers;
 * unauthenticated calls count against their IP address), then runs. A JSON-RPC batch sent to
 * /mcp counts once per message in it.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@purser/core';
import { authenticateAgentRequest, bearerOf, requireScope, single, type AuthenticatedAgent, type AuthenticatedRequest } from '../../services/agents/authenticate-agent';
import { looksLikeAccessToken } from '../../services/oauth/oauth-secrets';
import { authenticateAccessToken } from '../../services/oauth/verify-access-token';
import type { AppDeps } from '../../deps';
import { clientAddressKey } from '../client-address';
import { rateLimitStoreOptions } from '../rate-limit-store';
import { idempotencyKeyOf, parseInput } from '../request-input';
import { agentRoutes, type AgentRoute } from './agent-routes';
import { answerMcpPost } from './mcp-endpoint';
import { createAgentMcpServer } from './mcp-tools';
import { challengeOf, requireToolScopes, resourceCalled } from './oauth-challenge';

export const DEFAULT_AGENT_RATE_LIMIT_PER_MINUTE = 120;

declare module 'fastify' {
  interface FastifyRequest {
    agentAuth?: AuthenticatedRequest | { error: unknown };
  }
}

function requireAgent(request: FastifyRequest): AuthenticatedAgent {
  return requireAuthenticated(request).agent;
}

function requireAuthenticated(request: FastifyRequest): AuthenticatedRequest {
  const auth = request.agentAuth;
  if (!auth) throw new AppError('UNAUTHORIZED', 'Agent authentication did not run');
  if ('error' in auth) throw auth.error;
  return auth;
}

export async function agentApiPlugin(app: FastifyInstance, { deps }: { deps: AppDeps }): Promise<void> {
  // Authenticate in onRequest and keep the outcome: the rate limit (a preHandler) then counts
  // the agent's calls, or the address's failed ones, before the outcome is acted on.
  app.addHook('onRequest', async (request) => {
    try {
      const did = request.headers['x-agent-did'];
      const bearer = bearerOf(request.headers.authorization);
      request.agentAuth =
        bearer && looksLikeAccessToken(bearer)
          ? await authenticateAccessToken(deps, bearer, { did: single(did), resourceUrl: resourceCalled(deps.publicUrl, request) })
          : await authenticateAgentRequest(deps, { did, authorization: request.headers.authorization });
    } catch (error) {
      request.agentAuth = { error };
    }
  });
  // A 401 says where to get a token (RFC 9728), a 403 for a missing scope which scopes to ask for.
  app.addHook('onError', async (request, reply, error) => {
    const challenge = challengeOf(deps.publicUrl, request, error);
    if (challenge) reply.header('www-authenticate', challenge);
  });
  // One count per agent for all the routes below, shared by every server (rate-limit-store.ts).
  await app.register(fastifyRateLimit, {
    ...rateLimitStoreOptions(deps.rateLimitStore, 'agent-api'),
    hook: 'preHandler',
    max: deps.agentRateLimitPerMinute ?? DEFAULT_AGENT_RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => {
      const auth = request.agentAuth;
      return auth && 'agent' in auth ? `agent:${auth.agent.agentId}` : `ip:${clientAddressKey(request)}`;
    },
    errorResponseBuilder: (_request, context) => new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
  });

  for (const route of agentRoutes) register(app, deps, route);

  // MCP over Streamable HTTP, stateless: each POST carries a whole exchange, answered as JSON,
  // in MCP 2026-07-28 or 2025-11-25, whichever the request speaks (mcp-endpoint.ts).
  // chargeBatch runs before the rate limit's own preHandler (route hooks come first), which
  // counts the request's last message.
  const chargeBatch = batchCharger(app);
  app.post('/mcp', { preHandler: chargeBatch }, async (request, reply) => {
    const agent = requireAgent(request);
    requireToolScopes(agent, request.body);
    const answer = await answerMcpPost(
      request,
      reply,
      (era) => createAgentMcpServer(deps, agent, request.id, era),
      (error) => request.log.warn({ err: error }, 'MCP exchange failed'),
    );
    return reply.send(answer);
  });
  // No server-initiated stream and no sessions: 2025 clients learn that GET (a stream) and
  // DELETE (a session's end) are not offered here; 2026-07-28 has no use for either.
  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    requireAgent(request);
    return reply.status(405).header('allow', 'POST').send(new AppError('BAD_REQUEST', 'This MCP endpoint is stateless: send JSON-RPC messages with POST').toJSON());
  };
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}

/**
 * A JSON-RPC batch is as many calls as it holds messages (requests and notifications alike),
 * or one POST could run a hundred tool calls for the price of one. All but one message are
 * counted here, in the rate limit's own store; a batch larger than what is left of the window
 * is refused whole, before anything runs, and costs nothing.
 */
function batchCharger(app: FastifyInstance): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  // The rate limit registered in this plugin (its store, keys and window), not another one.
  const limiter = app.createRateLimit();
  return async (request, reply) => {
    const auth = request.agentAuth;
    // Unauthenticated: counted once against the address, then refused by the handler.
    if (!auth || !('agent' in auth) || !Array.isArray(request.body) || request.body.length <= 1) return;
    const messages = request.body.length;
    const state = await limiter(request, { increment: false });
    if (state.isAllowed) return;
    if (state.remaining < messages) throw refuseBatch(reply, messages, state.remaining, state.max, state.ttlInSeconds);
    for (let charged = 1; charged < messages; charged++) {
      const after = await limiter(request);
      // Another request of the same agent took the allowance meanwhile.
      if (!after.isAllowed && after.isExceeded) throw refuseBatch(reply, messages, 0, after.max, after.ttlInSeconds);
    }
  };
}

function refuseBatch(reply: FastifyReply, messages: number, left: number, max: number, retryAfterSeconds: number): AppError {
  const wait = Math.max(1, retryAfterSeconds);
  reply.header('retry-after', wait);
  return new AppError(
    'RATE_LIMITED',
    `This batch holds ${messages} MCP messages, each counted as a call, and ${left} of this agent's ${max} calls per minute are left. ` +
      `Nothing was run. Please try again in ${wait} second${wait === 1 ? '' : 's'}${messages > max ? `, with at most ${max} messages per batch` : ''}.`,
  );
}

function register(app: FastifyInstance, deps: AppDeps, route: AgentRoute): void {
  app.route({
    method: route.method,
    url: route.path,
    handler: async (request, reply) => {
      const { agent, wallet } = requireAuthenticated(request);
      requireScope(agent, route.oauthScope);
      const body = route.body ? parseInput(route.body, request.body) : undefined;
      const answer = await route.handler({
        deps,
        agent,
        wallet,
        body,
        params: route.params ? parseInput(route.params, request.params) : undefined,
        query: route.query ? parseInput(route.query, request.query) : undefined,
        idempotencyKey: route.idempotent ? idempotencyKeyOf(request, (body as { idempotency_key?: string } | undefined)?.idempotency_key) : undefined,
        request,
        reply,
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      const status = answer.status ?? route.status ?? 200;
      return reply.status(status).send(status === (route.status ?? 200) ? route.response.parse(answer.body) : answer.body);
    },
  });
}

