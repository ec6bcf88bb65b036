/**
 * The one HTTP client for URLs someone else chose: x402 upstreams
 * (services/paid-calls/front/upstream.ts) and webhook endpoints
 * (services/webhooks/deliver-webhook.ts).
 *
 * The request is fenced in: http(s) only, no credentials in the URL, the outbound policy
 * checked before connecting (names and literal addresses) and inside the connection's own
 * DNS lookup (every answer), a fresh connection per request so every request is checked, no
 * redirects (a 3xx comes back as it is: its Location is never called), a time limit on the
 * whole exchange and a cap on how much of the answer is read. Nothing of ours is added: no
 * cookies, credentials or proxy headers; with tracing on, the W3C traceparent of the call's span.
 *
 * Failures are AppErrors: VALIDATION_FAILED for a request that cannot be sent, URL_NOT_ALLOWED
 * for a refused destination, UPSTREAM_ERROR for what the other side did (or did not do).
 */
import http from 'node:http';
import https from 'node:https';
import { AppError, isAppError } from '@purser/core';
import { traceOutbound } from '../../tracing/outbound-span';
import { assertHostAllowed, checkedLookup, urlTarget, type OutboundPolicy } from './outbound-policy';

export interface OutboundRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface OutboundOptions {
  policy: OutboundPolicy;
  /** Who is called, for messages: "upstream", "webhook endpoint". */
  peer: string;
  /** Limit of the whole exchange, connection to last byte read. */
  timeoutMs: number;
  maxResponseBytes: number;
  /**
   * What an answer beyond maxResponseBytes, or cut short, is: a failure ('whole', the answer
   * is handed on), or its first bytes ('excerpt', only the status counts).
   */
  body: 'whole' | 'excerpt';
}

export interface OutboundResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
  /** The URL as requested, normalised. */
  url: string;
}

export function parseOutboundUrl(url: string, peer: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new AppError('VALIDATION_FAILED', `The ${peer} URL must be an absolute http:// or https:// URL`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new AppError('VALIDATION_FAILED', `The ${peer} URL must be http:// or https://, not ${target.protocol}`);
  }
  if (target.username || target.password) throw new AppError('VALIDATION_FAILED', `The ${peer} URL must not carry credentials (user:password@)`);
  return target;
}

export async function sendOutbound(request: OutboundRequest, options: OutboundOptions): Promise<OutboundResponse> {
  const { policy, peer, timeoutMs, maxResponseBytes } = options;
  const target = parseOutboundUrl(request.url, peer);
  assertHostAllowed(policy, target);
  const { host, port } = urlTarget(target);
  const headers = { ...request.headers };
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  const failure = (message: string, cause?: unknown) => new AppError('UPSTREAM_ERROR', `The ${peer} ${message}`, { cause });

  return traceOutbound(request.method, target, headers, (tracedHeaders) => new Promise<OutboundResponse>((resolve, reject) => {
    let outgoing: http.ClientRequest;
    try {
      outgoing = (target.protocol === 'https:' ? https : http).request(target, {
        method: request.method,
        headers: tracedHeaders,
        // A fresh connection per request: every request goes through the lookup's check.
        agent: false,
        lookup: checkedLookup(policy, port),
      });
    } catch (error) {
      // Node refuses header names and values that cannot go on the wire, before connecting.
      reject(new AppError('VALIDATION_FAILED', `Invalid ${peer} request header: ${error instanceof Error ? error.message : String(error)}`));
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
    const timer = setTimeout(() => fail(failure(`${host} did not answer within the ${timeoutMs} ms limit`)), timeoutMs);

    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = () =>
        settle(() => {
          outgoing.destroy();
          resolve({ status: response.statusCode ?? 0, headers: joinHeaders(response.headersDistinct), body: Buffer.concat(chunks), url: target.href });
        });
      response.on('data', (chunk: Buffer) => {
        if (size < maxResponseBytes) chunks.push(chunk.subarray(0, maxResponseBytes - size));
        size += chunk.length;
        if (size <= maxResponseBytes) return;
        if (options.body === 'excerpt') answer();
        else fail(failure(`${host} answered with more than the ${maxResponseBytes} byte limit`));
      });
      response.on('end', answer);
      response.on('close', () => {
        if (response.complete) return;
        if (options.body === 'excerpt') answer();
        else fail(failure(`${host} closed the connection before the answer was complete`));
      });
    });
    outgoing.on('error', (error) => fail(connectionFailure(error, host, failure)));
    outgoing.end(request.body);
  }));
}

function joinHeaders(distinct: NodeJS.Dict<string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(distinct).map(([name, values]) => [name, (values ?? []).join(', ')]));
}

function connectionFailure(error: Error, host: string, failure: (message: string, cause?: unknown) => AppError): AppError {
  // The checked lookup refused an answer of the name.
  if (isAppError(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return failure(`host ${host} could not be resolved`, error);
  if (code === 'ECONNREFUSED') return failure(`${host} refused the connection`, error);
  return failure(`${host} could not be reached: ${code ?? error.message}`, error);
}
