/**
 * The HTTP server: tRPC for the web app, /healthz, and the built web app with an SPA
 * fallback. Later surfaces (/api/v1, /auth/v1, /functions/v1) register here too.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { AGENT_API_PREFIX, AppError } from '@purser/core';
import { agentApiPlugin } from './http/agent-api/plugin';
import { sandboxPaidRoutes } from './http/sandbox-paid-routes';
import { fastifyTrustProxy } from './http/trust-proxy';
import { sameOriginGuard } from './http/same-origin';
import { registerOwnerRateLimits, type OwnerRateLimits } from './http/owner-rate-limit';
import { authRoutes, type AuthRateLimits } from './http/auth-routes';
import { oauthRoutes, type OAuthRateLimits } from './http/oauth-routes';
import type { AssistantSettings } from './services/assistant/assistant-settings';
import type { SessionRefreshSettings } from './services/auth/refresh-session';
import type { SignInThrottleSettings } from './services/auth/sign-in-throttle';
import { assistantRoute } from './http/assistant-route';
import { FUNCTIONS_PREFIX, functionsRoutes } from './http/functions-routes';
import { identityRoutes } from './http/identity-routes';
import { requireOperator } from './http/operator-token';
import { registerMetricsRoute, type MetricsAccess } from './http/metrics-access';
import { errorAnswer } from './http/error-answer';
import { securityHeaderList, securityHeaderOptions } from './http/security-headers';
import { prerenderedPages, SPA_SHELL } from './http/prerendered-pages';
import { authenticateOwner } from './services/auth/authenticate-owner';
import { apiV1Plugin } from './http/api-v1/plugin';
import { appRouter, type AppRouter } from './trpc/router';
import type { AppDeps } from './deps';
import type { Context } from './trpc/context';
import { startOutboxRelay, type OutboxRelay } from './services/intents/workflow-outbox';
import { startReconciler, type Reconciler } from './services/intents/reconcile-payment-workflows';
import { sweepExpiredSessions } from './services/payment-sessions/close-payment-session';
import { sweepSuspendedAgentAuthorizations } from './services/agents/sweep-suspended-authorizations';
import { createMetrics, type AppMetrics } from './metrics/metrics';
import type { Tracing } from './tracing/tracing';

/** Paths that belong to APIs: they answer JSON 404s, never the web app's index.html. */
const API_PREFIXES = ['/api/', '/trpc/', '/functions/', '/auth/v1/', '/healthz', '/metrics', '/1.0/', '/.well-known/', '/sandbox/'];

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions extends AppDeps {
  /** Folder with the built web app (web/dist); omitted or missing means API only. */
  webDist?: string;
  /** A worker-only process serves /healthz alone, for its container's health check. */
  healthOnly?: boolean;
  /** Overrides of the /auth/v1 rate limits (tests raise or lower them). */
  authRateLimits?: Partial<AuthRateLimits>;
  /** Overrides of the OAuth server's rate limits (registrations and authorization requests per address). */
  oauthRateLimits?: Partial<OAuthRateLimits>;
  /** Overrides of the owner surfaces' rate limits (OWNER_RATE_LIMIT_PER_MINUTE and the like; tests lower them). */
  ownerRateLimits?: Partial<OwnerRateLimits>;
  /** Overrides of the per-email sign-in back-off (tests shorten it or move its clock). */
  signInThrottle?: Partial<SignInThrottleSettings>;
  /** Overrides of the refresh-token reuse interval (AUTH_REFRESH_TOKEN_REUSE_INTERVAL_SECONDS) and its clock. */
  sessionRefresh?: Partial<SessionRefreshSettings>;
  /** Serve the demo paid API under /sandbox/paid/ (the chain is the sandbox). */
  sandboxPaidApi?: boolean;
  /** OPERATOR_TOKEN: the bearer token of /healthz?deep=true (and /metrics); unset closes the deep check. */
  operatorToken?: string;
  /** Who may read GET /metrics here (http/metrics-access.ts); unset: the operator only. */
  metricsAccess?: MetricsAccess;
  /** The app's metrics, when the runtime also serves them on METRICS_PORT; unset: made here. */
  metrics?: AppMetrics;
  /** Run the payment reconciler (services/intents/reconcile-payment-workflows.ts); tests that drive it themselves turn it off. */
  reconciler?: boolean;
  /**
   * Relay the payment workflow outbox (services/intents/workflow-outbox.ts); on by default. A test
   * whose product processes must be the ones to start a workflow turns it off in its own app.
   */
  outboxRelay?: boolean;
  /** How often open subscriptions re-check their credentials (tests shorten it). */
  realtimeAuthCheckMs?: number;
  /** The assistant's model provider (none: offline from the docs), rate and time limits. */
  assistant?: Partial<AssistantSettings>;
  /** OpenTelemetry, when on (startTracing): a span for each request. */
  tracing?: Pick<Tracing, 'httpPlugin'>;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { webDist, healthOnly = false, authRateLimits, oauthRateLimits, ownerRateLimits, signInThrottle, sessionRefresh, sandboxPaidApi = false, reconciler: reconcile = true, outboxRelay = true, operatorToken, metricsAccess = 'operator', realtimeAuthCheckMs, assistant, tracing, metrics: given, ...deps } =
    options;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    // A hop count or the proxies' addresses, never "trust everyone": X-Forwarded-For is only
    // believed as far as it was written by a proxy of this deployment.
    trustProxy: fastifyTrustProxy(deps.trustProxy),
  });
  // First, so every route and hook registered after runs inside its request's span.
  if (tracing) await app.register(tracing.httpPlugin);

  // Every response, hijacked ones (MCP, server-sent events) included, names its request, so
  // a caller can quote it and an operator can find the log lines.
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('x-request-id', request.id);
    done();
  });
  // Labelled by the route's pattern, never the URL, so the series stay few; hijacked responses
  // (MCP, server-sent events) answer outside Fastify and are not counted.
  const metrics = given ?? createMetrics(deps);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest({ method: request.method, route: request.routeOptions.url, statusCode: reply.statusCode, seconds: reply.elapsedTime / 1000 });
    done();
  });
  // The security headers, worked out once (security-headers.ts): set as they are on every response.
  const securityHeaders = securityHeaderList(securityHeaderOptions(deps.publicUrl));
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    const answer = errorAnswer(error, 'rest');
    if (answer.log === 'unavailable') request.log.warn({ err: error }, 'a dependency is unavailable: answered 503');
    // The client gets no detail of an unexpected failure, only the id to report; the log has it all.
    if (answer.log === 'fault') request.log.error({ err: error }, 'unhandled error');
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', answer.retryAfterSeconds);
    const body = { code: answer.code, message: answer.message, ...(answer.log === 'fault' && { request_id: request.id }) };
    return reply.status(answer.httpStatus).send({ error: body });
  });

  // Public, for container and load-balancer health checks; the deep check runs a workflow,
  // so only the operator may ask for it.
  app.get('/healthz', async (request, reply) => {
    const deep = (request.query as { deep?: string }).deep === 'true';
    if (deep) requireOperator(operatorToken, request.headers.authorization);
    const report = await deps.health.check({ deep });
    return reply.status(report.status === 'ok' ? 200 : 503).send(report);
  });

  // Prometheus scrapes, served by worker-only processes too; closed unless metricsAccess opens it.
  registerMetricsRoute(app, metrics, metricsAccess, operatorToken);

  if (healthOnly) return app;

  // Payment workflows an earlier request or process could not start (an x402 payment's
  // outbox row): started once the app is ready, then every few seconds, until it closes.
  let relay: OutboxRelay | undefined;
  if (outboxRelay) app.addHook('onReady', async () => void (relay = startOutboxRelay(deps)));
  app.addHook('onClose', async () => relay?.stop());
  // Payments whose workflow closed with the intent open, authorisations a suspension's sweep
  // missed and payment sessions whose expiry timer never started: looked for every minute
  // (services/intents/reconcile-payment-workflows.ts, payment-sessions/close-payment-session.ts).
  let reconciler: Reconciler | undefined;
  const sweep = async () => {
    await sweepSuspendedAgentAuthorizations(deps);
    await sweepExpiredSessions(deps);
  };
  if (reconcile) app.addHook('onReady', async () => void (reconciler = startReconciler({ ...deps, sweep })));
  app.addHook('onClose', async () => reconciler?.stop());

  // Once for the whole app: /auth/v1 sets the session cookies, every surface reads them.
  await app.register(fastifyCookie);
  // Before any owner surface reads a cookie: writes it would authenticate come from our own pages.
  app.addHook('onRequest', sameOriginGuard(deps.publicUrl));
  // Then counted per owner (per address before sign-in), in the store every server shares.
  await registerOwnerRateLimits(app, { deps, limits: ownerRateLimits });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: async ({ req }): Promise<Context> => {
        const credentials = { authorization: req.headers.authorization, cookies: req.cookies };
        return {
          ...deps,
          requestId: String(req.id),
          owner: await authenticateOwner(deps, credentials),
          reauthenticate: () => authenticateOwner(deps, credentials),
          realtimeAuthCheckMs,
        };
      },
      onError: ({ error, path: procedure, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') deps.logger.error({ err: error, procedure, reqId: req.id }, 'tRPC procedure failed');
      },
    },
  } satisfies FastifyTRPCPluginOptions<AppRouter>);
  await app.register(authRoutes, { prefix: '/auth/v1', deps, rateLimits: authRateLimits, signInThrottle, sessionRefresh });
  await app.register(identityRoutes, { deps });
  await app.register(oauthRoutes, { deps, rateLimits: oauthRateLimits });
  await app.register(apiV1Plugin, { deps });
  await app.register(agentApiPlugin, { prefix: AGENT_API_PREFIX, deps });
  await app.register(functionsRoutes, { prefix: FUNCTIONS_PREFIX, deps });
  await app.register(assistantRoute, { prefix: FUNCTIONS_PREFIX, deps, settings: assistant });
  if (sandboxPaidApi) await app.register(sandboxPaidRoutes, { chain: deps.chain });

  const hasWeb = webDist !== undefined && existsSync(path.join(webDist, SPA_SHELL));
  const pages = hasWeb ? prerenderedPages(webDist) : new Map<string, string>();
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: ['index.html'] });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => pathname === prefix.replace(/\/$/, '') || pathname.startsWith(prefix));
    if (hasWeb && request.method === 'GET' && !isApi) {
      // A public page the build pre-rendered answers with its own HTML; the other client-side
      // routes (the signed-in pages, the web app's own 404 page) with the shell the app renders into.
      return reply.type('text/html').sendFile(pages.get(pathname) ?? SPA_SHELL);
    }
    return reply.status(404).send(new AppError('NOT_FOUND', `No route for ${request.method} ${pathname}`).toJSON());
  });

  return app;
}
