/**
 * The operations of an OpenAPI document as the SDK's drift checks compare them: method, full
 * path below the origin (owner paths carry the document's server path, `/api/v1`; agent paths
 * carry their own), operationId, whether it documents an `Idempotency-Key` and a request body,
 * and whether it answers a JSON Lines download.
 */

import { AGENT_API_PREFIX } from '@purser/core';
import { OWNER_API_BASE_PATH } from '../../src/operations';

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

/**
 * The operations the SDK covers: the owner API and the agent API. The document also lists the
 * sign-in endpoints (the SDK's session calls, checked on their own), the edge functions, the
 * public identity documents, the assistant and the sandbox's paid API, which the SDK does not wrap.
 */
export function sdkSurfaceOperations(document: unknown): DocumentedOperation[] {
  return documentedOperations(document).filter((operation) => operation.path.startsWith(`${OWNER_API_BASE_PATH}/`) || operation.path.startsWith(AGENT_API_PREFIX));
}
