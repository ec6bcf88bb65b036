/**
 * The one way a paid call reaches its seller (through the outbound policy; in the sandbox also
 * to this server's own paid API), signed as the agent when its owner's rule says so (Web Bot
 * Auth on a plain request, Visa TAP's `agent-payer-auth` on the paid one: identity/sign-agent-request.ts),
 * and the view of the seller's answer the agent gets.
 */
import type { HttpSignatureTag, RequestSignatureView, X402UpstreamResponseView } from '@purser/core';
import { agentRequestSigner, type AgentRequestSigner } from '../../identity/sign-agent-request';
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

export interface UpstreamCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Who the call is made as: the agent's signer (null when its owner signs none of its requests) and the tag. */
export interface CallIdentity {
  signer: AgentRequestSigner | null;
  tag: HttpSignatureTag;
}

export type SignedUpstreamResponse = UpstreamResponse & { requestSignature: RequestSignatureView | null };

/** The agent's signer for one paid call: its first request and its paid retry carry the same key. */
export function requestSignerFor(deps: X402Deps, agent: { agentId: string; ownerId: string }): Promise<AgentRequestSigner | null> {
  return agentRequestSigner({ prisma: deps.db.prisma, masterKey: deps.masterKey, publicUrl: deps.publicUrl }, agent);
}

/**
 * The headers that sign the call as the agent (they replace any the agent sent by those names),
 * or none; throws SIGNATURE_REFUSED, before anything is sent, for a host the owner's policies refuse.
 */
export async function signedCall(request: UpstreamCall, identity: CallIdentity): Promise<{ request: UpstreamCall; requestSignature: RequestSignatureView | null }> {
  const signed = identity.signer ? await identity.signer.sign({ url: request.url, method: request.method }, identity.tag) : null;
  if (!signed) return { request, requestSignature: null };
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !(name.toLowerCase() in signed.headers)));
  return { request: { ...request, headers: { ...headers, ...signed.headers } }, requestSignature: signed.record };
}

/** Sends the call, signed as the agent when `identity` says so. */
export async function callUpstream(deps: X402Deps, request: UpstreamCall, identity?: CallIdentity): Promise<SignedUpstreamResponse> {
  const { request: sent, requestSignature } = identity ? await signedCall(request, identity) : { request, requestSignature: null };
  return { ...(await fetchUpstream(sent, upstreamOptions(deps, sent.url))), requestSignature };
}

export function upstreamView(response: UpstreamResponse | SignedUpstreamResponse, payment: X402UpstreamResponseView['payment']): X402UpstreamResponseView {
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

/**
 * fetch, through the outbound policy: for an official client that calls the seller itself (a
 * channel's refund), signed as the agent when `identity` says so.
 */
export function upstreamFetch(deps: X402Deps, identity?: CallIdentity): typeof fetch {
  return (async (target: string | URL | Request, init?: RequestInit) => {
    const url = target instanceof Request ? target.url : String(target);
    const answer = await callUpstream(deps, { url, method: init?.method ?? 'GET', headers: Object.fromEntries(new Headers(init?.headers).entries()) }, identity);
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  }) as typeof fetch;
}
