/**
 * GET /oauth/authorize (RFC 6749 section 4.1.1 as OAuth 2.1 profiles it): the authorization code
 * flow with PKCE S256, nothing else. The request is checked in the order the specification asks:
 *
 * 1. the client (registered, or its metadata document fetched) and the redirect URI, matched
 *    exactly (a loopback URI on any port). Until both are established nothing is sent to the
 *    redirect URI, which might be an attacker's: the answer is a 400 to the browser itself.
 * 2. the rest (response_type, PKCE, resource, scope). A fault there goes back to the client as
 *    a redirect with `error`, `error_description`, `state` and `iss`.
 *
 * A valid request is stored as pending for ten minutes, and the browser goes to the web app's
 * consent page with its id; the owner signs in there and decides (approve-authorization-request.ts).
 */
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { DEFAULT_OAUTH_SCOPES, type OAuthScope } from '@purser/core';
import type { AppDeps } from '../../deps';
import { authorizationRedirect } from './authorization-redirect';
import type { OAuthClientRecord } from './oauth-client-record';
import { OAUTH_PATHS, oauthEndpoint, oauthResourceUrl, ourResource } from './oauth-discovery';
import { parseScopeParameter } from './oauth-scopes';
import { isS256Challenge, newAuthorizationRequestId } from './oauth-secrets';
import { pruneAuthorizationRequests } from './prune-oauth-rows';
import { redirectUriRegistered } from './redirect-uris';
import { resolveClient } from './resolve-client';

export const AUTHORIZATION_REQUEST_TTL_MS = 10 * 60_000;
const MAX_STATE_LENGTH = 2048;

/** A refusal shown to the browser (400, never a redirect), or a redirect: to the consent page or back with an error. */
export type AuthorizationAnswer = { refused: OAuthError } | { location: string };

type Query = Record<string, unknown>;

/** The parameter's one value; undefined when absent, null when it is not one string (sent twice). */
function single(query: Query, name: string): string | null | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : null;
}

/** Step 1: the client and its redirect URI, or the refusal shown to the browser. */
async function establishClient(deps: Pick<AppDeps, 'db' | 'outbound'>, query: Query): Promise<{ refused: OAuthError } | { client: OAuthClientRecord; redirectUri: string }> {
  const clientId = single(query, 'client_id');
  if (!clientId) return { refused: new OAuthError(OAuthErrorCode.InvalidRequest, 'client_id is required, once') };
  let client: OAuthClientRecord;
  try {
    client = await resolveClient(deps, clientId);
  } catch (error) {
    if (error instanceof OAuthError) return { refused: error };
    throw error;
  }
  const redirectUri = single(query, 'redirect_uri');
  if (!redirectUri) return { refused: new OAuthError(OAuthErrorCode.InvalidRequest, 'redirect_uri is required, once') };
  if (!redirectUriRegistered(redirectUri, client.redirectUris)) {
    return { refused: new OAuthError(OAuthErrorCode.InvalidRequest, 'redirect_uri is not one of the redirect URIs registered for this client') };
  }
  return { client, redirectUri };
}

type Fault = { fault: OAuthErrorCode; description: string };

/** Step 2: what the client asks for, or the fault to send back to it. */
function readRequest(publicUrl: string, query: Query): Fault | { challenge: string; resource: string; scopes: OAuthScope[]; state: string | undefined } {
  const fault = (code: OAuthErrorCode, description: string): Fault => ({ fault: code, description });
  const repeated = Object.keys(query).find((name) => single(query, name) === null);
  if (repeated) return fault(OAuthErrorCode.InvalidRequest, `${repeated} was sent more than once`);
  const state = single(query, 'state') ?? undefined;
  if (state !== undefined && state.length > MAX_STATE_LENGTH) return fault(OAuthErrorCode.InvalidRequest, `state must be at most ${MAX_STATE_LENGTH} characters`);
  const responseType = single(query, 'response_type');
  if (responseType === undefined) return fault(OAuthErrorCode.InvalidRequest, 'response_type is required');
  if (responseType !== 'code') return fault(OAuthErrorCode.UnsupportedResponseType, 'Only response_type=code is supported');
  const challenge = single(query, 'code_challenge');
  if (!challenge) return fault(OAuthErrorCode.InvalidRequest, 'PKCE is required: send code_challenge with code_challenge_method=S256');
  if (single(query, 'code_challenge_method') !== 'S256') return fault(OAuthErrorCode.InvalidRequest, 'code_challenge_method must be S256 (plain is not accepted)');
  if (!isS256Challenge(challenge)) return fault(OAuthErrorCode.InvalidRequest, 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)');
  const named = single(query, 'resource');
  if (!named) return fault(OAuthErrorCode.InvalidTarget, 'resource is required: the MCP endpoint or the agent API URL (RFC 8707)');
  const resource = ourResource(publicUrl, named);
  if (!resource) return fault(OAuthErrorCode.InvalidTarget, `resource must be ${oauthResourceUrl(publicUrl, 'mcp')} or ${oauthResourceUrl(publicUrl, 'agentApi')}`);
  const scopes = parseScopeParameter(single(query, 'scope') ?? undefined, DEFAULT_OAUTH_SCOPES);
  if (!scopes) return fault(OAuthErrorCode.InvalidScope, 'scope may only name read, pay and fetch');
  return { challenge, resource, scopes, state };
}

export async function startAuthorization(deps: Pick<AppDeps, 'db' | 'outbound' | 'publicUrl'>, query: Query, now = new Date()): Promise<AuthorizationAnswer> {
  const established = await establishClient(deps, query);
  if ('refused' in established) return established;
  const { client, redirectUri } = established;
  const asked = readRequest(deps.publicUrl, query);
  if ('fault' in asked) {
    // The state is sent back as the client sent it, unless it is what was wrong.
    const state = typeof query.state === 'string' && query.state.length <= MAX_STATE_LENGTH ? query.state : undefined;
    return { location: authorizationRedirect(deps.publicUrl, redirectUri, { error: asked.fault, error_description: asked.description, state }) };
  }

  const id = newAuthorizationRequestId();
  await pruneAuthorizationRequests(deps.db.prisma, now);
  await deps.db.prisma.oauthAuthorizationRequest.create({
    data: {
      id,
      clientId: client.clientId,
      clientName: client.name,
      clientUri: client.uri,
      redirectUri,
      scopes: asked.scopes,
      resource: asked.resource,
      state: asked.state ?? null,
      codeChallenge: asked.challenge,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_REQUEST_TTL_MS),
      createdAt: now,
    },
    select: { id: true },
  });
  const consent = new URL(oauthEndpoint(deps.publicUrl, OAUTH_PATHS.consent));
  consent.searchParams.set('request', id);
  return { location: consent.href };
}
