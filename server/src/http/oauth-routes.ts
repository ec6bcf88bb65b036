/**
 * The OAuth 2.1 authorization server of the agent API and the MCP endpoint (services/oauth/):
 * its RFC 8414 metadata, the RFC 9728 metadata of both resources, and /oauth/authorize, /token,
 * /register and /revoke. Their contracts are the RFCs', so they answer in OAuth's own shapes
 * (`{ error, error_description }`, RFC 6749 section 5.2) rather than the product's error body, and
 * are described by the metadata document rather than the OpenAPI one.
 *
 * No cookie is read here: the owner decides on the web app's consent page, which calls the
 * consent services through tRPC. Registration and authorization requests are rate limited per
 * client address; the token endpoint is not (a host's backend makes every user's calls from a few
 * addresses), its secrets are its guard. Discovery and the client-facing POSTs allow any origin
 * (no credentials ride on them), so browser-based MCP clients can use them.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import { answerTokenRequest } from '../services/oauth/answer-token-request';
import { authorizationServerMetadata, OAUTH_PATHS, protectedResourceMetadata, protectedResourceMetadataPath, type OAuthResourceName } from '../services/oauth/oauth-discovery';
import { registerClient } from '../services/oauth/register-client';
import { revokeToken } from '../services/oauth/revoke-token';
import { startAuthorization } from '../services/oauth/start-authorization';
import type { FormParams } from '../services/oauth/token-form';
import { errorAnswer } from './error-answer';
import { rateLimitStoreOptions } from './rate-limit-store';

export interface OAuthRateLimits {
  /** Dynamic client registrations per client address per window. */
  register: number;
  /** Authorization requests per client address per window (each stores a pending request). */
  authorize: number;
  windowMs: number;
}

export const DEFAULT_OAUTH_RATE_LIMITS: OAuthRateLimits = { register: 20, authorize: 120, windowMs: 60_000 };

const FORM = 'application/x-www-form-urlencoded';

const STATUS: Partial<Record<string, number>> = {
  [OAuthErrorCode.InvalidClient]: 401,
  [OAuthErrorCode.TooManyRequests]: 429,
  [OAuthErrorCode.ServerError]: 500,
  [OAuthErrorCode.TemporarilyUnavailable]: 503,
};

function parseForm(body: string): FormParams {
  const form: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = form[name];
    form[name] = seen === undefined ? value : [...[seen].flat(), value];
  }
  return form;
}

function formOf(request: FastifyRequest): FormParams {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== FORM || typeof request.body !== 'object' || request.body === null) {
    throw new OAuthError(OAuthErrorCode.InvalidRequest, `The body must be ${FORM}`);
  }
  return request.body as FormParams;
}

/** OAuth's error body; the answers of the token endpoint are never cached (RFC 6749 section 5.1). */
function sendOAuthError(reply: FastifyReply, error: OAuthError, status = STATUS[error.code] ?? 400): FastifyReply {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .send(error.toResponseObject());
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The browser met a request that cannot go back to its client: said to the person, in HTML when the browser asks for it. */
function refuseAuthorization(request: FastifyRequest, reply: FastifyReply, error: OAuthError): FastifyReply {
  if (!request.headers.accept?.includes('text/html')) return sendOAuthError(reply, error, 400);
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization refused</title></head><body><h1>This connection request cannot be completed</h1><p>${escapeHtml(error.message)}</p><p>Error: <code>${escapeHtml(error.code)}</code></p></body></html>`;
  return reply.status(400).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
}

export async function oauthRoutes(app: FastifyInstance, options: { deps: AppDeps; rateLimits?: Partial<OAuthRateLimits> }): Promise<void> {
  const { deps } = options;
  const limits = { ...DEFAULT_OAUTH_RATE_LIMITS, ...options.rateLimits };

  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => done(null, parseForm(body as string)));
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    const answer = errorAnswer(error, 'rest');
    if (answer.log === 'fault') request.log.error({ err: error }, 'unhandled error in the OAuth server');
    if (answer.log === 'unavailable') request.log.warn({ err: error }, 'a dependency is unavailable: answered 503');
    if (answer.httpStatus >= 500) {
      if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', answer.retryAfterSeconds);
      const code = answer.httpStatus === 503 ? OAuthErrorCode.TemporarilyUnavailable : OAuthErrorCode.ServerError;
      return sendOAuthError(reply, new OAuthError(code, answer.log === 'fault' ? `Internal server error (request ${request.id})` : answer.message));
    }
    // The framework's own refusals (a body over the limit, an unreadable one) keep their status.
    return reply.status(answer.httpStatus).header('cache-control', 'no-store').send(new OAuthError(OAuthErrorCode.InvalidRequest, answer.message).toResponseObject());
  });
  // Nothing here rides on a cookie or other ambient credential: any origin may read the answers.
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.url !== OAUTH_PATHS.authorize) reply.header('access-control-allow-origin', '*');
  });

  await app.register(fastifyRateLimit, {
    ...rateLimitStoreOptions(deps.rateLimitStore, 'oauth'),
    global: false,
    timeWindow: limits.windowMs,
    errorResponseBuilder: (_request, context) => new OAuthError(OAuthErrorCode.TooManyRequests, `Too many requests. Please try again in ${context.after}.`),
  });

  app.get(OAUTH_PATHS.metadata, async () => authorizationServerMetadata(deps.publicUrl));
  for (const resource of ['mcp', 'agentApi'] as OAuthResourceName[]) {
    app.get(protectedResourceMetadataPath(resource), async () => protectedResourceMetadata(deps.publicUrl, resource));
  }

  app.get(OAUTH_PATHS.authorize, { config: { rateLimit: { max: limits.authorize } } }, async (request, reply) => {
    const answer = await startAuthorization(deps, request.query as Record<string, unknown>);
    if ('refused' in answer) return refuseAuthorization(request, reply, answer.refused);
    return reply.header('cache-control', 'no-store').redirect(answer.location, 302);
  });

  app.post(OAUTH_PATHS.token, async (request, reply) => {
    const tokens = await answerTokenRequest(deps, formOf(request));
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
  });

  app.post(OAUTH_PATHS.revoke, async (request, reply) => {
    await revokeToken(deps, formOf(request));
    return reply.header('cache-control', 'no-store').status(200).send();
  });

  app.post(OAUTH_PATHS.register, { config: { rateLimit: { max: limits.register } } }, async (request, reply) => {
    const client = await registerClient(deps, request.body);
    return reply.status(201).header('cache-control', 'no-store').send(client);
  });
  // A JSON registration from a page of another origin asks first (a CORS preflight).
  app.options(OAUTH_PATHS.register, async (_request, reply) =>
    reply.status(204).header('access-control-allow-methods', 'POST').header('access-control-allow-headers', 'content-type, authorization').header('access-control-max-age', '600').send(),
  );
}
