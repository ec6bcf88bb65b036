/**
 * The SDK cannot drift from the API: the OpenAPI document is built the way the server serves it
 * (apiV1Plugin answering /api/v1/openapi.json), and checked against the SDK both ways: every
 * operation of the document has an SDK method that sends it, every SDK method sends an operation
 * of the document, money-moving operations (those documenting `Idempotency-Key`) are the ones
 * the SDK sends a key with, and downloads (JSON Lines) are the ones it reads as text. sdk/test/sdk.temporal.test.ts repeats the first check against
 * the document a started product serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_API_PREFIX } from '@purser/core';
import { servedOpenApiDocument } from '@purser/server/testing';
import { PurserAgentClient } from './agent-client';
import { AGENT_API_BASE_PATH, BASE_PATHS, OPERATIONS, OWNER_API_BASE_PATH, type Operation } from './operations';
import { PurserOwnerClient } from './owner-client';
import { operationAt, sdkSurfaceOperations, type DocumentedOperation } from '../test/support/openapi-operations';

const ORIGIN = 'http://sdk.test';
let documented: DocumentedOperation[];

beforeAll(async () => {
  documented = sdkSurfaceOperations(await servedOpenApiDocument(ORIGIN));
}, 120_000);

const sdkOperations = () => Object.values(OPERATIONS).filter((operation) => operation.surface !== 'auth');
const key = (operation: { method: string; path: string }) => `${operation.method} ${operation.path}`;
const fullPath = (operation: Operation) => `${BASE_PATHS[operation.surface]}${operation.path}`;

describe('the operation table', () => {
  it('has every operation of the OpenAPI document, with its method, path and operationId', () => {
    expect(documented.length).toBeGreaterThanOrEqual(49);
    const sdk = new Map<string, string>(sdkOperations().map((operation) => [operation.operationId, key({ method: operation.method, path: fullPath(operation) })]));
    const missing = documented.filter((operation) => sdk.get(operation.operationId) !== key(operation)).map(key);
    expect(missing).toEqual([]);
  });

  it('has no operation the OpenAPI document does not have', () => {
    const inDocument = new Set(documented.map((operation) => operation.operationId));
    expect(sdkOperations().filter((operation) => !inDocument.has(operation.operationId)).map((operation) => operation.operationId)).toEqual([]);
  });

  it('marks exactly the operations that document an Idempotency-Key as money-moving', () => {
    const documentedMoney = documented.filter((operation) => operation.idempotencyKey).map((operation) => operation.operationId).sort();
    const sdkMoney = sdkOperations().filter((operation) => operation.idempotencyKey).map((operation) => operation.operationId).sort();
    expect(documentedMoney.length).toBeGreaterThan(0);
    expect(sdkMoney).toEqual(documentedMoney);
  });

  it('marks exactly the operations that answer JSON Lines as downloads', () => {
    const documentedStreams = documented.filter((operation) => operation.stream).map((operation) => operation.operationId).sort();
    const sdkStreams = sdkOperations().filter((operation) => operation.stream).map((operation) => operation.operationId).sort();
    expect(documentedStreams).toEqual(['exportAuditEntries']);
    expect(sdkStreams).toEqual(documentedStreams);
  });

  it('uses the base paths the server serves', () => {
    expect(AGENT_API_BASE_PATH).toBe(AGENT_API_PREFIX);
    expect(documented.filter((operation) => !operation.path.startsWith(OWNER_API_BASE_PATH) && !operation.path.startsWith(AGENT_API_PREFIX))).toEqual([]);
  });
});

interface Recorded {
  method: string;
  path: string;
  idempotencyKey: boolean;
  body: boolean;
  accept: string;
}

/** Every method of a client, found by walking it: its own namespaces and its class's methods. */
function methodsOf(client: object, prefix: string): Array<{ name: string; call: (...args: unknown[]) => Promise<unknown> }> {
  const found: Array<{ name: string; call: (...args: unknown[]) => Promise<unknown> }> = [];
  for (const [name, value] of Object.entries(client)) {
    if (typeof value === 'function') found.push({ name: `${prefix}.${name}`, call: value as (...args: unknown[]) => Promise<unknown> });
    // Namespaces are plain objects; class instances inside (the transport) are internals.
    else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) found.push(...methodsOf(value, `${prefix}.${name}`));
  }
  const prototype = Object.getPrototypeOf(client) as object;
  if (prototype === Object.prototype) return found;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const value = (client as Record<string, unknown>)[name];
    if (name !== 'constructor' && typeof value === 'function') found.push({ name: `${prefix}.${name}`, call: (value as (...args: unknown[]) => Promise<unknown>).bind(client) });
  }
  return found;
}

describe('the clients', () => {
  const recorded = new Map<string, Recorded[]>();
  let current = '';
  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    recorded.get(current)!.push({ method: init.method ?? 'GET', path: url.pathname, idempotencyKey: headers.has('idempotency-key'), body: init.body !== undefined, accept: headers.get('accept') ?? '' });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const owner = new PurserOwnerClient({ baseUrl: ORIGIN, token: 'token', fetch });
  const agent = new PurserAgentClient({ baseUrl: ORIGIN, did: 'did:agnic:00000000-0000-4000-8000-000000000000', apiKey: 'key', fetch });
  const methods = [...methodsOf(owner, 'owner'), ...methodsOf(agent, 'agent')];

  beforeAll(async () => {
    for (const method of methods) {
      current = method.name;
      recorded.set(method.name, []);
      // An id where an id goes; where a body or query goes, the same text serves for recording.
      await method.call('00000000-0000-4000-8000-000000000001', {}, {});
    }
  });

  afterAll(() => recorded.clear());

  function operationOf(request: Recorded): DocumentedOperation | undefined {
    return operationAt(documented, request.method, request.path);
  }

  it('each send exactly one request, and it is an operation of the OpenAPI document', () => {
    expect(methods.length).toBeGreaterThanOrEqual(49);
    const strays = methods.flatMap((method) => {
      const requests = recorded.get(method.name)!;
      if (requests.length !== 1) return [`${method.name} sent ${requests.length} requests`];
      return operationOf(requests[0]!) ? [] : [`${method.name} sent ${requests[0]!.method} ${requests[0]!.path}, which the document does not have`];
    });
    expect(strays).toEqual([]);
  });

  it('together send every operation of the OpenAPI document', () => {
    const sent = new Set([...recorded.values()].flat().map((request) => operationOf(request)?.operationId));
    expect(documented.filter((operation) => !sent.has(operation.operationId)).map((operation) => operation.operationId)).toEqual([]);
  });

  it('send an Idempotency-Key with exactly the money-moving operations, a body exactly where the document has one, and ask for JSON Lines exactly where it answers them', () => {
    const wrong = [...recorded.entries()].flatMap(([name, [request]]) => {
      const operation = operationOf(request!)!;
      const problems: string[] = [];
      if (request!.idempotencyKey !== operation.idempotencyKey) problems.push(`${name}: Idempotency-Key ${request!.idempotencyKey ? 'sent' : 'missing'}`);
      if (request!.body !== operation.requestBody) problems.push(`${name}: body ${request!.body ? 'sent' : 'missing'}`);
      if (request!.accept.startsWith('application/x-ndjson') !== operation.stream) problems.push(`${name}: Accept ${request!.accept}`);
      return problems;
    });
    expect(wrong).toEqual([]);
  });
});
