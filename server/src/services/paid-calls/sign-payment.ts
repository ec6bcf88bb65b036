/**
 * /x402/sign-payment: a payment header for one seller's requirement. Signing is a payment: an
 * intent on the x402-base rail, so spending rules, policies, KYA caps, approval and the balance
 * are all checked, and the funds are held, before anything is signed. An `exact` or `upto`
 * payment is held and signed in the agent's own request (front/pay-in-request.ts); a channel, a
 * replayed key, or an `upto` the request could not sign, by its workflow (front/signed-by-workflow.ts).
 * The workflow captures once the authorisation is used on chain and releases the funds if it
 * expires unused.
 */
import { AppError, toDecimalString, type X402SignedPaymentView, type X402SignPaymentInput } from '@purser/core';
import { countX402Payment } from '../../metrics/metrics';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { refusalOf } from '../agent-api/intent-outcome';
import { answeredExtensions } from './front/answered-extensions';
import { checkedHeader, intentTerms, type KnownHeader } from './front/checked-header';
import { keptAnswersOf } from './front/kept-answers';
import { payInRequest } from './front/pay-in-request';
import { priceFor } from './front/price-requirement';
import { signedByWorkflow, signedInRequest } from './front/signed-by-workflow';
import type { X402Deps } from './front/x402-deps';
import { NO_SINGLE_HEADER } from './schemes/batch-settlement/batch-settlement-scheme';
import { schemeFor } from './schemes/lookup';
import { refused } from './schemes/problems';
import { protocolOf, type X402IntentMetadata } from './x402/intent-metadata';
import { headerNameOf } from './x402/payment-header';

export interface SignedPayment {
  view: X402SignedPaymentView;
  /** True when the header is there to use; false when the payment waits (202). */
  authorized: boolean;
  /** The idempotency key named an existing payment: this is its header again, not a new one. */
  replayed: boolean;
  /** Signed in this request (front/pay-in-request.ts): its operation, already checked against the intent. */
  signedHere: KnownHeader | null;
}

export async function signX402Payment(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  input: X402SignPaymentInput & { resource?: X402IntentMetadata['resource']; mpp?: X402IntentMetadata['mpp'] },
  options: { idempotencyKey?: string; waitMs?: number; urlFetched?: boolean; channel?: boolean; forwardNow?: boolean } = {},
): Promise<SignedPayment> {
  const { requirement, x402_version: version } = input;
  const { chain } = deps;
  // Priced before anything is created: a requirement Purser will not sign holds nothing.
  const priced = priceFor(deps, requirement, version);
  const { amount, payTo, scheme } = priced;
  const { paidInRequest, channel } = schemeFor(scheme);
  if (channel && !options.channel) throw refused(NO_SINGLE_HEADER);

  const url = input.url ?? input.resource?.url ?? (typeof requirement.resource === 'string' ? requirement.resource : undefined);
  const merchant = url ? new URL(url).host : payTo;
  const x402: X402IntentMetadata = {
    x402_version: version,
    requirement: requirement as X402IntentMetadata['requirement'],
    ...(input.resource ? { resource: input.resource } : url ? { resource: { url } } : {}),
    // Host rules of merchant policies count only for a URL Purser fetched itself.
    url_fetched: options.urlFetched === true,
    ...(version === 2 && input.extensions ? await answeredExtensions(input.extensions, url) : {}),
    ...(input.mpp ? { protocol: 'mpp' as const, mpp: input.mpp } : {}),
  };
  const description = input.description ?? (typeof requirement.description === 'string' ? requirement.description : undefined) ?? input.resource?.description ?? '';
  const intentInput = {
    agentId: agent.agentId,
    amount,
    currency: 'USDC' as const,
    purpose: (description || `${protocolOf(x402) === 'mpp' ? 'MPP' : 'x402'} payment to ${merchant}`).slice(0, 500),
    merchant,
    toAddress: payTo,
    category: input.category ?? protocolOf(x402),
    metadata: { url: url ?? null, network: chain.info.network, x402 },
    rail: 'x402-base' as const,
    maxRetries: 2,
    idempotencyKey: input.idempotency_key,
    paymentSessionId: input.session_id,
  };
  // Authorised and signed in this request, unless the scheme is the workflow's (a channel); replays are the workflow's too.
  const inRequest = paidInRequest !== 'by-workflow' ? await payInRequest(deps, agent, intentInput, priced, { idempotencyKey: options.idempotencyKey }) : null;
  const { intent, operation, replayed, signedHere } = inRequest ? await signedInRequest(deps, agent, inRequest, options) : await signedByWorkflow(deps, agent, intentInput, options);
  const intentId = intent.id;
  // Signed to be sent on at once (/x402/fetch): its workflow starts after the seller answered
  // (proxyX402Request), so its first steps do not compete with the paid call. Any other payment
  // signed here (handed out, refused, waiting for the owner) starts its workflow now.
  const details = keptAnswersOf(operation?.details);
  const header = details.paymentHeader ?? null;
  const forwardNow = options.forwardNow === true && operation?.status === 'pending' && header !== null;
  if (inRequest && !forwardNow) void inRequest.startWorkflow();
  const refusal = refusalOf(intent);
  countX402Payment(scheme, protocolOf(x402), refusal ? 'refused' : operation?.status === 'declined' ? 'declined' : !header ? 'waiting' : replayed ? 'replayed' : 'signed');
  if (refusal) throw refusal;
  if (operation?.status === 'declined') throw new AppError('PAYMENT_DECLINED', `${operation.declineMessage ?? 'The payment was declined'} (payment intent ${intentId})`);

  // A header signed in this request was checked as it was signed; one read back is checked again.
  if (header && !signedHere) await checkedHeader(deps, header, await intentTerms(deps, intentId), details);
  const view: X402SignedPaymentView = {
    intent_id: intentId,
    status: intent.status,
    xPaymentHeader: header,
    x_payment_header: header,
    header_name: headerNameOf({ protocol: protocolOf(x402), x402Version: version }),
    x402_version: version,
    amount: intent.amount,
    amount_exact: toDecimalString(amount),
    pay_to: payTo,
    network: chain.info.network,
    valid_before: typeof details.validBefore === 'string' ? new Date(Number(details.validBefore) * 1000).toISOString() : null,
    message: header
      ? operation?.status === 'settled'
        ? 'This payment has already been redeemed by the seller.'
        : `Send it to the seller in the ${headerNameOf({ protocol: protocolOf(x402), x402Version: version })} header, or call /x402/proxy with it, before valid_before.`
      : intent.status === 'pending_approval'
        ? 'The payment waits for the owner to approve it; repeat this call with the same Idempotency-Key afterwards to get the header.'
        : 'The payment is still being processed; repeat this call with the same Idempotency-Key to get the header.',
  };
  return { view, authorized: header !== null, replayed, signedHere: inRequest && signedHere ? { intentId, details, ...(forwardNow ? { startWorkflow: inRequest.startWorkflow } : {}) } : null };
}
