/**
 * The MCP endpoint's HTTP leg: one POST carries one whole exchange, served by a fresh server for
 * the authenticated agent, in the protocol generation the request speaks, and answered as JSON
 * (the tools send nothing before their result, so the modern leg never upgrades to a stream).
 *
 * - MCP 2026-07-28 requests (they carry the per-request `_meta` envelope, `server/discover`
 *   included) go to the SDK's createMcpHandler, which is stateless by design: no session, no
 *   `initialize`; every request says its version and capabilities.
 * - 2025-era requests (`initialize`, then calls without an envelope; JSON-RPC batches) go to a
 *   stateless Streamable HTTP transport answering JSON, as this endpoint always has.
 *
 * isLegacyRequest is the SDK's own routing predicate, so the two legs never disagree with the
 * SDK about a request's era. Fastify has parsed the body already (under its body limit): both
 * legs are handed the parsed value, and the SDK reads nothing more.
 */
import { createMcpHandler, isJsonContentType, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@purser/core';
import type { McpEra } from './mcp-tasks';

/** Headers that describe the Node connection or the body already read, not the request. */
const NOT_FORWARDED = new Set(['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

function webRequestOf(request: FastifyRequest, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, `${request.protocol}://${request.host}`), { method: 'POST', headers, signal });
}

/**
 * Answers one POST to the MCP endpoint. `serverFor` makes the agent's server for an era; the
 * caller has authenticated the agent and charged its rate limit.
 */
export async function answerMcpPost(
  request: FastifyRequest,
  reply: FastifyReply,
  serverFor: (era: McpEra) => Server,
  onError: (error: Error) => void,
): Promise<Response> {
  // Fastify parses JSON, and text as a string; MCP messages are JSON objects or arrays only.
  if (!isJsonContentType(request.headers['content-type']) || typeof request.body !== 'object' || request.body === null) {
    const refusal = new AppError('BAD_REQUEST', 'Send MCP messages as JSON, with Content-Type: application/json');
    return Response.json(refusal.toJSON(), { status: 415 });
  }
  // When the response is over or the client went away: handlers still running are told to
  // stop, and the exchange's server and transport are closed.
  const disconnected = new AbortController();
  const closers: Array<() => Promise<void> | void> = [() => disconnected.abort()];
  reply.raw.on('close', () => {
    for (const close of closers) void Promise.resolve().then(close).catch(onError);
  });
  const web = webRequestOf(request, disconnected.signal);

  if (await isLegacyRequest(web, request.body)) {
    const server = serverFor('legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    closers.push(() => transport.close(), () => server.close());
    await server.connect(transport);
    return transport.handleRequest(web, { parsedBody: request.body });
  }
  const handler = createMcpHandler(() => serverFor('modern'), { legacy: 'reject', onerror: onError });
  closers.push(() => handler.close());
  return handler.fetch(web, { parsedBody: request.body });
}
