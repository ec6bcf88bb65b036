/**
 * The OpenAPI document as GET /api/v1/openapi.json serves it, built without a database:
 * building it needs only the public URL, and no route is called; and its operations as the
 * SDK's and the n8n nodes' drift checks compare them with what they send.
 */
import Fastify from 'fastify';
import { apiV1Plugin } from '../../src/http/api-v1/plugin';
import type { AppDeps } from '../../src/deps';

export async function servedOpenApiDocument(publicUrl: string): Promise<unknown> {
  const app = Fastify();
  try {
    await app.register(apiV1Plugin, { deps: { publicUrl } as AppDeps });
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.statusCode}: ${response.body}`);
    return response.json();
  } finally {
    await app.close();
  }
}

/**
 * An operation of the document as the drift checks compare it: method, full path below the
 * origin (owner paths carry the document's server path, `/api/v1`; paths with servers of their
 * own carry them), operationId, whether it documents an `Idempotency-Key` and a request body,
 * and whether it answers a JSON Lines download.
 */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** `/api/v1/agents/{agentId}`. */
  path: string;
  /** Matches a concrete path of the operation: `/api/v1/agents/<anything but a slash>`. */
  pattern: RegExp;
  idempotencyKey: boolean;
  requestBody: boolean;
  /** A success answer is `application/x-ndjson` (the audit export), not JSON. */
  stream: boolean;
}

interface OpenApiOperation {
  operationId: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

interface OpenApiDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown> & { servers?: Array<{ url: string }> }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function documentedOperations(document: unknown): DocumentedOperation[] {
  const { servers, paths } = document as OpenApiDocument;
  const basePath = new URL(servers[0]!.url).pathname.replace(/\/$/, '');
  return Object.entries(paths).flatMap(([path, item]) => {
    // A path with servers of its own (the agent API) is keyed by its full path already.
    const full = item.servers ? path : `${basePath}${path}`;
    const pattern = new RegExp(`^${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, value]) => {
        const operation = value as OpenApiOperation;
        return {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path: full,
          pattern,
          idempotencyKey: (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key'),
          requestBody: operation.requestBody !== undefined,
          stream: Object.entries(operation.responses ?? {}).some(([status, response]) => /^2/.test(status) && 'application/x-ndjson' in (response.content ?? {})),
        };
      });
  });
}

/**
 * The operation a request went to. `/agents/kill-switch` also fits `/agents/{agentId}`; as the
 * server routes it, a path with fewer parameters wins.
 */
export function operationAt(documented: readonly DocumentedOperation[], method: string, path: string): DocumentedOperation | undefined {
  const parameters = (operation: DocumentedOperation) => operation.path.split('{').length;
  return documented
    .filter((operation) => operation.method === method && operation.pattern.test(path))
    .sort((a, b) => parameters(a) - parameters(b))[0];
}
