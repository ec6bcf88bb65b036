/**
 * Clients that identify with a Client ID Metadata Document (the OAuth CIMD draft, MCP
 * 2026-07-28's preferred way): the client_id is an https URL with a path, and the JSON document
 * there describes the client. Purser fetches it when an authorization request names it, through
 * the outbound fence (services/outbound/): the URL is someone else's choice, so it must not reach
 * loopback, private or metadata addresses unless the deployment allows them. The answer is
 * bounded (5 KB, 3 s, no redirects followed) and its `client_id` must be the URL itself. A
 * document that passes is kept for five minutes, per outbound policy, so a replica's cache never
 * lets a URL through that its own fence would refuse.
 *
 * http is accepted only on a loopback host, for a developer's own client; the fence refuses
 * loopback outside the sandbox unless OUTBOUND_ALLOWLIST names it.
 */
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { isAppError } from '@purser/core';
import type { AppDeps } from '../../deps';
import type { OutboundPolicy } from '../outbound/outbound-policy';
import { sendOutbound } from '../outbound/outbound-request';
import { isLoopbackHost, MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris';
import type { OAuthClientRecord } from './oauth-client-record';

export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
export const CLIENT_METADATA_TIMEOUT_MS = 3_000;
export const CLIENT_METADATA_TTL_MS = 5 * 60_000;
const MAX_CACHED = 1_000;
const MAX_NAME_LENGTH = 200;

type Cache = Map<string, { client: OAuthClientRecord; until: number }>;
const caches = new WeakMap<OutboundPolicy, Cache>();

/** True when the client_id claims to be a metadata document's URL (as opposed to a registered id). */
export function isMetadataDocumentClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

function invalidClient(message: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidClient, message);
}

/** Why `clientId` cannot be a metadata document's URL, or null. */
function clientIdUrlProblem(clientId: string): string | null {
  if (!URL.canParse(clientId)) return 'is not a URL';
  const url = new URL(clientId);
  const loopbackHttp = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) return 'must be an https URL';
  if (url.pathname === '/') return 'must have a path';
  if (url.hash || url.username || url.password) return 'must not have a fragment or credentials';
  // Dot segments, default ports, case: the identifier is compared as a string, so only its one form.
  if (url.href !== clientId) return `must be written in its normal form (${url.href})`;
  return null;
}

/** The client a metadata document describes; throws invalid_client with the reason. */
export async function fetchClientMetadataDocument(deps: Pick<AppDeps, 'outbound'>, clientId: string, now = Date.now()): Promise<OAuthClientRecord> {
  const problem = clientIdUrlProblem(clientId);
  if (problem) throw invalidClient(`The client_id URL ${problem}`);
  let cache = caches.get(deps.outbound);
  if (!cache) caches.set(deps.outbound, (cache = new Map()));
  const cached = cache.get(clientId);
  if (cached && cached.until > now) return cached.client;

  const client = readDocument(clientId, await download(deps.outbound, clientId));
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(clientId, { client, until: now + CLIENT_METADATA_TTL_MS });
  return client;
}

async function download(policy: OutboundPolicy, url: string): Promise<Buffer> {
  try {
    const response = await sendOutbound(
      { url, method: 'GET', headers: { accept: 'application/json' } },
      { policy, peer: 'client metadata document', timeoutMs: CLIENT_METADATA_TIMEOUT_MS, maxResponseBytes: CLIENT_METADATA_MAX_BYTES, body: 'whole' },
    );
    if (response.status !== 200) throw invalidClient(`The client metadata document at ${url} answered HTTP ${response.status}`);
    return response.body;
  } catch (error) {
    if (isAppError(error)) throw invalidClient(`The client metadata document at ${url} could not be fetched: ${error.message}`);
    throw error;
  }
}

function readDocument(clientId: string, body: Buffer): OAuthClientRecord {
  let document: unknown;
  try {
    document = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidClient('The client metadata document is not JSON');
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw invalidClient('The client metadata document is not a JSON object');
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId) throw invalidClient('The client metadata document names another client_id than its own URL');
  if (fields.client_secret !== undefined) throw invalidClient('A client metadata document must not carry a client_secret');
  if (fields.token_endpoint_auth_method !== undefined && fields.token_endpoint_auth_method !== 'none') {
    throw invalidClient('Only public clients are supported: token_endpoint_auth_method must be "none"');
  }
  const uris = fields.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((uri) => typeof uri === 'string')) {
    throw invalidClient(`The client metadata document must list 1 to ${MAX_REDIRECT_URIS} redirect_uris`);
  }
  const bad = uris.map(redirectUriProblem).find((reason) => reason !== null);
  if (bad) throw invalidClient(`The client metadata document's redirect URI ${bad}`);
  return { clientId, name: textField(fields.client_name), uri: httpsUrl(fields.client_uri), redirectUris: uris as string[] };
}

function textField(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, MAX_NAME_LENGTH) : null;
}

/** A home page worth linking: https only, else left out (nothing vouches for it anyway). */
export function httpsUrl(value: unknown): string | null {
  return typeof value === 'string' && URL.canParse(value) && new URL(value).protocol === 'https:' ? value : null;
}
