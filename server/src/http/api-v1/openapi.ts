/** Builds the OpenAPI 3.1 document of /api/v1 from the route declarations. */
import { z } from 'zod';
import type { ApiRoute } from './define-route';

/** What the document needs of a route: its declaration without the handler. */
export type DocumentedRoute = Pick<ApiRoute, 'method' | 'path' | 'operationId' | 'summary' | 'tag' | 'auth' | 'idempotent' | 'params' | 'query' | 'body' | 'response' | 'status' | 'stream'> & {
  /** Longer text for the reference page (markdown). */
  description?: string;
  /** Other success answers, e.g. 202 for a payment that waits for approval. */
  otherResponses?: Record<string, string>;
};

/** The agent API (spec section 7): its routes live under `prefix` and authenticate as agents. */
export interface AgentApiSection {
  prefix: string;
  routes: DocumentedRoute[];
}

type JsonSchema = Record<string, unknown>;

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

function operationOf(route: DocumentedRoute): JsonSchema {
  const status = String(route.status ?? 200);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    parameters: [
      ...parameters(route.params, 'path'),
      ...parameters(route.query, 'query'),
      ...(route.idempotent
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Same key and same body return the first result; same key with another body is 409.',
              schema: { type: 'string', minLength: 1, maxLength: 255 },
            },
          ]
        : []),
    ],
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.body, 'input') } } } }
      : {}),
    responses: {
      [status]: route.stream
        ? // A stream of lines: the schema is that of each line (OpenAPI 3.1 has no item schema yet).
          { description: 'Success: one JSON document per line, each of this schema', content: { [route.stream]: { schema: toSchema(route.response, 'output') } } }
        : { description: 'Success', content: { 'application/json': { schema: toSchema(route.response, 'output') } } },
      ...Object.fromEntries(Object.entries(route.otherResponses ?? {}).map(([code, description]) => [code, { description }])),
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
    ...(route.auth === 'public' ? { security: [] } : {}),
  };
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export function buildOpenApiDocument(routes: DocumentedRoute[], options: { serverUrl: string; version: string; agentApi?: AgentApiSection }): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const route of routes) {
    ((paths[openApiPath(route.path)] ??= {}) as Record<string, JsonSchema>)[route.method.toLowerCase()] = operationOf(route);
  }
  // The agent API is served from another base path, so its paths carry their own server and
  // are keyed by their full path: no clash with an owner route of the same name.
  for (const route of options.agentApi?.routes ?? []) {
    const path = (paths[openApiPath(`${options.agentApi!.prefix}${route.path}`)] ??= { servers: [{ url: options.serverUrl }] }) as Record<string, JsonSchema>;
    path[route.method.toLowerCase()] = { ...operationOf(route), security: [{ agentDid: [], agentKey: [] }] };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Purser owner API',
      version: options.version,
      description:
        'Owner REST API: wallet, agents, agent transactions and API keys. Authenticate with `Authorization: Bearer <access token or owner API key>`. Amounts are dollars (numbers or decimal strings, at most 6 decimals).',
    },
    servers: [{ url: `${options.serverUrl}/api/v1` }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Access token or owner API key' },
        agentDid: { type: 'apiKey', in: 'header', name: 'X-Agent-DID', description: "The agent's DID (public: it selects the agent, the key proves it)" },
        agentKey: { type: 'http', scheme: 'bearer', description: "The agent's API key, shown once when the agent was created or its key rotated" },
      },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}
