/**
 * Clients that identify with a Client ID Metadata Document: fetched through the outbound fence,
 * so a document on an inward address (loopback, private, link-local, a metadata service) is
 * refused before any connection unless the deployment's allowlist names it; checked (its
 * client_id is its own URL, no secret, at most 5 KB, no redirect followed) and kept for a few
 * minutes. Two servers of one deployment: one with the production fence, one whose allowlist
 * names 127.0.0.1, where the documents are served.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveAuthorizationRequest } from '../src/services/oauth/approve-authorization-request';
import { getAuthorizationRequest } from '../src/services/oauth/get-authorization-request';
import { createOutboundPolicy, parseAllowlist } from '../src/services/outbound/outbound-policy';
import { authorizeParameters, authorizeRequest, consentRequestId, ownerWithAgent, pkcePair, tokenRequest } from './support/oauth-fixtures';
import { createTestApp, type TestApp } from './support/test-app';

const CALLBACK = 'http://127.0.0.1:7777/callback';

let fenced: TestApp;
let allowed: TestApp;
let documents: Server;
let base: string;
const hits = new Map<string, number>();

function documentFor(path: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { client_id: `${base}${path}`, client_name: 'Local MCP host', client_uri: 'https://host.example/', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', ...fields };
}

function serve(path: string): { status: number; headers?: Record<string, string>; body?: string } {
  switch (path) {
    case '/clients/good.json':
    case '/clients/cached.json':
      return { status: 200, body: JSON.stringify(documentFor(path)) };
    case '/clients/other-id.json':
      return { status: 200, body: JSON.stringify(documentFor('/clients/good.json')) };
    case '/clients/secret.json':
      return { status: 200, body: JSON.stringify(documentFor(path, { client_secret: 'shh' })) };
    case '/clients/confidential.json':
      return { status: 200, body: JSON.stringify(documentFor(path, { token_endpoint_auth_method: 'client_secret_basic' })) };
    case '/clients/big.json':
      return { status: 200, body: JSON.stringify(documentFor(path, { padding: 'x'.repeat(6 * 1024) })) };
    case '/clients/moved.json':
      return { status: 302, headers: { location: '/clients/good.json' } };
    default:
      return { status: 404 };
  }
}

beforeAll(async () => {
  documents = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = serve(path);
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  fenced = await createTestApp({ outbound: createOutboundPolicy(), oauthRateLimits: { register: 2 } });
  allowed = await createTestApp({
    outbound: createOutboundPolicy({ allowlist: parseAllowlist('127.0.0.1') }),
    deployment: { db: fenced.deps.db, masterKey: fenced.deps.masterKey },
  });
});

afterAll(async () => {
  await allowed?.cleanup();
  await fenced?.cleanup();
  await new Promise((resolve) => documents?.close(resolve));
});

const totalHits = () => [...hits.values()].reduce((sum, count) => sum + count, 0);
const requestCount = () => fenced.deps.db.prisma.oauthAuthorizationRequest.count();

function authorizeAs(app: TestApp, clientId: string, overrides: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return authorizeRequest(app.app, authorizeParameters(app.deps.publicUrl, clientId, pkcePair().challenge, { redirect_uri: CALLBACK, ...overrides }));
}

function expectRefused(response: LightMyRequestResponse, error: string, description?: RegExp): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.headers.location).toBeUndefined();
  const body = response.json() as { error: string; error_description: string };
  expect(body.error).toBe(error);
  if (description) expect(body.error_description).toMatch(description);
}

describe('the outbound fence', () => {
  it('refuses a metadata document on an inward address before connecting, storing nothing', async () => {
    const before = { hits: totalHits(), requests: await requestCount() };
    expectRefused(await authorizeAs(fenced, `${base}/clients/good.json`), 'invalid_client', /loopback/);
    expectRefused(await authorizeAs(fenced, 'https://10.0.0.7/clients/host.json'), 'invalid_client', /private/);
    expectRefused(await authorizeAs(fenced, 'https://169.254.169.254/latest/meta-data/client'), 'invalid_client', /link-local/);
    expectRefused(await authorizeAs(fenced, 'https://metadata.google.internal/client.json'), 'invalid_client', /metadata/);
    expect({ hits: totalHits(), requests: await requestCount() }).toEqual(before);
  });

  it("accepts a document on loopback where the allowlist names it: the consent page shows the client's claims, and the code is redeemed with the URL as client_id", async () => {
    const owner = await ownerWithAgent(allowed);
    const clientId = `${base}/clients/good.json`;
    const { verifier, challenge } = pkcePair();
    const redirectUri = 'http://127.0.0.1:40001/callback';
    const parameters = authorizeParameters(allowed.deps.publicUrl, clientId, challenge, { redirect_uri: redirectUri });
    const requestId = consentRequestId(await authorizeRequest(allowed.app, parameters), allowed.deps.publicUrl);
    expect(await getAuthorizationRequest(allowed.deps, owner.userId, requestId)).toMatchObject({ client: { id: clientId, name: 'Local MCP host', uri: 'https://host.example/' }, redirectUri });

    const approved = await approveAuthorizationRequest(allowed.deps, owner.userId, requestId, { agentId: owner.agentId, scopes: ['read'] });
    const code = new URL(approved.redirectUrl).searchParams.get('code')!;
    const response = await tokenRequest(allowed.app, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ token_type: 'Bearer', scope: 'read' });
  });
});

describe('the document', () => {
  it('is refused when its client_id is not its own URL, it carries a secret or a confidential method, it is over 5 KB, or it redirects', async () => {
    const before = await requestCount();
    expectRefused(await authorizeAs(allowed, `${base}/clients/other-id.json`), 'invalid_client', /another client_id/);
    expectRefused(await authorizeAs(allowed, `${base}/clients/secret.json`), 'invalid_client', /client_secret/);
    expectRefused(await authorizeAs(allowed, `${base}/clients/confidential.json`), 'invalid_client', /public clients/);
    expectRefused(await authorizeAs(allowed, `${base}/clients/big.json`), 'invalid_client', /byte limit/);
    expectRefused(await authorizeAs(allowed, `${base}/clients/moved.json`), 'invalid_client', /HTTP 302/);
    expectRefused(await authorizeAs(allowed, `${base}/clients/missing.json`), 'invalid_client', /HTTP 404/);
    expect(await requestCount()).toBe(before);
  });

  it('is not fetched for a client_id that is not an https URL with a path in its normal form', async () => {
    const before = totalHits();
    expectRefused(await authorizeAs(allowed, 'http://client.example.com/host.json'), 'invalid_client', /https/);
    expectRefused(await authorizeAs(allowed, 'https://client.example.com/'), 'invalid_client', /path/);
    expectRefused(await authorizeAs(allowed, `${base}/clients/../clients/good.json`), 'invalid_client', /normal form/);
    expectRefused(await authorizeAs(allowed, `${base}/clients/good.json#fragment`), 'invalid_client');
    expect(totalHits()).toBe(before);
  });

  it('names the only redirect URIs the client may use', async () => {
    expectRefused(await authorizeAs(allowed, `${base}/clients/good.json`, { redirect_uri: 'https://attacker.example/callback' }), 'invalid_request', /redirect_uri/);
  });

  it('is kept a few minutes: a second authorization request does not fetch it again', async () => {
    const clientId = `${base}/clients/cached.json`;
    consentRequestId(await authorizeAs(allowed, clientId), allowed.deps.publicUrl);
    consentRequestId(await authorizeAs(allowed, clientId), allowed.deps.publicUrl);
    expect(hits.get('/clients/cached.json')).toBe(1);
  });
});

describe('dynamic registration', () => {
  it('is rate limited per client address', async () => {
    const register = () => fenced.app.inject({ method: 'POST', url: '/oauth/register', payload: { redirect_uris: [CALLBACK] } });
    expect((await register()).statusCode).toBe(201);
    expect((await register()).statusCode).toBe(201);
    const limited = await register();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('too_many_requests');
  });
});
