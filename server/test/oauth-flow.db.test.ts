/**
 * Purser's OAuth 2.1 authorization server from discovery to revocation, against a real app and
 * database: the metadata documents, an authorization request approved by the owner, the code
 * redeemed with PKCE, the access token verified for its resource, refresh with rotation, the
 * official MCP client's own OAuth flow (discovery, dynamic registration, token exchange) against
 * the app on 127.0.0.1, the console's list and revocation, RFC 7009, the audit entries and the
 * connection.* webhooks.
 */
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookEndpointInput, type OAuthScope } from '@purser/core';
import { createWebhookEndpoint } from '../src/services/webhooks/create-webhook-endpoint';
import { approveAuthorizationRequest } from '../src/services/oauth/approve-authorization-request';
import { getAuthorizationRequest } from '../src/services/oauth/get-authorization-request';
import { listAgentConnections } from '../src/services/oauth/list-agent-connections';
import { refreshAccessToken } from '../src/services/oauth/refresh-access-token';
import { startAuthorization } from '../src/services/oauth/start-authorization';
import { bearerChallenge } from '../src/services/oauth/oauth-discovery';
import { revokeConnection } from '../src/services/oauth/revoke-connection';
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
} from './support/oauth-fixtures';
import { listeningTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let publicUrl: string;
let mcpResource: string;
let agentApiResource: string;

beforeAll(async () => {
  const served = await listeningTestApp({ oauthRateLimits: { register: 10_000 } });
  t = served;
  publicUrl = served.appUrl;
  mcpResource = `${publicUrl}/functions/v1/mcp-server/mcp`;
  agentApiResource = `${publicUrl}/functions/v1/mcp-server`;
});

afterAll(async () => {
  await t?.cleanup();
});

async function auditActions(ownerId: string, connectionId: string): Promise<string[]> {
  const rows = await t.deps.db.prisma.auditEvent.findMany({ where: { ownerId, subject: `oauth_connection:${connectionId}` }, orderBy: { seq: 'asc' }, select: { action: true } });
  return rows.map((row) => row.action);
}

describe('discovery', () => {
  it('publishes RFC 8414 metadata: its endpoints, the code flow with PKCE S256, public clients, iss on the redirect and metadata documents', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.json()).toMatchObject({
      issuer: publicUrl,
      authorization_endpoint: `${publicUrl}/oauth/authorize`,
      token_endpoint: `${publicUrl}/oauth/token`,
      registration_endpoint: `${publicUrl}/oauth/register`,
      revocation_endpoint: `${publicUrl}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['read', 'pay', 'fetch'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it('publishes RFC 9728 metadata of the MCP endpoint and of the agent API at their path-inserted well-known URLs', async () => {
    for (const resource of [mcpResource, agentApiResource]) {
      const path = `/.well-known/oauth-protected-resource${new URL(resource).pathname}`;
      const response = await t.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(200);
      expect(response.json()).toMatchObject({ resource, authorization_servers: [publicUrl], scopes_supported: ['read', 'pay', 'fetch'], bearer_methods_supported: ['header'] });
    }
  });

  it("builds the 401's WWW-Authenticate challenge naming the resource's metadata document, which is served there", async () => {
    expect(bearerChallenge(mcpResource)).toBe(`Bearer resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/functions/v1/mcp-server/mcp"`);
    const challenge = bearerChallenge(agentApiResource, { error: 'invalid_token', description: 'The access token has "expired"' });
    expect(challenge).toBe(
      `Bearer error="invalid_token", error_description="The access token has \\"expired\\"", resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/functions/v1/mcp-server"`,
    );
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    expect((await fetch(metadataUrl)).status).toBe(200);
  });
});

describe('an authorization approved by the owner', () => {
  it('redirects to the consent page, shows the request, answers the code with state and iss, and the code buys tokens bound to the agent and the resource', async () => {
    const owner = await ownerWithAgent(t);
    const clientId = await registerClient(t.app, [REDIRECT_URI], 'Claude test host');
    const { verifier, challenge } = pkcePair();
    const requestId = consentRequestId(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { scope: 'read pay' })), publicUrl);

    const shown = await getAuthorizationRequest(t.deps, owner.userId, requestId);
    expect(shown).toMatchObject({ status: 'pending', client: { id: clientId, name: 'Claude test host', uri: null }, redirectUri: REDIRECT_URI, scopes: ['read', 'pay'], resource: mcpResource });

    const approved = await approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: owner.agentId, scopes: ['read', 'pay'], capUnits: 5_000_000n });
    const redirect = new URL(approved.redirectUrl);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get('state')).toBe('state-123');
    expect(redirect.searchParams.get('iss')).toBe(publicUrl);
    expect(approved.connection).toMatchObject({ agentId: owner.agentId, clientId, scopes: ['read', 'pay'], cap: 5, capExact: '5', spent: 0, revokedAt: null });

    const code = redirect.searchParams.get('code')!;
    const response = await tokenRequest(t.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId, resource: mcpResource });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const tokens = response.json();
    expect(tokens).toEqual({ access_token: expect.stringMatching(/^purser_at_[A-Za-z0-9_-]{43}$/), refresh_token: expect.stringMatching(/^purser_rt_[A-Za-z0-9_-]{43}$/), token_type: 'Bearer', expires_in: 3600, scope: 'read pay' });

    const verdict = await verifyAccessToken(t.deps, tokens.access_token, mcpResource);
    expect(verdict).toMatchObject({ ok: true, grant: { agentId: owner.agentId, did: owner.did, ownerId: owner.userId, clientId, scopes: ['read', 'pay'], capUnits: 5_000_000n, resource: mcpResource } });

    // Only hashes are stored: neither token nor the code is anywhere in the tables.
    const stored = JSON.stringify(await t.deps.db.prisma.oauthToken.findMany({ where: { connectionId: approved.connection.id }, omit: { tokenHash: false } }));
    expect(stored).not.toContain(tokens.access_token.slice(10));
    expect(stored).not.toContain(tokens.refresh_token.slice(10));
    const request = await t.deps.db.prisma.oauthAuthorizationRequest.findUniqueOrThrow({ where: { id: requestId }, omit: { codeHash: false } });
    expect(JSON.stringify(request)).not.toContain(code.slice(10));
    expect(await auditActions(owner.userId, approved.connection.id)).toEqual(['oauth_connection.created', 'oauth_connection.authorized']);
  });

  it('rotates the refresh token on every use, may narrow the scopes, and records the connection’s last use', async () => {
    const owner = await ownerWithAgent(t);
    const connected = await connectClient(t, owner);
    const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: connected.tokens.refresh_token, client_id: connected.clientId, scope: 'read' });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = refreshed.json();
    expect(next.refresh_token).not.toBe(connected.tokens.refresh_token);
    expect(next.scope).toBe('read');
    expect(await verifyAccessToken(t.deps, next.access_token, mcpResource)).toMatchObject({ ok: true, grant: { scopes: ['read'] } });

    // The rotated refresh token keeps what was granted.
    const again = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: next.refresh_token, client_id: connected.clientId });
    expect(again.json().scope).toBe('read pay fetch');
    const [listed] = (await listAgentConnections(t.deps, owner.userId, owner.agentId)).connections;
    expect(listed).toMatchObject({ id: connected.connectionId, lastUsedAt: expect.any(String), revokedAt: null });
    expect(await auditActions(owner.userId, connected.connectionId)).toEqual(['oauth_connection.created', 'oauth_connection.authorized', 'oauth_connection.refreshed', 'oauth_connection.refreshed']);
  });
});

/** An MCP host's OAuth client state, in memory: what the SDK asks a provider to keep. */
function memoryProvider(redirectUrl: string): OAuthClientProvider & { authorizationUrl?: URL; stored: Record<string, unknown> } {
  const stored: Record<string, unknown> = {};
  const provider = {
    stored,
    authorizationUrl: undefined as URL | undefined,
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return { client_name: 'SDK host', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none' };
    },
    clientInformation: () => stored.client as never,
    saveClientInformation: (client: unknown) => void (stored.client = client),
    tokens: () => stored.tokens as never,
    saveTokens: (tokens: unknown) => void (stored.tokens = tokens),
    redirectToAuthorization: (url: URL) => void (provider.authorizationUrl = url),
    saveCodeVerifier: (verifier: string) => void (stored.verifier = verifier),
    codeVerifier: () => stored.verifier as string,
    discoveryState: () => stored.discovery as never,
    saveDiscoveryState: (state: unknown) => void (stored.discovery = state),
  };
  return provider;
}

describe('the official MCP client', () => {
  it('discovers the server, registers itself, sends the owner to consent, redeems the code and refreshes, all with its own OAuth code', async () => {
    const owner = await ownerWithAgent(t);
    const provider = memoryProvider('http://127.0.0.1:43111/callback');
    expect(await auth(provider, { serverUrl: mcpResource })).toBe('REDIRECT');
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcpResource);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    // The browser: the authorization endpoint sends it to the consent page, where the owner approves.
    const consent = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const requestId = new URL(consent.headers.get('location')!).searchParams.get('request')!;
    const scopes: OAuthScope[] = ['read', 'pay', 'fetch'];
    const approved = await approveAuthorizationRequest(t.deps, owner.userId, requestId, { agentId: owner.agentId, scopes });
    const callback = new URL(approved.redirectUrl);

    const code = callback.searchParams.get('code')!;
    expect(await auth(provider, { serverUrl: mcpResource, authorizationCode: code, iss: callback.searchParams.get('iss')! })).toBe('AUTHORIZED');
    const first = provider.stored.tokens as { access_token: string; refresh_token: string };
    expect(await verifyAccessToken(t.deps, first.access_token, mcpResource)).toMatchObject({ ok: true, grant: { agentId: owner.agentId, scopes } });

    // Next time the host refreshes with the rotated token rather than asking again.
    expect(await auth(provider, { serverUrl: mcpResource })).toBe('AUTHORIZED');
    const second = provider.stored.tokens as { access_token: string; refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await verifyAccessToken(t.deps, second.access_token, mcpResource)).toMatchObject({ ok: true });
  });
});

describe('ending a connection', () => {
  it("the owner's revocation ends every token at once, is audited and announced; others' connections are not theirs to see or end", async () => {
    const owner = await ownerWithAgent(t);
    const endpoint = await createWebhookEndpoint(t.deps, owner.userId, createWebhookEndpointInput.parse({ url: 'https://receiver.example.com/hooks', events: ['connection.created', 'connection.revoked'] }));
    const connected = await connectClient(t, owner, { capUnits: 2_500_000n });
    const other = await ownerWithAgent(t, 'Other agent');
    await expect(revokeConnection(t.deps, other.userId, connected.connectionId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(listAgentConnections(t.deps, other.userId, owner.agentId)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const revoked = await revokeConnection(t.deps, owner.userId, connected.connectionId);
    expect(revoked).toMatchObject({ id: connected.connectionId, revokedAt: expect.any(String), revokedReason: 'owner', cap: 2.5 });
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource)).toEqual({ ok: false, refusal: 'token_revoked' });
    const refresh = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: connected.tokens.refresh_token, client_id: connected.clientId });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json().error).toBe('invalid_grant');
    expect(await auditActions(owner.userId, connected.connectionId)).toEqual(['oauth_connection.created', 'oauth_connection.authorized', 'oauth_connection.revoked']);

    const deliveries = await t.deps.db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.endpoint.id }, orderBy: { createdAt: 'asc' }, select: { eventType: true, payload: true } });
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(['connection.created', 'connection.revoked']);
    expect(deliveries[1]!.payload).toMatchObject({ type: 'connection.revoked', data: { connection: { id: connected.connectionId, revokedReason: 'owner', capExact: '2.5' } } });
  });

  it('RFC 7009: an access token ends alone, a refresh token ends its connection, an unknown token is answered 200, another client’s token is refused', async () => {
    const owner = await ownerWithAgent(t);
    const connected = await connectClient(t, owner);
    const revoke = (form: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });

    expect((await revoke({ token: 'purser_at_unknown', client_id: connected.clientId })).statusCode).toBe(200);
    const foreign = await revoke({ token: connected.tokens.access_token, client_id: await registerClient(t.app) });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json().error).toBe('invalid_client');
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource)).toMatchObject({ ok: true });

    expect((await revoke({ token: connected.tokens.access_token, client_id: connected.clientId, token_type_hint: 'access_token' })).statusCode).toBe(200);
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource)).toEqual({ ok: false, refusal: 'token_revoked' });
    const [stillOpen] = (await listAgentConnections(t.deps, owner.userId, owner.agentId)).connections;
    expect(stillOpen!.revokedAt).toBeNull();

    expect((await revoke({ token: connected.tokens.refresh_token, client_id: connected.clientId })).statusCode).toBe(200);
    const [ended] = (await listAgentConnections(t.deps, owner.userId, owner.agentId)).connections;
    expect(ended).toMatchObject({ revokedAt: expect.any(String), revokedReason: 'client' });
  });
});

describe('dynamic client registration', () => {
  it('refuses what is not a public client with https or loopback redirect URIs, and issues no secret', async () => {
    const register = (payload: object) => t.app.inject({ method: 'POST', url: '/oauth/register', payload });
    const plainHttp = await register({ redirect_uris: ['http://client.example.com/callback'] });
    expect(plainHttp.statusCode).toBe(400);
    expect(plainHttp.json().error).toBe('invalid_redirect_uri');
    expect((await register({ redirect_uris: [] })).json().error).toBe('invalid_redirect_uri');
    expect((await register({ redirect_uris: ['https://client.example.com/cb#frag'] })).json().error).toBe('invalid_redirect_uri');
    const confidential = await register({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'client_secret_basic' });
    expect(confidential.json().error).toBe('invalid_client_metadata');

    const created = await register({ redirect_uris: ['http://[::1]:8080/cb', REDIRECT_URI], client_name: 'Desktop app' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      client_id: expect.any(String),
      client_id_issued_at: expect.any(Number),
      client_name: 'Desktop app',
      redirect_uris: ['http://[::1]:8080/cb', REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
  });
});

describe('housekeeping', () => {
  it('forgets tokens and authorization requests a day after they expired, as it goes, keeping spent refresh tokens until then', async () => {
    const owner = await ownerWithAgent(t);
    const connected = await connectClient(t, owner);
    const { prisma } = t.deps.db;
    const later = new Date(Date.now() + 2 * 24 * 60 * 60_000);
    await refreshAccessToken(t.deps, { grant_type: 'refresh_token', refresh_token: connected.tokens.refresh_token, client_id: connected.clientId }, later);
    const tokens = await prisma.oauthToken.findMany({ where: { connectionId: connected.connectionId }, select: { kind: true, usedAt: true } });
    expect(tokens.filter((token) => token.kind === 'access')).toHaveLength(1);
    expect(tokens.filter((token) => token.kind === 'refresh').map((token) => token.usedAt !== null).sort()).toEqual([false, true]);
    expect(await verifyAccessToken(t.deps, connected.tokens.access_token, mcpResource)).toEqual({ ok: false, refusal: 'unknown_token' });

    expect(await prisma.oauthAuthorizationRequest.count({ where: { connectionId: connected.connectionId } })).toBe(1);
    const started = await startAuthorization(t.deps, authorizeParameters(publicUrl, connected.clientId, pkcePair().challenge), later);
    expect(started).toEqual({ location: expect.stringContaining('/oauth/consent?request=') });
    expect(await prisma.oauthAuthorizationRequest.count({ where: { connectionId: connected.connectionId } })).toBe(0);
  });
});
