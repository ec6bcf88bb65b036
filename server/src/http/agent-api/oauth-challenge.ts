/**
 * The OAuth side of the agent API (issue 42, RFC 6750 and RFC 9728): which of the two protected
 * resources a request calls (an access token must be bound to it), the scope each call needs,
 * and the `WWW-Authenticate: Bearer` challenge its 401 carries (with `resource_metadata`, where an
 * MCP host starts its discovery) or its 403 for a scope the token lacks (`insufficient_scope`,
 * naming the scopes to ask the owner for).
 */
import type { FastifyRequest } from 'fastify';
import { isAppError, type OAuthScope } from '@purser/core';
import { bearerOf, requireScope, type AuthenticatedAgent } from '../../services/agents/authenticate-agent';
import { bearerChallenge, oauthResourceUrl } from '../../services/oauth/oauth-discovery';
import { looksLikeAccessToken } from '../../services/oauth/oauth-secrets';
import { toolScope } from './mcp-tools';

/** The resource a request of the agent API calls: the MCP endpoint, or the REST routes. */
export function resourceCalled(publicUrl: string, request: FastifyRequest): string {
  return oauthResourceUrl(publicUrl, request.routeOptions.url?.endsWith('/mcp') ? 'mcp' : 'agentApi');
}

/**
 * Every tools/call in a POST to /mcp (one message or a batch) within the token's scopes: one
 * outside them refuses the whole POST with 403 before anything runs, as the MCP authorization
 * specification asks, so the host can ask the owner for more. tools/list lists every tool.
 */
export function requireToolScopes(agent: AuthenticatedAgent, body: unknown): void {
  if (!agent.oauth) return;
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') continue;
    const scope = toolScope((message as { params?: { name?: unknown } }).params?.name);
    if (scope) requireScope(agent, scope);
  }
}

/** The challenge of an agent API error, or null when it needs none (anything but 401 and a missing scope). */
export function challengeOf(publicUrl: string, request: FastifyRequest, error: unknown): string | null {
  if (!isAppError(error)) return null;
  const resource = resourceCalled(publicUrl, request);
  if (error.code === 'UNAUTHORIZED') {
    const bearer = bearerOf(request.headers.authorization);
    // RFC 6750 section 3.1: a request that sent no token learns only where to get one.
    return bearer && looksLikeAccessToken(bearer) ? bearerChallenge(resource, { error: 'invalid_token', description: error.message }) : bearerChallenge(resource);
  }
  if (error.code === 'INSUFFICIENT_SCOPE') {
    const auth = request.agentAuth;
    const granted = auth && 'agent' in auth ? (auth.agent.oauth?.scopes ?? []) : [];
    const needed = (error.details as { scope?: OAuthScope } | undefined)?.scope;
    const scope = [...new Set([...granted, ...(needed ? [needed] : [])])];
    return bearerChallenge(resource, { error: 'insufficient_scope', description: error.message, scope });
  }
  return null;
}
