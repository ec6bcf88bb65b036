/**
 * RFC 7591 dynamic client registration, for MCP clients older than Client ID Metadata Documents:
 * a public client (token_endpoint_auth_method "none", no secret is ever issued) with 1 to 10
 * redirect URIs, each https or http on a loopback address. The client's name and home page are
 * its own claims and are shown as such. Anyone may register; the route limits how often per
 * address.
 */
import { OAuthError, OAuthErrorCode, type OAuthClientInformationFull } from '@modelcontextprotocol/server';
import type { AppDeps } from '../../deps';
import { httpsUrl } from './client-metadata-document';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris';

const MAX_NAME_LENGTH = 200;
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

function invalidMetadata(message: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidClientMetadata, message);
}

function onlyOf(value: unknown, allowed: readonly string[], field: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && allowed.includes(item))) {
    throw invalidMetadata(`${field} may only name ${allowed.join(', ')}`);
  }
}

export async function registerClient(deps: Pick<AppDeps, 'db'>, body: unknown, now = new Date()): Promise<OAuthClientInformationFull> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidMetadata('The registration must be a JSON object');
  const metadata = body as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((uri) => typeof uri === 'string')) {
    throw new OAuthError(OAuthErrorCode.InvalidRedirectUri, `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  const problem = uris.map(redirectUriProblem).find((reason) => reason !== null);
  if (problem) throw new OAuthError(OAuthErrorCode.InvalidRedirectUri, `The redirect URI ${problem}`);
  if (metadata.token_endpoint_auth_method !== undefined && metadata.token_endpoint_auth_method !== 'none') {
    throw invalidMetadata('Only public clients are supported: token_endpoint_auth_method must be "none"');
  }
  onlyOf(metadata.grant_types, GRANT_TYPES, 'grant_types');
  onlyOf(metadata.response_types, ['code'], 'response_types');
  if (metadata.client_name !== undefined && typeof metadata.client_name !== 'string') throw invalidMetadata('client_name must be text');
  const name = typeof metadata.client_name === 'string' && metadata.client_name.trim() !== '' ? metadata.client_name.trim().slice(0, MAX_NAME_LENGTH) : null;
  const uri = httpsUrl(metadata.client_uri);

  const row = await deps.db.prisma.oauthClient.create({
    data: { clientName: name, clientUri: uri, redirectUris: uris as string[], createdAt: now },
    select: { id: true, createdAt: true },
  });
  return {
    client_id: row.id,
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    redirect_uris: uris as string[],
    token_endpoint_auth_method: 'none',
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    ...(name === null ? {} : { client_name: name }),
    ...(uri === null ? {} : { client_uri: uri }),
  };
}
