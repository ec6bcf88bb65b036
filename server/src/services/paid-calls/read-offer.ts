/**
 * /x402/requirements: what a seller asks for a resource (its 402, read in either header
 * generation), and the requirement Purser would pay. A seller asking only over MPP is said to
 * ask for payment, with no x402 requirement to sign (/pay/fetch pays it). Nothing is paid or held; the request is
 * signed as the agent like any other (front/call-upstream.ts).
 */
import type { X402RequirementsInput, X402RequirementsView } from '@purser/core';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { callUpstream, requestSignerFor } from './front/call-upstream';
import { readOffers } from './front/choose-offer';
import { recommendRequirement } from './front/recommend-requirement';
import type { X402Deps } from './front/x402-deps';

/** A seller that asks for payment in MPP alone: nothing here to sign, but /pay/fetch pays it. */
export const MPP_ONLY_MESSAGE = 'The seller asks for payment over MPP (WWW-Authenticate: Payment), not x402; /pay/fetch pays it';

export async function readX402Requirements(deps: X402Deps, agent: AuthenticatedAgent, input: X402RequirementsInput): Promise<X402RequirementsView> {
  const response = await callUpstream(deps, input, { signer: await requestSignerFor(deps, agent), tag: 'web-bot-auth' });
  const offers = readOffers(response);
  if (!offers) return { url: input.url, payment_required: false, status: response.status, x402_version: null, accepts: [], recommended: null, error: null };
  const info = offers.x402;
  if (!info) {
    return { url: input.url, payment_required: true, status: response.status, x402_version: null, accepts: [], recommended: null, error: MPP_ONLY_MESSAGE };
  }
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
