/**
 * What the OAuth server refuses, and that a refusal changes nothing (except a replay, which ends
 * the connection it belongs to): PKCE faults, redirect URIs that are not the registered one
 * (loopback ports aside), a reused code, a refresh token used twice, tokens for the other
 * resource, unknown clients, denials, a request decided twice, other owners' requests and agents,
 * suspended agents, and the token endpoint's malformed requests.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suspendAgent } from '../src/services/agents/suspend-agent';
import { approveAuthorizationRequest } from '../src/services/oauth/approve-authorization-request';
import { denyAuthorizationRequest } from '../src/services/oauth/deny-authorization-request';
import { exchangeAuthorizationCode } from '../src/services/oauth/exchange-authorization-code';
import { getAuthorizationRequest } from '../src/services/oauth/get-authorization-request';
import { listAgentConnections } from '../src/services/oauth/list-agent-connections';
import { verifyAccessToken } from '../src/services/oauth/verify-access-token';
import {
  authorizeParameters,
  authorizeRequest,
  connectClient,
  consentRequestId,
  ownerWithAgent,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  tokenRequest,
  type OwnerWithAgent,
} from './support/oauth-fixtures';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let publicUrl: string;
let mcpResource: string;
let agentApiResource: string;

beforeAll(async () => {
  t = await createTestApp({ oauthRateLimits: { register: 10_000 } });
  publicUrl = t.deps.publicUrl;
  mcpResource = `${publicUrl}/functions/v1/mcp-server/mcp`;
  agentApiResource = `${publicUrl}/functions/v1/mcp-server`;
});

afterAll(async () => {
  await t?.cleanup();
});

const counts = async () => ({
  requests: await t.deps.db.prisma.oauthAuthorizationRequest.count(),
  connections: await t.deps.db.prisma.oauthConnection.count(),
  tokens: await t.deps.db.prisma.oauthToken.count(),
});

function oauthError(response: LightMyRequestResponse): string {
  return (response.json() as { error: string }).error;
}

/** The error redirect of an authorization request: error, state and iss back at the client. */
function errorRedirect(response: LightMyRequestResponse): URLSearchParams {
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get('state')).toBe('state-123');
  expect(location.searchParams.get('iss')).toBe(publicUrl);
  return location.searchParams;
}

interface Approved {
  clientId: string;
  verifier: string;
  code: string;
  redirectUri: string;
}

/** Authorized and approved, the code not yet redeemed. */
async function approvedCode(owner: OwnerWithAgent, overrides: { redirectUri?: string; registered?: string[]; resource?: string } = {}): Promise<Approved> {
  const redirectUri = overrides.redirectUri ?? REDIRECT_URI;
  const clientId = await registerClient(t.app, overrides.registered ?? [redirectUri]);
  const { verifier, challenge } = pkcePair();
  const parameters = authorizeParameters(publicUrl, clientId, challenge, { redirect_uri: redirectUri, resource: overrides.resource ?? mcpResource });
  const requestId = consentRequestId(await authorizeRequest(t.app, parameters), publicUrl);
  const approved = await approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: owner.agentId, scopes: ['read', 'pay'] });
  return { clientId, verifier, code: new URL(approved.redirectUrl).searchParams.get('code')!, redirectUri };
}

const redeem = (approved: Approved, overrides: Record<string, string> = {}) =>
  tokenRequest(t.app, { grant_type: 'authorization_code', code: approved.code, redirect_uri: approved.redirectUri, code_verifier: approved.verifier, client_id: approved.clientId, ...overrides });

describe('PKCE', () => {
  it('refuses a wrong code verifier with invalid_grant and leaves the code for the rightful client', async () => {
    const approved = await approvedCode(await ownerWithAgent(t));
    const before = await counts();
    const wrong = await redeem(approved, { code_verifier: pkcePair().verifier });
    expect(wrong.statusCode).toBe(400);
    expect(oauthError(wrong)).toBe('invalid_grant');
    expect(wrong.headers['cache-control']).toBe('no-store');
    expect(await counts()).toEqual(before);
    expect((await redeem(approved)).statusCode).toBe(200);
  });

  it('refuses the plain method and a missing challenge at the authorization endpoint, back at the client, storing nothing', async () => {
    const clientId = await registerClient(t.app);
    const { verifier, challenge } = pkcePair();
    const before = await counts();
    const plain = errorRedirect(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, verifier, { code_challenge_method: 'plain' })));
    expect(plain.get('error')).toBe('invalid_request');
    expect(plain.get('error_description')).toMatch(/S256/);
    expect(errorRedirect(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { code_challenge_method: undefined }))).get('error')).toBe('invalid_request');
    expect(errorRedirect(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { code_challenge: undefined }))).get('error')).toBe('invalid_request');
    expect(errorRedirect(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { response_type: 'token' }))).get('error')).toBe('unsupported_response_type');
    expect(errorRedirect(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { scope: 'read admin' }))).get('error')).toBe('invalid_scope');
    expect(await counts()).toEqual(before);
  });
});

describe('authorization codes', () => {
  it('is good once: a reused code is refused and revokes the connection and every token issued with it', async () => {
    const owner = await ownerWithAgent(t);
    const approved = await approvedCode(owner);
    const first = (await redeem(approved)).json();
    expect(await verifyAccessToken(t.deps, first.access_token, mcpResource)).toMatchObject({ ok: true });

    const reused = await redeem(approved);
    expect(reused.statusCode).toBe(400);
    expect(oauthError(reused)).toBe('invalid_grant');
    expect(await verifyAccessToken(t.deps, first.access_token, mcpResource)).toEqual({ ok: false, refusal: 'token_revoked' });
    const refresh = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: approved.clientId });
    expect(oauthError(refresh)).toBe('invalid_grant');
    const [connection] = (await listAgentConnections(t.deps, owner.userId, owner.agentId)).connections;
    expect(connection).toMatchObject({ revokedReason: 'authorization_code_reuse' });
  });

  it('is refused after its 60 seconds and for another client, changing nothing', async () => {
    const approved = await approvedCode(await ownerWithAgent(t));
    const form = { grant_type: 'authorization_code', code: approved.code, redirect_uri: approved.redirectUri, code_verifier: approved.verifier, client_id: approved.clientId };
    await expect(exchangeAuthorizationCode(t.deps, form, new Date(Date.now() + 61_000))).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(oauthError(await redeem(approved, { client_id: await registerClient(t.app) }))).toBe('invalid_grant');
    expect((await redeem(approved)).statusCode).toBe(200);
  });
});

describe('redirect URIs', () => {
  it('refuses one that differs by one character, at the authorization endpoint without redirecting and at the token endpoint', async () => {
    const clientId = await registerClient(t.app);
    const { challenge } = pkcePair();
    const before = await counts();
    const refused = await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { redirect_uri: `${REDIRECT_URI}x` }));
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.location).toBeUndefined();
    expect(oauthError(refused)).toBe('invalid_request');
    expect(await counts()).toEqual(before);

    const approved = await approvedCode(await ownerWithAgent(t));
    expect(oauthError(await redeem(approved, { redirect_uri: REDIRECT_URI.replace('callback', 'callbacK') }))).toBe('invalid_grant');
    expect((await redeem(approved)).statusCode).toBe(200);
  });

  it('accepts a loopback redirect URI on another port than the registered one (RFC 8252), and only that difference', async () => {
    const owner = await ownerWithAgent(t);
    const approved = await approvedCode(owner, { registered: ['http://127.0.0.1:8123/callback'], redirectUri: 'http://127.0.0.1:51234/callback' });
    expect((await redeem(approved)).statusCode).toBe(200);

    const clientId = await registerClient(t.app, ['http://127.0.0.1:8123/callback', 'http://[::1]/cb']);
    const { challenge } = pkcePair();
    consentRequestId(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { redirect_uri: 'http://[::1]:40000/cb' })), publicUrl);
    for (const other of ['http://127.0.0.1:51234/callbacks', 'http://localhost:8123/callback', 'https://127.0.0.1:8123/callback']) {
      const refused = await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { redirect_uri: other }));
      expect(refused.statusCode, other).toBe(400);
    }
  });
});

describe('resources', () => {
  it('binds a token to the resource it was authorized for: refused on the other one, and a code is not redeemed for another', async () => {
    const owner = await ownerWithAgent(t);
    const connected = await connectClient(t, owner, { resource: agentApiResource });
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, `${agentApiResource}/`)).toMatchObject({ ok: true });
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource)).toEqual({ ok: false, refusal: 'wrong_resource' });

    const approved = await approvedCode(owner, { resource: agentApiResource });
    const other = await redeem(approved, { resource: mcpResource });
    expect(other.statusCode).toBe(400);
    expect(oauthError(other)).toBe('invalid_target');
    expect((await redeem(approved, { resource: agentApiResource })).statusCode).toBe(200);
  });

  it('refuses an authorization request for a resource that is not exactly one of the two', async () => {
    const clientId = await registerClient(t.app);
    const { challenge } = pkcePair();
    for (const resource of [`${mcpResource}/tools`, 'https://elsewhere.example/functions/v1/mcp-server/mcp', `${publicUrl}/api/v1`, undefined]) {
      const back = errorRedirect(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { resource })));
      expect(back.get('error'), resource).toBe('invalid_target');
    }
  });
});

describe('refresh tokens', () => {
  it('used twice revoke the whole family: the connection, its newest refresh token and its access tokens', async () => {
    const owner = await ownerWithAgent(t);
    const connected = await connectClient(t, owner);
    const refresh = (token: string) => tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: token, client_id: connected.clientId });
    const rotated = (await refresh(connected.tokens.refresh_token)).json();

    const replay = await refresh(connected.tokens.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(oauthError(replay)).toBe('invalid_grant');
    expect(oauthError(await refresh(rotated.refresh_token))).toBe('invalid_grant');
    expect(await verifyAccessToken(t.deps, rotated.access_token, mcpResource)).toEqual({ ok: false, refusal: 'token_revoked' });
    const [connection] = (await listAgentConnections(t.deps, owner.userId, owner.agentId)).connections;
    expect(connection).toMatchObject({ revokedReason: 'refresh_token_reuse' });
  });

  it('refuses, without spending it, a refresh for wider scopes, another resource or another client', async () => {
    const connected = await connectClient(t, await ownerWithAgent(t), { scopes: ['read'] });
    const base = { grant_type: 'refresh_token', refresh_token: connected.tokens.refresh_token, client_id: connected.clientId };
    expect(oauthError(await tokenRequest(t.app, { ...base, scope: 'read pay' }))).toBe('invalid_scope');
    expect(oauthError(await tokenRequest(t.app, { ...base, resource: agentApiResource }))).toBe('invalid_target');
    expect(oauthError(await tokenRequest(t.app, { ...base, client_id: await registerClient(t.app) }))).toBe('invalid_grant');
    expect((await tokenRequest(t.app, base)).statusCode).toBe(200);
  });
});

describe('clients', () => {
  it('refuses an unknown client without redirecting, as JSON or as a page', async () => {
    const { challenge } = pkcePair();
    for (const clientId of ['0196f0c8-0000-7000-8000-000000000000', 'not-a-client']) {
      const refused = await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge));
      expect(refused.statusCode).toBe(400);
      expect(refused.headers.location).toBeUndefined();
      expect(oauthError(refused)).toBe('invalid_client');
    }
    const page = await t.app.inject({ method: 'GET', url: `/oauth/authorize?client_id=nobody&response_type=code`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('invalid_client');
  });
});

describe('the consent decision', () => {
  async function pendingRequest(): Promise<{ owner: OwnerWithAgent; requestId: string }> {
    const owner = await ownerWithAgent(t);
    const clientId = await registerClient(t.app);
    const requestId = consentRequestId(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, pkcePair().challenge, { scope: 'read pay' })), publicUrl);
    return { owner, requestId };
  }

  it('a denial goes back to the client as access_denied with state and iss, and creates no connection', async () => {
    const { owner, requestId } = await pendingRequest();
    const before = await counts();
    const denied = await denyAuthorizationRequest(t.deps, owner.userId, requestId);
    const back = new URL(denied.redirectUrl).searchParams;
    expect(Object.fromEntries(back)).toMatchObject({ error: 'access_denied', state: 'state-123', iss: publicUrl });
    expect(await counts()).toEqual(before);
    expect(await getAuthorizationRequest(t.deps, owner.userId, requestId)).toMatchObject({ status: 'denied' });
  });

  it('is taken once: a second approval or a denial after it is refused and changes nothing', async () => {
    const { owner, requestId } = await pendingRequest();
    await approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: owner.agentId, scopes: ['read'] });
    const before = await counts();
    await expect(approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: owner.agentId, scopes: ['read'] })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(denyAuthorizationRequest(t.deps, owner.userId, requestId)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await counts()).toEqual(before);
  });

  it("refuses another owner's request and another owner's agent, and the request stays the owner's to decide", async () => {
    const { owner, requestId } = await pendingRequest();
    const stranger = await ownerWithAgent(t, 'Stranger agent');
    // Opened first by its owner, the request is theirs.
    await getAuthorizationRequest(t.deps, owner.userId, requestId);
    await expect(getAuthorizationRequest(t.deps, stranger.userId, requestId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(approveAuthorizationRequest(t.deps, stranger.userId, requestId, { agentId: stranger.agentId, scopes: ['read'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(denyAuthorizationRequest(t.deps, stranger.userId, requestId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: stranger.agentId, scopes: ['read'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await getAuthorizationRequest(t.deps, owner.userId, requestId)).toMatchObject({ status: 'pending' });
    await expect(approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: owner.agentId, scopes: ['read'] })).resolves.toMatchObject({ connection: { agentId: owner.agentId } });
  });

  it('refuses scopes beyond the request, a suspended agent, a past expiry and an expired request, changing nothing', async () => {
    const { owner, requestId } = await pendingRequest();
    const before = await counts();
    const approve = (approval: Partial<Parameters<typeof approveAuthorizationRequest>[3]>, now?: Date) =>
      approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: owner.agentId, scopes: ['read'], ...approval }, now);
    await expect(approve({ scopes: ['read', 'fetch'] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(approve({ expiresAt: new Date(Date.now() - 1000) })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(approve({}, new Date(Date.now() + 11 * 60_000))).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'expired' } });
    await suspendAgent(t.deps, owner.userId, owner.agentId);
    await expect(approve({})).rejects.toMatchObject({ code: 'AGENT_SUSPENDED' });
    expect(await counts()).toEqual(before);
  });
});

describe('agents and connections that end', () => {
  it("suspending the agent ends its tokens' use at once and its refreshes, without spending the refresh token", async () => {
    const owner = await ownerWithAgent(t);
    const connected = await connectClient(t, owner);
    await suspendAgent(t.deps, owner.userId, owner.agentId);
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource)).toEqual({ ok: false, refusal: 'agent_suspended' });
    const refresh = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: connected.tokens.refresh_token, client_id: connected.clientId });
    expect(oauthError(refresh)).toBe('invalid_grant');
    const token = await t.deps.db.prisma.oauthToken.findFirstOrThrow({ where: { connectionId: connected.connectionId, kind: 'refresh' }, select: { usedAt: true, revokedAt: true } });
    expect(token).toEqual({ usedAt: null, revokedAt: null });
  });

  it('refuses tokens that are not ours, and tokens past the end of their connection', async () => {
    const owner = await ownerWithAgent(t);
    const connected = await connectClient(t, owner);
    expect(await verifyAccessToken(t.deps, 'purser_at_nothing', mcpResource)).toEqual({ ok: false, refusal: 'unknown_token' });
    expect(await verifyAccessToken(t.deps, connected.tokens.refresh_token, mcpResource)).toEqual({ ok: false, refusal: 'unknown_token' });
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource, new Date(Date.now() + 61 * 60_000))).toEqual({ ok: false, refusal: 'token_expired' });
    await t.deps.db.prisma.oauthConnection.update({ where: { id: connected.connectionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource)).toEqual({ ok: false, refusal: 'connection_expired' });
  });
});

describe('the token endpoint', () => {
  it('answers malformed requests in RFC 6749 form, never cached', async () => {
    const unsupported = await tokenRequest(t.app, { grant_type: 'password', username: 'a', password: 'b' });
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json()).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
    expect(oauthError(await tokenRequest(t.app, { grant_type: 'authorization_code', code: 'x' }))).toBe('invalid_request');
    expect(oauthError(await tokenRequest(t.app, { client_id: 'x' }))).toBe('invalid_request');
    const json = await t.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'y' } });
    expect(json.statusCode).toBe(400);
    expect(oauthError(json)).toBe('invalid_request');
    const twice = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=c',
    });
    expect(oauthError(twice)).toBe('invalid_request');
    expect(twice.headers['cache-control']).toBe('no-store');
  });
});
