/**
 * The OAuth server's flow as a client drives it, through the real app: register a client, send
 * the browser to /oauth/authorize, let the owner approve on the "consent page" (the consent
 * service), redeem the code at /oauth/token. Owners and agents are made directly (sign-up is not
 * under test), and PKCE pairs as RFC 7636 makes them.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createAgentInput, type OAuthScope } from '@purser/core';
import { userPublicSelect } from '@purser/db';
import { createAgent } from '../../src/services/agents/create-agent';
import { approveAuthorizationRequest } from '../../src/services/oauth/approve-authorization-request';
import type { TestApp } from './test-app';

export interface OwnerWithAgent {
  userId: string;
  agentId: string;
  did: string;
}

export async function ownerWithAgent(t: TestApp, agentName = 'Assistant agent'): Promise<OwnerWithAgent> {
  const user = await t.deps.db.prisma.user.create({
    data: { email: `${randomUUID()}@example.test`, passwordHash: 'not-a-real-hash', fullName: 'OAuth Owner', wallet: { create: {} } },
    select: userPublicSelect,
  });
  const { agent } = await createAgent(t.deps, user.id, createAgentInput.parse({ name: agentName }));
  return { userId: user.id, agentId: agent.id, did: agent.did };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const REDIRECT_URI = 'https://client.example.com/oauth/callback';

export async function registerClient(app: FastifyInstance, redirectUris: string[] = [REDIRECT_URI], name = 'Test host'): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/oauth/register', payload: { client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' } });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { client_id: string }).client_id;
}

export function authorizeRequest(app: FastifyInstance, parameters: Record<string, string | undefined>): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return app.inject({ method: 'GET', url: `/oauth/authorize?${query}` });
}

/** The standard parameters of an authorization request; `overrides` replaces or (undefined) drops some. */
export function authorizeParameters(publicUrl: string, clientId: string, challenge: string, overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${publicUrl}/functions/v1/mcp-server/mcp`,
    scope: 'read pay fetch',
    state: 'state-123',
    ...overrides,
  };
}

/** The consent page's request id from the redirect to it. */
export function consentRequestId(response: LightMyRequestResponse, publicUrl: string): string {
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(`${publicUrl}/oauth/consent`);
  return location.searchParams.get('request')!;
}

export function tokenRequest(app: FastifyInstance, form: Record<string, string>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
}

export interface Connected {
  clientId: string;
  connectionId: string;
  verifier: string;
  code: string;
  tokens: { access_token: string; refresh_token: string; expires_in: number; scope: string; token_type: string };
}

/** A client registered, authorized by the owner for their agent, and its code redeemed. */
export async function connectClient(t: TestApp, owner: OwnerWithAgent, options: { scopes?: OAuthScope[]; capUnits?: bigint; resource?: string } = {}): Promise<Connected> {
  const publicUrl = t.deps.publicUrl;
  const clientId = await registerClient(t.app);
  const { verifier, challenge } = pkcePair();
  const resource = options.resource ?? `${publicUrl}/functions/v1/mcp-server/mcp`;
  const requestId = consentRequestId(await authorizeRequest(t.app, authorizeParameters(publicUrl, clientId, challenge, { resource })), publicUrl);
  const approved = await approveAuthorizationRequest(t.deps, owner.userId, requestId, {
    agentId: owner.agentId,
    scopes: options.scopes ?? ['read', 'pay', 'fetch'],
    capUnits: options.capUnits ?? null,
  });
  const code = new URL(approved.redirectUrl).searchParams.get('code')!;
  const response = await tokenRequest(t.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId, resource });
  expect(response.statusCode, response.body).toBe(200);
  return { clientId, connectionId: approved.connection.id, verifier, code, tokens: response.json() };
}
