/**
 * Where Purser's OAuth 2.1 authorization server and its two protected resources are, and the
 * documents that say so: RFC 8414 authorization server metadata, RFC 9728 protected-resource
 * metadata for the MCP endpoint and for the agent API, and the `WWW-Authenticate: Bearer`
 * challenge a 401 of either resource carries so a client finds them (RFC 9728 section 5.1).
 *
 * The issuer is the deployment's public URL. The two resources are the agent API
 * (`<public URL>/functions/v1/mcp-server`) and the MCP endpoint (`.../mcp-server/mcp`); a token is
 * bound to exactly one of them (RFC 8707), compared without a trailing slash and nothing looser.
 */
import {
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';
import { AGENT_API_PREFIX, OAUTH_SCOPES } from '@purser/core';

export const OAUTH_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  /** The web app's consent page (the lead's): `?request=<authorization request id>`. */
  consent: '/oauth/consent',
} as const;

/** The resources' paths below the public URL, and where their metadata documents are served. */
export const OAUTH_RESOURCE_PATHS = { agentApi: AGENT_API_PREFIX, mcp: `${AGENT_API_PREFIX}/mcp` } as const;
export type OAuthResourceName = keyof typeof OAUTH_RESOURCE_PATHS;

const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** RFC 9728 section 3.1: the well-known path with the resource's path appended. */
export function protectedResourceMetadataPath(resource: OAuthResourceName): string {
  return `${PROTECTED_RESOURCE_WELL_KNOWN}${OAUTH_RESOURCE_PATHS[resource]}`;
}

/** The issuer identifier: the public URL without a trailing slash (the `iss` of every redirect). */
export function oauthIssuer(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

export function oauthResourceUrl(publicUrl: string, resource: OAuthResourceName): string {
  return `${oauthIssuer(publicUrl)}${OAUTH_RESOURCE_PATHS[resource]}`;
}

export function oauthEndpoint(publicUrl: string, path: string): string {
  return `${oauthIssuer(publicUrl)}${path}`;
}

const withoutTrailingSlash = (value: string) => value.replace(/\/$/, '');

/** True when two resource identifiers are the same, a single trailing slash apart at most. */
export function sameResource(a: string, b: string): boolean {
  return withoutTrailingSlash(a) === withoutTrailingSlash(b);
}

/** The resource `candidate` names, in its canonical form, or null when it is not one of ours. */
export function ourResource(publicUrl: string, candidate: string): string | null {
  for (const name of Object.keys(OAUTH_RESOURCE_PATHS) as OAuthResourceName[]) {
    const url = oauthResourceUrl(publicUrl, name);
    if (sameResource(candidate, url)) return url;
  }
  return null;
}

/** RFC 8414 metadata of the authorization server. */
export function authorizationServerMetadata(publicUrl: string): OAuthMetadata {
  const issuer = oauthIssuer(publicUrl);
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    registration_endpoint: `${issuer}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

const RESOURCE_NAMES: Record<OAuthResourceName, string> = { agentApi: 'Purser agent API', mcp: 'Purser MCP server' };

/** RFC 9728 metadata of one protected resource. */
export function protectedResourceMetadata(publicUrl: string, resource: OAuthResourceName): OAuthProtectedResourceMetadata {
  const document = buildOAuthProtectedResourceMetadata({
    oauthMetadata: authorizationServerMetadata(publicUrl),
    resourceServerUrl: new URL(oauthResourceUrl(publicUrl, resource)),
    scopesSupported: [...OAUTH_SCOPES],
    resourceName: RESOURCE_NAMES[resource],
    // The SDK wants https outside localhost; an http public URL is the operator's choice (a
    // sandbox reached by a name), and refusing discovery would not make it safer.
    dangerouslyAllowInsecureIssuerUrl: true,
  });
  // The builder's URL form adds a slash to a bare origin; the resource is named as clients send it.
  return { ...document, resource: oauthResourceUrl(publicUrl, resource), bearer_methods_supported: ['header'] };
}

export interface BearerChallengeOptions {
  /** RFC 6750 error code: `invalid_token` (401) or `insufficient_scope` (403); none for a request without a token. */
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  description?: string;
  /** The scopes the request needs (insufficient_scope). */
  scope?: readonly string[];
}

/** An RFC 7230 quoted-string: backslash and quote escaped, nothing outside printable ASCII. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (character) => `\\${character}`).replace(/[^\x20-\x7e]/g, ' ')}"`;
}

/**
 * The `WWW-Authenticate` value of a 401 (or 403) of `resourceUrl`: `Bearer` with the URL of the
 * resource's metadata document, so an MCP client discovers the authorization server from it.
 */
export function bearerChallenge(resourceUrl: string, options: BearerChallengeOptions = {}): string {
  const parameters: string[] = [];
  if (options.error) parameters.push(`error=${quoted(options.error)}`);
  if (options.description) parameters.push(`error_description=${quoted(options.description)}`);
  if (options.scope && options.scope.length > 0) parameters.push(`scope=${quoted(options.scope.join(' '))}`);
  parameters.push(`resource_metadata=${quoted(getOAuthProtectedResourceMetadataUrl(new URL(resourceUrl)))}`);
  return `Bearer ${parameters.join(', ')}`;
}
