/**
 * Every HTTP route the app serves is in the OpenAPI document, and every documented operation is
 * served where the document says: a route registered outside defineRoute (register-route.ts)
 * fails here. Fastify's onRoute hook lists what the app registers, the sandbox's paid API
 * included; the only routes left out are those that are not REST operations, each with its
 * reason.
 */
import type * as Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OWNER_API_KEY_SCOPES } from '@purser/core';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { chainNotInThisTest, createTestApp, type TestApp } from './support/test-app';

const registered = vi.hoisted(() => [] as Array<{ method: string; url: string }>);

// Every Fastify instance the app builds reports each route it registers, before any plugin runs.
vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof Fastify>();
  const create = ((options?: Parameters<typeof fastify.default>[0]) => {
    const app = fastify.default(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url ?? route.path });
    });
    return app;
  }) as typeof fastify.default;
  return { ...fastify, default: create };
});

/** Not REST operations: each has its own contract, or is the document itself. */
const NOT_IN_DOCUMENT: Array<{ route: RegExp; why: string }> = [
  { route: /^[A-Z]+ \/trpc\//, why: "the web app's tRPC procedures: typed by AppRouter" },
  { route: /^(GET|POST|DELETE) \/functions\/v1\/mcp-server\/mcp$/, why: 'the MCP endpoint: JSON-RPC, described by tools/list' },
  { route: /^GET \/api\/v1\/openapi\.json$/, why: 'the document itself' },
  { route: /^GET \/docs\/api(\/setup\.js|\/reference\.js)?$/, why: 'the reference page that shows the document' },
  { route: /^GET \/healthz$/, why: "the operator's health check (app.ts), not an API of the product" },
  { route: /^GET \/metrics$/, why: "Prometheus's scrape (app.ts): its format is Prometheus's, its metrics in docs/operations.md" },
  {
    route: /^(GET|POST|OPTIONS) \/(oauth\/(authorize|token|register|revoke)|\.well-known\/oauth-(authorization-server|protected-resource\/.+))$/,
    why: "the OAuth 2.1 server (http/oauth-routes.ts): its forms and errors are RFC 6749's, described by its RFC 8414 and RFC 9728 metadata",
  },
];

/** A sandbox chain that is never called: building the paid API only reads it. */
function sandboxChainNotCalled(): EvmChain {
  const { info } = chainNotInThisTest({ sandbox: true });
  const facilitator = new Proxy({}, {
    get() {
      throw new Error('This test calls no facilitator');
    },
  });
  return { info, sandboxSeller: '0x00000000000000000000000000000000000000aa', facilitator } as unknown as EvmChain;
}

let t: TestApp;
let served: string[];
let documented: string[];

beforeAll(async () => {
  t = await createTestApp({ chain: sandboxChainNotCalled(), sandboxPaidApi: true });
  const operations = new Set(registered.map(({ method, url }) => `${method} ${url}`));
  // Fastify answers HEAD for every GET route by itself.
  served = [...operations].filter((operation) => !(operation.startsWith('HEAD ') && operations.has(operation.replace(/^HEAD /, 'GET '))));

  const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, unknown> & { servers?: unknown[] }>;
  };
  const base = new URL(document.servers[0]!.url).pathname;
  documented = Object.entries(document.paths).flatMap(([path, item]) => {
    // Paths with a server of their own carry their full path; the others are below /api/v1.
    const full = (item.servers ? path : `${base}${path}`).replace(/\{([^}]+)\}/g, ':$1');
    return Object.keys(item)
      .filter((key) => key !== 'servers')
      .map((method) => `${method.toUpperCase()} ${full}`);
  });
});

afterAll(async () => {
  await t?.cleanup();
});

describe('the OpenAPI document', () => {
  it('describes every route the app serves, except the few that are not REST operations', () => {
    const inDocument = new Set(documented);
    const undocumented = served.filter((operation) => !inDocument.has(operation) && !NOT_IN_DOCUMENT.some(({ route }) => route.test(operation)));
    expect(undocumented).toEqual([]);
    // The sandbox's paid API, /functions/v1 and /auth/v1 were seen, so the check saw them too.
    expect(served).toEqual(expect.arrayContaining(['GET /sandbox/paid/weather', 'POST /functions/v1/top-up-wallet', 'POST /auth/v1/token', 'GET /1.0/identifiers/:did']));
  });

  it('describes no operation the app does not serve at that method and path', () => {
    const servedSet = new Set(served);
    expect(documented.filter((operation) => !servedSet.has(operation))).toEqual([]);
  });

  it('leaves out only routes that exist: each exception still matches a served route', () => {
    for (const { route, why } of NOT_IN_DOCUMENT) expect(served.some((operation) => route.test(operation)), why).toBe(true);
  });
});

describe('the API key scope of each owner operation', () => {
  type Operation = { operationId: string; security?: Array<Record<string, string[]>> };

  async function operations(): Promise<Array<Operation & { method: string }>> {
    const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, Operation | unknown[]>> };
    return Object.values(document.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([key]) => key !== 'servers')
        .map(([method, operation]) => ({ ...(operation as Operation), method: method.toUpperCase() })),
    );
  }

  it('is exactly one per owner operation, from the fixed list, so no owner route is served without one', async () => {
    const scopes = new Set<string>([...OWNER_API_KEY_SCOPES, 'session']);
    const all = await operations();
    const owner = all.filter((operation) => operation.security?.some((requirement) => 'bearer' in requirement));
    for (const operation of all) {
      // Every operation says who may call it; none falls back to the document's default.
      expect(operation.security, operation.operationId).toBeDefined();
    }
    for (const operation of owner) {
      expect(operation.security, operation.operationId).toEqual([{ bearer: [expect.any(String)] }]);
      const [scope] = operation.security![0]!.bearer!;
      expect(scopes.has(scope!), `${operation.operationId}: ${scope}`).toBe(true);
      // read is every read, and nothing else: a write never passes for a read.
      expect(scope === 'read', `${operation.operationId} (${operation.method}) requires ${scope}`).toBe(operation.method === 'GET');
    }
    // /api/v1, the edge functions and /auth/v1/user were all seen.
    expect(owner.length).toBeGreaterThan(50);
    const scopeOf = (id: string) => owner.find((operation) => operation.operationId === id)?.security?.[0]?.bearer;
    expect(scopeOf('approveIntent')).toEqual(['payments:approve']);
    expect(scopeOf('functionFundAgent')).toEqual(['wallet:fund']);
    expect(scopeOf('getUser')).toEqual(['read']);
    expect(scopeOf('createApiKey')).toEqual(['session']);
  });
});
