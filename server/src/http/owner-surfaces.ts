/**
 * The owner's surfaces, where the session cookie or an owner's bearer token authenticates: tRPC
 * for the web app, the REST API, the edge functions and the assistant, /auth/v1. The agent API
 * below /functions/v1 is not one: agents authenticate with their own key and never a cookie.
 * The same-origin guard (same-origin.ts) and the owner rate limits (owner-rate-limit.ts) watch
 * these paths.
 */
import type { FastifyRequest } from 'fastify';
import { AGENT_API_PREFIX, PUBLIC_ANON_KEY } from '@purser/core';
import { bearerToken } from '../services/auth/authenticate-owner';

const TRPC_PREFIX = '/trpc/';
const OWNER_PREFIXES = [TRPC_PREFIX, '/api/v1/', '/functions/v1/', '/auth/v1/'];

/** The request's path, without its query. */
export function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '/';
}

/** The procedures a tRPC request calls (a batch names several: `/trpc/a,b`); none elsewhere. */
export function trpcCallsOf(pathname: string): string[] {
  if (!pathname.startsWith(TRPC_PREFIX)) return [];
  const calls = pathname.slice(TRPC_PREFIX.length);
  try {
    return decodeURIComponent(calls).split(',');
  } catch {
    return calls.split(',');
  }
}

export function isOwnerSurface(pathname: string): boolean {
  if (pathname === AGENT_API_PREFIX || pathname.startsWith(`${AGENT_API_PREFIX}/`)) return false;
  return OWNER_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/**
 * The bearer credential in the request's Authorization header, if it carries one. The web app's
 * public anonymous key (the assistant's) names no one: behind it the session cookie is what
 * authenticates.
 */
export function ownerAuthorization(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const token = bearerToken(header);
  return token === null || token === PUBLIC_ANON_KEY ? undefined : header;
}
