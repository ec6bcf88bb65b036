/**
 * The owner REST API under /api/v1: every route from routes.ts, the OpenAPI document of every
 * REST surface at /api/v1/openapi.json and the interactive reference at /docs/api.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AGENT_API_PREFIX } from '@purser/core';
import { agentRoutes, type AgentRoute } from '../agent-api/agent-routes';
import { assistantApiRoutes } from '../assistant-route';
import { AUTH_PREFIX, authApiRoutes } from '../auth-routes';
import { FUNCTIONS_PREFIX, functionsApiRoutes } from '../functions-routes';
import { identityApiRoutes } from '../identity-routes';
import { SANDBOX_PAID_PREFIX, sandboxPaidApiRoutes } from '../sandbox-paid-routes';
import type { AppDeps } from '../../deps';
import type { ApiRoute } from './define-route';
import { buildOpenApiDocument, type ApiSection } from './openapi';
import { registerRoute } from './register-route';
import { apiRoutes } from './routes';

const API_VERSION = '1.0.0';

/**
 * The surfaces served outside /api/v1, as the document describes them. Their plugins register
 * the same declarations (auth and assistant build theirs from settings that change no schema);
 * the sandbox's paid API is described even where a real network leaves it out.
 */
export function otherApiSections(): ApiSection[] {
  return [
    {
      prefix: AGENT_API_PREFIX,
      routes: agentRoutes.map((route) => ({ ...route, tag: 'Agent API' })),
      // The DID and API key, or an OAuth access token with the route's scope.
      security: (route) => [{ agentDid: [], agentKey: [] }, { agentOAuth: [(route as typeof route & Pick<AgentRoute, 'oauthScope'>).oauthScope] }],
    },
    { prefix: FUNCTIONS_PREFIX, routes: [...functionsApiRoutes, ...assistantApiRoutes()] },
    { prefix: AUTH_PREFIX, routes: authApiRoutes() },
    { prefix: '', routes: identityApiRoutes },
    { prefix: SANDBOX_PAID_PREFIX, routes: sandboxPaidApiRoutes },
  ];
}

const require = createRequire(import.meta.url);
// The package exports no subpath for its browser bundle; it sits beside the main entry.
const REFERENCE_SCRIPT = path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

// Zod, bundled in the reference, probes whether it may compile validators with Function().
// The Content-Security-Policy allows no eval, so the probe fails (harmlessly) and is reported as
// a violation. Told first to stay interpreted, zod never probes; this is a file of its own
// because the policy runs no inline script.
const REFERENCE_SETUP = 'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });\n';

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Purser API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/api/v1/openapi.json" data-configuration='{"withDefaultFonts":false,"hideClientButton":true}'></script>
    <script src="/docs/api/setup.js"></script>
    <script src="/docs/api/reference.js"></script>
  </body>
</html>
`;

export async function apiV1Plugin(app: FastifyInstance, options: { deps: AppDeps; routes?: ApiRoute[] }): Promise<void> {
  const { deps } = options;
  const routes = options.routes ?? apiRoutes;
  for (const route of routes) registerRoute(app, route, { deps, prefix: '/api/v1', owners: { deps } });

  const document = buildOpenApiDocument(routes, { serverUrl: deps.publicUrl, version: API_VERSION, sections: otherApiSections() });
  app.get('/api/v1/openapi.json', async () => document);
  app.get('/docs/api', async (_request, reply) => reply.type('text/html; charset=utf-8').send(REFERENCE_PAGE));
  app.get('/docs/api/setup.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(REFERENCE_SETUP),
  );
  // Served from the installed package: the reference works offline and needs no CDN.
  app.get('/docs/api/reference.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(createReadStream(REFERENCE_SCRIPT)),
  );
}
