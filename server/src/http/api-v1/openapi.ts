/**
 * Builds the OpenAPI 3.1 document of every REST surface from the route declarations: the owner
 * API under /api/v1 (the document's server), and sections served from other base paths (the
 * agent API, the edge functions, /auth/v1, the identity documents, the assistant, the sandbox's
 * paid API), whose paths carry their full path and their own server.
 */
import { z } from 'zod';
import { OAUTH_SCOPE_DESCRIPTIONS, OWNER_API_KEY_SCOPE_DESCRIPTIONS, OWNER_API_KEY_SCOPES } from '@purser/core';
import { OAUTH_PATHS } from '../../services/oauth/oauth-discovery';
import type { ApiRoute } from './define-route';

/** What the document needs of a route: its declaration without the handler. */
export type DocumentedRoute = Pick<
  ApiRoute,
  | 'method'
  | 'path'
  | 'operationId'
  | 'summary'
  | 'description'
  | 'tag'
  | 'auth'
  | 'scope'
  | 'idempotent'
  | 'params'
  | 'query'
  | 'body'
  | 'response'
  | 'status'
  | 'stream'
  | 'mediaType'
  | 'otherResponses'
>;

/** Routes served below `prefix` rather than /api/v1. */
export interface ApiSection {
  prefix: string;
  routes: DocumentedRoute[];
  /** Replaces each operation's security (the agent API authenticates as the agent), given or per route. */
  security?: JsonSchema[] | ((route: DocumentedRoute) => JsonSchema[]);
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

/** An empty body is refused: the body is required (a refresh token may come as a cookie instead). */
const bodyRequired = (schema: z.ZodType) => !schema.safeParse({}).success;

function successOf(route: DocumentedRoute): JsonSchema {
  if (route.status === 204) return { description: 'Success, no content' };
  if (route.stream) {
    // A stream of lines: the schema is that of each line (OpenAPI 3.1 has no item schema yet).
    return { description: 'Success: one JSON document per line, each of this schema', content: { [route.stream]: { schema: toSchema(route.response, 'output') } } };
  }
  const mediaType = route.mediaType ?? 'application/json';
  const description = mediaType === 'text/event-stream' ? 'Success: server-sent events, the data of each of this schema' : 'Success';
  return { description, content: { [mediaType]: { schema: toSchema(route.response, 'output') } } };
}

/** An owner operation names the one scope an owner API key must hold (OpenAPI 3.1 role names). */
function securityOf(route: DocumentedRoute): JsonSchema {
  if (route.auth === 'public') return { security: [] };
  if (route.auth === 'client-key') return { security: [{ clientKey: [] }] };
  return { security: [{ bearer: route.scope ? [route.scope] : [] }] };
}

const BEARER_DESCRIPTION =
  'An access token (a signed-in session: every operation) or an owner API key `psk_...`, which may call an operation only when it holds ' +
  "the scope the operation's security names (else 403 `API_KEY_SCOPE_MISSING`) and has not expired (else 401 `API_KEY_EXPIRED`); " +
  '`session` marks the operations no key may call. Scopes:\n\n' +
  OWNER_API_KEY_SCOPES.map((scope) => `- \`${scope}\`: ${OWNER_API_KEY_SCOPE_DESCRIPTIONS[scope]}`).join('\n');

function operationOf(route: DocumentedRoute): JsonSchema {
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
      ? { requestBody: { required: bodyRequired(route.body), content: { 'application/json': { schema: toSchema(route.body, 'input') } } } }
      : {}),
    responses: {
      [String(route.status ?? 200)]: successOf(route),
      ...Object.fromEntries(Object.entries(route.otherResponses ?? {}).map(([code, description]) => [code, { description }])),
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
    ...securityOf(route),
  };
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export function buildOpenApiDocument(routes: DocumentedRoute[], options: { serverUrl: string; version: string; sections?: ApiSection[] }): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const route of routes) {
    ((paths[openApiPath(route.path)] ??= {}) as Record<string, JsonSchema>)[route.method.toLowerCase()] = operationOf(route);
  }
  // Keyed by their full path, with a server of their own: no clash with an owner route of the same name.
  for (const section of options.sections ?? []) {
    for (const route of section.routes) {
      const key = openApiPath(`${section.prefix}${route.path}`);
      const path = (paths[key] ??= { servers: [{ url: options.serverUrl }] }) as Record<string, JsonSchema>;
      // An /api/v1 path of the same name has no servers of its own: the key would mean both.
      if (!path.servers) throw new Error(`${key} is both an /api/v1 path and a path of its own`);
      const security = typeof section.security === 'function' ? section.security(route) : section.security;
      path[route.method.toLowerCase()] = { ...operationOf(route), ...(security ? { security } : {}) };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Purser owner API',
      version: options.version,
      description:
        'Owner REST API: wallet, agents, agent transactions and API keys. Authenticate with `Authorization: Bearer <access token or owner API key>`. Amounts are dollars (numbers or decimal strings, at most 6 decimals). ' +
        'Paths outside /api/v1 (the agent API, the edge functions, /auth/v1, identity documents, the assistant and the sandbox\'s paid API) name their own server.',
    },
    servers: [{ url: `${options.serverUrl}/api/v1` }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: BEARER_DESCRIPTION },
        agentDid: { type: 'apiKey', in: 'header', name: 'X-Agent-DID', description: "The agent's DID (public: it selects the agent, the key proves it)" },
        agentKey: { type: 'http', scheme: 'bearer', description: "The agent's API key, shown once when the agent was created or its key rotated" },
        clientKey: { type: 'http', scheme: 'bearer', description: "The web app's public anonymous key (not a secret: it names the client)" },
        agentOAuth: {
          type: 'oauth2',
          description:
            "An OAuth 2.1 access token of an MCP host the owner connected on Purser's consent page, sent alone (no X-Agent-DID): it acts as the agent the owner chose, " +
            'on the resource it was issued for, within its scopes (else 403 `INSUFFICIENT_SCOPE`) and its connection\'s spending cap. PKCE (S256) is required.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${options.serverUrl}${OAUTH_PATHS.authorize}`,
              tokenUrl: `${options.serverUrl}${OAUTH_PATHS.token}`,
              refreshUrl: `${options.serverUrl}${OAUTH_PATHS.token}`,
              scopes: OAUTH_SCOPE_DESCRIPTIONS,
            },
          },
        },
      },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}
