/**
 * The owner REST API under /api/v1: every route from routes.ts, its OpenAPI document at
 * /api/v1/openapi.json and the interactive reference at /docs/api.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AGENT_API_PREFIX, AppError } from '@purser/core';
import { agentRoutes } from '../agent-api/agent-routes';
import { authenticateOwner } from '../../services/auth/authenticate-owner';
import type { AppDeps } from '../../trpc/context';
import { idempotencyKeyOf, parseInput } from '../request-input';
import type { ApiRoute } from './define-route';
import { buildOpenApiDocument } from './openapi';
import { apiRoutes } from './routes';

const API_VERSION = '1.0.0';

function register(app: FastifyInstance, deps: AppDeps, route: ApiRoute): void {
  app.route({
    method: route.method,
    url: `/api/v1${route.path}`,
    handler: async (request, reply) => {
      let owner = null;
      if (route.auth !== 'public') {
        owner = await authenticateOwner(deps, { authorization: request.headers.authorization, cookies: request.cookies });
        if (!owner) throw new AppError('UNAUTHORIZED', 'Missing or invalid credentials');
      }
      const body = route.body ? parseInput(route.body, request.body) : undefined;
      const context = {
        deps,
        owner: owner ?? { userId: '', via: 'session' as const },
        params: route.params ? parseInput(route.params, request.params) : undefined,
        query: route.query ? parseInput(route.query, request.query) : undefined,
        body,
        idempotencyKey: idempotencyKeyOf(request, (body as { idempotency_key?: string } | undefined)?.idempotency_key),
        request,
        reply,
      };
      if (route.stream) {
        const items = await route.handler(context);
        return sendStream(reply.status(route.status ?? 200).type(route.stream), items);
      }
      const result = await route.handler(context);
      // An idempotent replay is not a second creation: 200 with Idempotent-Replayed, not 201.
      const status = reply.hasHeader('idempotent-replayed') ? 200 : (route.status ?? 200);
      return reply.status(status).send(route.response.parse(result));
    },
  });
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
  const routes = options.routes ?? apiRoutes;
  for (const route of routes) register(app, options.deps, route);

  const document = buildOpenApiDocument(routes, {
    serverUrl: options.deps.publicUrl,
    version: API_VERSION,
    agentApi: { prefix: AGENT_API_PREFIX, routes: agentRoutes.map((route) => ({ ...route, tag: 'Agent API' })) },
  });
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
