/**
 * What every x402 step of the agent API shares: its dependencies, the one way it prices a
 * requirement, the one way it reaches an upstream (the outbound policy) and the view of an
 * upstream's answer. Here so the one-payment steps (x402-services.ts) and the channels
 * (x402-channels.ts) use the same pieces without importing each other.
 */
import type { X402SignedPaymentView, X402UpstreamResponseView } from '@purser/core';
import type { AppDeps } from '../../deps';
import { allowingHost } from '../outbound/outbound-policy';
import { fetchUpstream, type UpstreamOptions, type UpstreamResponse } from './upstream';
import { DEFAULT_X402_MAX_VALIDITY_SECONDS, priceRequirement, type PricedRequirement } from './x402-authorization';
import { readPaymentResponse, type X402Version } from './x402-messages';

export type X402Deps = Pick<AppDeps, 'db' | 'temporal' | 'chain' | 'outbound' | 'publicUrl' | 'logger' | 'x402MaxValiditySeconds' | 'masterKey'> & Partial<Pick<AppDeps, 'events'>>;

/** What /x402/fetch answers: the upstream's answer, or the payment waiting for approval. */
export type FetchOutcome = { kind: 'response'; view: X402UpstreamResponseView } | { kind: 'waiting'; view: X402SignedPaymentView };

export function priceFor(deps: X402Deps, requirement: Record<string, unknown>, x402Version: X402Version): PricedRequirement {
  return priceRequirement(requirement, x402Version, deps.chain.info, deps.x402MaxValiditySeconds ?? DEFAULT_X402_MAX_VALIDITY_SECONDS);
}

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
