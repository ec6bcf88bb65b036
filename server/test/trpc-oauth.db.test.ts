/**
 * The consent page's and the console's OAuth procedures through tRPC (/trpc/oauth.*), on a real
 * database: the request as the page reads it (claimed by the first owner who opens it, hidden
 * from everybody else), approve with a cap and an expiry in the page's shapes (dollars, an ISO
 * date) answering the client's redirect URL, deny, a second decision refused, and an agent's
 * connections listed and revoked by its owner alone. Signed-out callers are refused.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPublicSelect } from '@purser/db';
import { issueSession } from '../src/services/auth/issue-session';
import { authorizeParameters, authorizeRequest, consentRequestId, ownerWithAgent, pkcePair, REDIRECT_URI, registerClient, type OwnerWithAgent } from './support/oauth-fixtures';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;

interface SignedIn extends OwnerWithAgent {
  token: string;
}

beforeAll(async () => {
  t = await createTestApp({ oauthRateLimits: { register: 10_000, authorize: 10_000 } });
});

afterAll(async () => {
  await t?.cleanup();
});

async function signedInOwner(): Promise<SignedIn> {
  const owner = await ownerWithAgent(t);
  const user = await t.deps.db.prisma.user.findUniqueOrThrow({ where: { id: owner.userId }, select: userPublicSelect });
  const session = await issueSession(t.deps, t.deps.db.prisma, user);
  return { ...owner, token: session.access_token };
}

function trpcQuery(path: string, input: unknown, token?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

function trpcMutation(path: string, input: unknown, token?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: `/trpc/${path}`, payload: input as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

function data<T>(response: LightMyRequestResponse): T {
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { result: { data: T } }).result.data;
}

function trpcError(response: LightMyRequestResponse): { message: string; data: { code: string; httpStatus: number; appCode: string | null } } {
  return (response.json() as { error: { message: string; data: { code: string; httpStatus: number; appCode: string | null } } }).error;
}

/** A fresh authorization request, as /oauth/authorize leaves it for the consent page. */
async function pendingRequest(state = 'state-xyz', scope = 'read pay fetch'): Promise<string> {
  const clientId = await registerClient(t.app, [REDIRECT_URI], 'Consent host');
  const { challenge } = pkcePair();
  return consentRequestId(await authorizeRequest(t.app, authorizeParameters(t.deps.publicUrl, clientId, challenge, { state, scope })), t.deps.publicUrl);
}

describe('oauth.authorizationRequest', () => {
  it("shows the consent page the client, its redirect, the scopes and resource, and keeps the request from every other owner", async () => {
    const owner = await signedInOwner();
    const other = await signedInOwner();
    const requestId = await pendingRequest('s1', 'read pay');

    const view = data<{ status: string; client: { name: string | null }; redirectUri: string; scopes: string[]; resource: string }>(
      await trpcQuery('oauth.authorizationRequest', { requestId }, owner.token),
    );
    expect(view).toMatchObject({ status: 'pending', client: { name: 'Consent host' }, redirectUri: REDIRECT_URI, scopes: ['read', 'pay'], resource: `${t.deps.publicUrl}/functions/v1/mcp-server/mcp` });

    // Claimed by the first owner who opened it: the same 404 for the other owner as for an id that does not exist.
    for (const id of [requestId, 'no-such-request']) {
      const refused = await trpcQuery('oauth.authorizationRequest', { requestId: id }, other.token);
      expect(refused.statusCode).toBe(404);
      expect(trpcError(refused)).toMatchObject({ message: 'Authorization request not found', data: { code: 'NOT_FOUND', appCode: 'NOT_FOUND' } });
    }
    expect((await trpcMutation('oauth.approve', { requestId, agentId: other.agentId, scopes: ['read'] }, other.token)).statusCode).toBe(404);
    expect((await trpcMutation('oauth.deny', { requestId }, other.token)).statusCode).toBe(404);
    expect((await trpcQuery('oauth.authorizationRequest', { requestId }, owner.token)).statusCode).toBe(200);
  });

  it('refuses a caller who is not signed in', async () => {
    const requestId = await pendingRequest();
    const response = await trpcQuery('oauth.authorizationRequest', { requestId });
    expect(response.statusCode).toBe(401);
    expect(trpcError(response).data.code).toBe('UNAUTHORIZED');
  });
});

describe('oauth.approve and oauth.deny', () => {
  it("approves with the page's cap in dollars and expiry date: the redirect carries code, state and iss, and the connection holds the choices", async () => {
    const owner = await signedInOwner();
    const requestId = await pendingRequest('state-approve');
    data(await trpcQuery('oauth.authorizationRequest', { requestId }, owner.token));
    const expiresAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();

    const { redirectUrl } = data<{ redirectUrl: string }>(
      await trpcMutation('oauth.approve', { requestId, agentId: owner.agentId, scopes: ['pay', 'read'], capUsd: '5', expiresAt }, owner.token),
    );
    const url = new URL(redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI);
    expect(url.searchParams.get('code')).toMatch(/.{20,}/);
    expect(url.searchParams.get('state')).toBe('state-approve');
    expect(url.searchParams.get('iss')).toBe(t.deps.publicUrl);

    const { connections } = data<{ connections: Array<{ scopes: string[]; cap: number | null; capExact: string | null; spent: number; expiresAt: string | null; revokedAt: string | null; clientName: string | null }> }>(
      await trpcQuery('oauth.connections', { agentId: owner.agentId }, owner.token),
    );
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ scopes: ['read', 'pay'], cap: 5, capExact: '5', spent: 0, expiresAt: new Date(expiresAt).toISOString(), revokedAt: null, clientName: 'Consent host' });

    // Decided once: the second decision, either way, is a conflict and changes nothing.
    for (const [path, input] of [
      ['oauth.approve', { requestId, agentId: owner.agentId, scopes: ['read'] }],
      ['oauth.deny', { requestId }],
    ] as const) {
      const again = await trpcMutation(path, input, owner.token);
      expect(again.statusCode, path).toBe(409);
      expect(trpcError(again)).toMatchObject({ message: 'This authorization request was already approved', data: { code: 'CONFLICT' } });
    }
    expect(data<{ status: string }>(await trpcQuery('oauth.authorizationRequest', { requestId }, owner.token)).status).toBe('approved');
    expect(data<{ connections: unknown[] }>(await trpcQuery('oauth.connections', { agentId: owner.agentId }, owner.token)).connections).toHaveLength(1);
  });

  it("refuses an agent that is not the owner's, a scope the client did not ask for, and a cap of nothing, and leaves the request pending", async () => {
    const owner = await signedInOwner();
    const other = await signedInOwner();
    const requestId = await pendingRequest('s', 'read');
    data(await trpcQuery('oauth.authorizationRequest', { requestId }, owner.token));

    const foreignAgent = await trpcMutation('oauth.approve', { requestId, agentId: other.agentId, scopes: ['read'] }, owner.token);
    expect(foreignAgent.statusCode).toBe(404);
    const beyond = await trpcMutation('oauth.approve', { requestId, agentId: owner.agentId, scopes: ['read', 'pay'] }, owner.token);
    expect(beyond.statusCode).toBe(400);
    expect(trpcError(beyond).message).toMatch(/did not ask for pay/);
    const zeroCap = await trpcMutation('oauth.approve', { requestId, agentId: owner.agentId, scopes: ['read'], capUsd: '0' }, owner.token);
    expect(zeroCap.statusCode).toBe(400);
    const badCap = await trpcMutation('oauth.approve', { requestId, agentId: owner.agentId, scopes: ['read'], capUsd: 'five' }, owner.token);
    expect(trpcError(badCap)).toMatchObject({ message: 'The spending cap must be a positive number of dollars with at most 6 decimals', data: { appCode: 'VALIDATION_FAILED' } });

    expect(data<{ status: string }>(await trpcQuery('oauth.authorizationRequest', { requestId }, owner.token)).status).toBe('pending');
    expect(data<{ connections: unknown[] }>(await trpcQuery('oauth.connections', { agentId: owner.agentId }, owner.token)).connections).toHaveLength(0);
  });

  it('denies: the browser goes back with access_denied, state and iss, and the request is decided', async () => {
    const owner = await signedInOwner();
    const requestId = await pendingRequest('state-deny');
    const { redirectUrl } = data<{ redirectUrl: string }>(await trpcMutation('oauth.deny', { requestId }, owner.token));
    const url = new URL(redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ error: 'access_denied', state: 'state-deny', iss: t.deps.publicUrl });
    expect(url.searchParams.has('code')).toBe(false);
    expect(data<{ status: string }>(await trpcQuery('oauth.authorizationRequest', { requestId }, owner.token)).status).toBe('denied');
  });
});

describe('oauth.connections and oauth.revokeConnection', () => {
  it("lists and revokes an agent's connections for its owner alone", async () => {
    const owner = await signedInOwner();
    const other = await signedInOwner();
    const requestId = await pendingRequest();
    data(await trpcMutation('oauth.approve', { requestId, agentId: owner.agentId, scopes: ['read'] }, owner.token));
    const [connection] = data<{ connections: Array<{ id: string }> }>(await trpcQuery('oauth.connections', { agentId: owner.agentId }, owner.token)).connections;

    expect((await trpcQuery('oauth.connections', { agentId: owner.agentId }, other.token)).statusCode).toBe(404);
    for (const connectionId of [connection!.id, randomUUID()]) {
      const refused = await trpcMutation('oauth.revokeConnection', { connectionId }, other.token);
      expect(refused.statusCode).toBe(404);
      expect(trpcError(refused).message).toBe('Connection not found');
    }
    expect(data<{ connections: Array<{ revokedAt: string | null }> }>(await trpcQuery('oauth.connections', { agentId: owner.agentId }, owner.token)).connections[0]!.revokedAt).toBeNull();

    const revoked = data<{ id: string; revokedAt: string | null; revokedReason: string | null }>(await trpcMutation('oauth.revokeConnection', { connectionId: connection!.id }, owner.token));
    expect(revoked).toMatchObject({ id: connection!.id, revokedReason: 'owner' });
    expect(revoked.revokedAt).not.toBeNull();
    expect(data<{ connections: Array<{ revokedAt: string | null }> }>(await trpcQuery('oauth.connections', { agentId: owner.agentId }, owner.token)).connections[0]!.revokedAt).toBe(revoked.revokedAt);
  });
});
