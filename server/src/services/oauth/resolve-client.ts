/**
 * The client an authorization request names: a client registered by RFC 7591 (its id is a UUID
 * of oauth_clients) or one that identifies with a Client ID Metadata Document (its id is the
 * document's URL). Anything else is an unknown client, refused before any redirect.
 */
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type { AppDeps } from '../../deps';
import { isUuid } from '../agents/owned-agent';
import { fetchClientMetadataDocument, isMetadataDocumentClientId } from './client-metadata-document';
import type { OAuthClientRecord } from './oauth-client-record';

export async function resolveClient(deps: Pick<AppDeps, 'db' | 'outbound'>, clientId: string): Promise<OAuthClientRecord> {
  if (isMetadataDocumentClientId(clientId)) return fetchClientMetadataDocument(deps, clientId);
  const row = isUuid(clientId)
    ? await deps.db.prisma.oauthClient.findUnique({ where: { id: clientId }, select: { id: true, clientName: true, clientUri: true, redirectUris: true } })
    : null;
  if (!row) throw new OAuthError(OAuthErrorCode.InvalidClient, 'Unknown client_id: register the client (POST /oauth/register) or use a Client ID Metadata Document URL');
  return { clientId: row.id, name: row.clientName, uri: row.clientUri, redirectUris: row.redirectUris };
}
