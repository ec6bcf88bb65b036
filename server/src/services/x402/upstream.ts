/**
 * The outbound HTTP client for URLs an agent chose: the paid APIs our x402 endpoints fetch
 * on its behalf, once to read the 402 and again with the payment header.
 *
 * The URL is someone else's choice, so the request is fenced in: http(s) only, no
 * credentials in the URL, a short list of methods, no redirects (a 3xx comes back as it is),
 * a time limit on the whole exchange and a cap on the answer's size. Unless private URLs are
 * allowed (the sandbox, tests), the connection only reaches public addresses: literal
 * addresses are checked here, names inside the connection's own DNS lookup, so a name that
 * resolves to a private address is refused at the moment it would be reached.
 *
 * Nothing of ours is sent: no cookies, credentials or proxy headers are added, and the
 * agent's hop-by-hop headers are dropped (the length is computed from the body).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AppError } from '@purser/core';
import { isPublicAddress, PrivateAddressError, publicOnlyLookup, urlHost } from '../webhooks/webhook-url';

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;
export const DEFAULT_UPSTREAM_MAX_RESPONSE_BYTES = 1024 * 1024;
export const UPSTREAM_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const UPSTREAM_PRIVATE_ADDRESS_MESSAGE = 'The upstream URL must resolve to a public address; loopback, private and link-local addresses are refused';

/**
 * Request headers that describe this connection rather than the request, or that we set
 * ourselves. accept-encoding goes too: the body is read (v1 402s are JSON) and handed back
 * as it came, so it is asked for unencoded.
 */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'content-length',
  'accept-encoding',
]);

export interface UpstreamRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface UpstreamOptions {
  allowPrivateUrls: boolean;
  /** Limit of the whole exchange, connection to last byte read. */
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export interface UpstreamResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
  /** The URL as requested, normalised. */
  url: string;
}

export async function fetchUpstream(request: UpstreamRequest, options: UpstreamOptions): Promise<UpstreamResponse> {
  const { timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS, maxResponseBytes = DEFAULT_UPSTREAM_MAX_RESPONSE_BYTES } = options;
  const target = parseUpstreamUrl(request.url);
  const method = (request.method ?? 'GET').toUpperCase();
  if (!(UPSTREAM_METHODS as readonly string[]).includes(method)) {
    throw new AppError('VALIDATION_FAILED', `Upstream method must be one of ${UPSTREAM_METHODS.join(', ')}`);
  }
  const host = urlHost(target);
  // Literal addresses never go through the lookup below, so they are checked here.
  if (!options.allowPrivateUrls && isIP(host) && !isPublicAddress(host)) {
    throw new AppError('VALIDATION_FAILED', `${UPSTREAM_PRIVATE_ADDRESS_MESSAGE} (${host})`);
  }
  const headers = outboundHeaders(request.headers ?? {});
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));

  return new Promise<UpstreamResponse>((resolve, reject) => {
    let outgoing: http.ClientRequest;
    try {
      outgoing = (target.protocol === 'https:' ? https : http).request(target, {
        method,
        headers,
        // A fresh connection per request: every request goes through the address check.
        agent: false,
        ...(options.allowPrivateUrls ? {} : { lookup: publicOnlyLookup }),
      });
    } catch (error) {
      // Node refuses header names and values that cannot go on the wire, before connecting.
      reject(new AppError('VALIDATION_FAILED', `Invalid upstream request header: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }

    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (error: AppError) =>
      settle(() => {
        outgoing.destroy();
        reject(error);
      });
    const timer = setTimeout(() => fail(upstreamFailure(`The upstream ${host} did not answer within the ${timeoutMs} ms limit`)), timeoutMs);

    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxResponseBytes) return fail(upstreamFailure(`The upstream ${host} answered with more than the ${maxResponseBytes} byte limit`));
        chunks.push(chunk);
      });
      response.on('end', () =>
        settle(() => resolve({ status: response.statusCode ?? 0, headers: joinHeaders(response.headersDistinct), body: Buffer.concat(chunks), url: target.href })),
      );
      response.on('close', () => {
        if (!response.complete) fail(upstreamFailure(`The upstream ${host} closed the connection before the answer was complete`));
      });
    });
    outgoing.on('error', (error) => fail(connectionFailure(error, host)));
    outgoing.end(request.body);
  });
}

function parseUpstreamUrl(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'Upstream URL must be an absolute http:// or https:// URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new AppError('VALIDATION_FAILED', `Upstream URL must be http:// or https://, not ${target.protocol}`);
  }
  if (target.username || target.password) throw new AppError('VALIDATION_FAILED', 'Upstream URL must not carry credentials (user:password@)');
  return target;
}

/** The agent's headers, lower-cased, without the dropped ones and those its Connection header names. */
function outboundHeaders(input: Record<string, string>): Record<string, string> {
  const entries = Object.entries(input).map(([name, value]) => [name.toLowerCase(), value] as const);
  const named = entries
    .filter(([name]) => name === 'connection')
    .flatMap(([, value]) => value.split(','))
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(entries.filter(([name]) => !DROPPED_REQUEST_HEADERS.has(name) && !named.includes(name)));
}

function joinHeaders(distinct: NodeJS.Dict<string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(distinct).map(([name, values]) => [name, (values ?? []).join(', ')]));
}

/** Failures on the upstream's side (502): the agent's request was fine, the seller was not. */
function upstreamFailure(message: string, cause?: unknown): AppError {
  return new AppError('UPSTREAM_ERROR', message, { cause });
}

function connectionFailure(error: Error, host: string): AppError {
  if (error instanceof PrivateAddressError) return new AppError('VALIDATION_FAILED', `${UPSTREAM_PRIVATE_ADDRESS_MESSAGE} (${host})`, { cause: error });
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return upstreamFailure(`The upstream host ${host} could not be resolved`, error);
  if (code === 'ECONNREFUSED') return upstreamFailure(`The upstream ${host} refused the connection`, error);
  return upstreamFailure(`Could not reach the upstream ${host}: ${code ?? error.message}`, error);
}
