/**
 * /x402/requirements: what a seller asks for a resource (its 402, read in either header
 * generation), and the requirement Purser would pay. Nothing is paid or held; the request is
 * signed as the agent like any other (front/call-upstream.ts).
 */
import type { X402RequirementsInput, X402RequirementsView } from '@purser/core';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { callUpstream, requestSignerFor } from './front/call-upstream';
import { recommendRequirement } from './front/recommend-requirement';
import type { X402Deps } from './front/x402-deps';
import { readPaymentRequired } from './x402/payment-required';

export async function readX402Requirements(deps: X402Deps, agent: AuthenticatedAgent, input: X402RequirementsInput): Promise<X402RequirementsView> {
  const response = await callUpstream(deps, input, { signer: await requestSignerFor(deps, agent), tag: 'web-bot-auth' });
  const info = readPaymentRequired(response);
  if (!info) return { url: input.url, payment_required: false, status: response.status, x402_version: null, accepts: [], recommended: null, error: null };
  return {
    url: input.url,
    payment_required: true,
    status: response.status,
    x402_version: info.x402Version,
    accepts: info.accepts as unknown as Record<string, unknown>[],
    recommended: recommendRequirement(info.accepts, info.x402Version, deps.chain.info.network, deps.chain.info.usdcAddress) as Record<string, unknown> | null,
    error: info.error ?? null,
  };
}
