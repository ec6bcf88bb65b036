/**
 * Calls to the paid APIs our x402 endpoints fetch on an agent's behalf, once to read the 402
 * and again with the payment header, through the outbound client (services/outbound/), which
 * fences the connection in: the outbound policy, no redirects, a time and a size limit.
 *
 * What is x402's own here: a short list of methods, and the agent's headers cleaned of those
 * that describe the connection rather than the request (the length is computed from the body).
 */
import { AppError } from '@purser/core';
import type { OutboundPolicy } from '../../outbound/outbound-policy';
import { sendOutbound, type OutboundResponse } from '../../outbound/outbound-request';

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;
export const DEFAULT_UPSTREAM_MAX_RESPONSE_BYTES = 1024 * 1024;
export const UPSTREAM_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

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
  /** Where the call may go: the deployment's policy, or more for the sandbox's own paid API. */
  policy: OutboundPolicy;
  /** Limit of the whole exchange, connection to last byte read. */
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export type UpstreamResponse = OutboundResponse;

export async function fetchUpstream(request: UpstreamRequest, options: UpstreamOptions): Promise<UpstreamResponse> {
  const method = (request.method ?? 'GET').toUpperCase();
  if (!(UPSTREAM_METHODS as readonly string[]).includes(method)) {
    throw new AppError('VALIDATION_FAILED', `Upstream method must be one of ${UPSTREAM_METHODS.join(', ')}`);
  }
  return sendOutbound(
    { url: request.url, method, headers: outboundHeaders(request.headers ?? {}), body: request.body },
    {
      policy: options.policy,
      peer: 'upstream',
      timeoutMs: options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_UPSTREAM_MAX_RESPONSE_BYTES,
      body: 'whole',
    },
  );
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
