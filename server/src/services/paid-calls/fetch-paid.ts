/**
 * /x402/fetch: requirements, payment and paid call in one, what most agents want. An upstream
 * that does not ask for payment is answered as it is; one that does is paid with the recommended
 * requirement (or through the agent's open channel to that seller), never above `max_amount`.
 * A 402 that asks the agent to sign in (x402 sign-in-with-x) is answered first: the same request
 * again with the agent's proof (front/sign-in.ts), then paid only if the seller still asks for it.
 * Every request is signed as the agent with one key (front/call-upstream.ts).
 */
import { type X402FetchInput, type X402SignPaymentInput, type X402UpstreamResponseView } from '@purser/core';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { getIntent } from '../intents/get-intent';
import { callUpstream, requestSignerFor, upstreamView, type CallIdentity, type SignedUpstreamResponse } from './front/call-upstream';
import { keptAnswersOf } from './front/kept-answers';
import { channelToReuse, payThroughChannel } from './front/pay-through-channel';
import { chooseOffer, offerChosenBefore, offersPayment, readOffers, type SellerOffers } from './front/choose-offer';
import { signInWithX } from './front/sign-in';
import type { FetchOutcome, X402Deps } from './front/x402-deps';
import { proxyX402Request } from './proxy-paid-call';
import { schemeFor } from './schemes/lookup';
import { signX402Payment } from './sign-payment';
import { protocolOf, x402MetadataOf, type X402IntentMetadata } from './x402/intent-metadata';
import { readSignInChallenge } from './x402/sign-in-with-x';

export async function fetchWithX402(deps: X402Deps, agent: AuthenticatedAgent, input: X402FetchInput, options: { idempotencyKey?: string } = {}): Promise<FetchOutcome> {
  // One signer for the whole call: the first request and the paid retry carry the same key.
  const signer = await requestSignerFor(deps, agent);
  const identity: CallIdentity = { signer, tag: 'web-bot-auth' };
  // `call` is the request as it goes out from here on: with the agent's sign-in when it was asked for.
  const { call, response, offers } = await signInIfAsked(deps, agent, input, identity, await callUpstream(deps, input, identity));
  // Nothing to pay: the seller's answer as it is, a sign-in it still refuses included.
  if (!offersPayment(offers)) return { kind: 'response', view: upstreamView(response, null) };

  // An open channel to this seller is used before anything else it offers in x402; otherwise the
  // recommended requirement, which is a channel only when the seller offers nothing else. Then
  // the protocol: the one offer Purser pays of the seller's x402 and MPP offers, never above
  // max_amount (for a channel, what the call adds: the voucher's increment; a channel the call
  // opens holds its whole deposit, which max_amount bounds too: front/pay-through-channel.ts).
  // A retry under the same Idempotency-Key pays what the first call chose: only an MPP challenge
  // changes between calls (an x402 offer is the same again, and the intent's replay finds it).
  const idempotencyKey = options.idempotencyKey ?? input.idempotency_key;
  const reuse = offers.x402 ? await channelToReuse(deps, agent, offers.x402) : null;
  const chosenBefore = offers.mpp.length > 0 ? await offerChosenBefore(deps, agent, idempotencyKey) : null;
  const { requirement, x402Version, priced, mpp } = chosenBefore ?? (await chooseOffer(deps, agent, offers, reuse?.requirement ?? null, input.max_amount));
  const info = offers.x402;
  const sign = (channel: boolean) =>
    signX402Payment(
      deps,
      agent,
      {
        requirement: requirement as unknown as X402SignPaymentInput['requirement'],
        x402_version: x402Version,
        url: input.url,
        ...(!mpp && info?.resource ? { resource: info.resource as X402IntentMetadata['resource'] } : {}),
        // A channel pays many calls: it is named after its seller, not after the first call.
        description: input.description ?? (channel ? `Payment channel to ${new URL(input.url).host}` : undefined),
        category: input.category,
        idempotency_key: input.idempotency_key,
        session_id: input.session_id,
        ...(!mpp && info?.extensions ? { extensions: info.extensions } : {}),
        ...(mpp ? { mpp } : {}),
      },
      { idempotencyKey: options.idempotencyKey, urlFetched: true, channel, forwardNow: !channel },
    );
  if (schemeFor(priced.scheme).channel) {
    return payThroughChannel(deps, agent, {
      input: call,
      info: info!,
      requirement: requirement as unknown as Record<string, unknown>,
      priced,
      signer,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      open: async () => (await sign(true)).view,
    });
  }
  const signed = await sign(false);
  if (!signed.authorized) return { kind: 'waiting', view: signed.view };
  // The same call again, by its Idempotency-Key (a client retrying after a lost answer): the
  // answer the seller gave for this payment, not an attempt to redeem its header twice.
  const kept = signed.replayed ? await keptSellerResponse(deps, agent, signed.view.intent_id) : null;
  if (kept) return { kind: 'response', view: kept };
  return { kind: 'response', view: await proxyX402Request(deps, agent, { ...call, payment_header: signed.view.xPaymentHeader! }, signed.signedHere, signer) };
}

/** A 402 that asks the agent to sign in: the same request again with its proof; the call goes on with what the seller answers then. */
async function signInIfAsked(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  call: X402FetchInput,
  identity: CallIdentity,
  response: SignedUpstreamResponse,
): Promise<{ call: X402FetchInput; response: SignedUpstreamResponse; offers: SellerOffers | null }> {
  const offers = readOffers(response);
  const challenge = offers?.x402 && readSignInChallenge(offers.x402.extensions);
  if (!challenge) return { call, response, offers };
  const signedIn = { ...call, headers: { ...call.headers, ...(await signInWithX(deps, agent, challenge, call.url)) } };
  const again = await callUpstream(deps, signedIn, identity);
  return { call: signedIn, response: again, offers: readOffers(again) };
}

async function keptSellerResponse(deps: X402Deps, agent: AuthenticatedAgent, intentId: string): Promise<X402UpstreamResponseView | null> {
  const operation = await deps.db.prisma.railOperation.findFirst({
    where: { paymentIntentId: intentId, status: 'settled', paymentIntent: { agentId: agent.agentId } },
    select: { details: true },
  });
  const { sellerResponse, transactionHash, sellerReceipt, mppReceipt } = keptAnswersOf(operation?.details);
  if (!sellerResponse) return null;
  const intent = await getIntent(deps.db.prisma, agent.ownerId, intentId);
  const protocol = protocolOf(x402MetadataOf(intent.metadata));
  return {
    ...sellerResponse,
    payment: { intent_id: intentId, status: intent.status, transaction_hash: transactionHash ?? null, protocol },
    seller_receipt: sellerReceipt ?? null,
    ...(mppReceipt ? { mpp_receipt: mppReceipt } : {}),
  };
}
