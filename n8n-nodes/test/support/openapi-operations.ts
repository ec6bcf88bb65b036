/**
 * The operations of Purser's OpenAPI document as method, full path below the origin (owner
 * paths under the document's server path, `/api/v1`; agent paths carry their own) and a pattern
 * that matches a concrete path of the operation.
 */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  path: string;
  pattern: RegExp;
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
    const full = item.servers ? path : `${basePath}${path}`;
    const pattern = new RegExp(`^${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, value]) => ({ operationId: (value as { operationId: string }).operationId, method: method.toUpperCase(), path: full, pattern }));
  });
}
