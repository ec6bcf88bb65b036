/**
 * The one way a paid call reaches its seller (through the outbound policy; in the sandbox also
 * to this server's own paid API), and the view of the seller's answer the agent gets.
 */
import type { X402UpstreamResponseView } from '@purser/core';
import { allowingHost } from '../../outbound/outbound-policy';
import { readPaymentResponse } from '../x402/payment-response';
import { fetchUpstream, type UpstreamOptions, type UpstreamResponse } from './upstream';
import type { X402Deps } from './x402-deps';

/** Where the sandbox's paid API lives on this server (http/sandbox-paid-routes.ts). */
const OWN_SANDBOX_PAID_PATH = '/sandbox/paid/';

/**
 * Upstreams go where the deployment's outbound policy lets them; in the sandbox, also to its
 * own paid API on this server, which the sandbox exists to pay, whatever address it is
 * published on. Only that path, on that origin: the rest of this server is not an upstream.
 */
function upstreamOptions(deps: X402Deps, url: string): UpstreamOptions {
  const target = URL.canParse(url) ? new URL(url) : null;
  const ownSandbox = deps.chain.info.sandbox && target?.origin === new URL(deps.publicUrl).origin && target.pathname.startsWith(OWN_SANDBOX_PAID_PATH);
  return { policy: ownSandbox ? allowingHost(deps.outbound, target.hostname) : deps.outbound };
}

export function callUpstream(deps: X402Deps, request: { url: string; method: string; headers: Record<string, string>; body?: string }): Promise<UpstreamResponse> {
  return fetchUpstream(request, upstreamOptions(deps, request.url));
}

export function upstreamView(response: UpstreamResponse, payment: X402UpstreamResponseView['payment']): X402UpstreamResponseView {
  const type = response.headers['content-type'] ?? '';
  const textual = type === '' || /^text\/|json|xml|javascript|x-www-form-urlencoded/i.test(type);
  const paymentResponse = readPaymentResponse(response.headers);
  return {
    status: response.status,
    headers: response.headers,
    body: response.body.toString(textual ? 'utf8' : 'base64'),
    body_encoding: textual ? 'utf8' : 'base64',
    payment_response: paymentResponse ? (paymentResponse.raw as Record<string, unknown>) : null,
    payment,
  };
}

/** fetch, through the outbound policy: for an official client that calls the seller itself (a channel's refund). */
export function upstreamFetch(deps: X402Deps): typeof fetch {
  return (async (target: string | URL | Request, init?: RequestInit) => {
    const url = target instanceof Request ? target.url : String(target);
    const answer = await callUpstream(deps, { url, method: init?.method ?? 'GET', headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  }) as typeof fetch;
}
