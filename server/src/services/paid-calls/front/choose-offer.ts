/**
 * A seller's 402 read in both protocols, and the one offer Purser pays. An x402 seller's
 * PAYMENT-REQUIRED (or v1 body) and an MPP seller's `WWW-Authenticate: Payment` challenges may
 * come together (an `mppx` seller sends both by default). Each offer is priced the same way
 * (front/price-requirement.ts: our network, our USDC, a price, a window), the call's `max_amount`
 * bounds them all, and of those left the owner's policies choose (`preferredProtocol`), else the
 * cheaper, x402 on a tie. Nothing is held or signed here.
 */
import { AppError, preferredProtocolOf, toDecimalString, type PaymentProtocol } from '@purser/core';
import type { AuthenticatedAgent } from '../../agents/authenticate-agent';
import { loadApplicablePolicies } from '../../policies/load-applicable-policies';
import { chargeRequirement } from '../mpp/charge-requirement';
import { chargeNonce, readChargeOffers, readPaymentChallenges, type MppChallenge, type MppChargeOffer } from '../mpp/payment-challenge';
import type { PricedRequirement } from '../schemes/payment-scheme';
import { refused } from '../schemes/problems';
import { protocolOf, x402MetadataOf } from '../x402/intent-metadata';
import { readPaymentRequired, type PaymentRequiredInfo, type X402Version } from '../x402/payment-required';
import { priceFor } from './price-requirement';
import { recommendRequirement } from './recommend-requirement';
import type { X402Deps } from './x402-deps';

/** What a 402 offers, in each protocol. */
export interface SellerOffers {
  x402: PaymentRequiredInfo | null;
  mpp: MppChallenge[];
}

/** One offer as Purser would pay it. */
export interface PaidOffer {
  protocol: PaymentProtocol;
  /** The requirement as offered (x402), or the MPP charge read as an `exact` requirement. */
  requirement: Record<string, unknown>;
  x402Version: X402Version;
  priced: PricedRequirement;
  /** MPP: the challenge the credential answers. */
  mpp?: { challenge: MppChallenge };
}

/**
 * The offers of a 402, null for any other answer. A 402 with MPP challenges whose x402 part
 * cannot be read is an MPP offer; one with neither is a malformed 402 (UPSTREAM_ERROR).
 */
export function readOffers(response: { status: number; headers: Record<string, string>; body: Buffer }): SellerOffers | null {
  if (response.status !== 402) return null;
  const mpp = readPaymentChallenges(response);
  try {
    return { x402: readPaymentRequired(response), mpp };
  } catch (error) {
    if (mpp.length === 0) throw error;
    return { x402: null, mpp };
  }
}

/** True when the 402 offers anything to pay (an x402 v2 sign-in-only 402 offers nothing). */
export function offersPayment(offers: SellerOffers | null): offers is SellerOffers {
  return offers !== null && ((offers.x402?.accepts.length ?? 0) > 0 || offers.mpp.length > 0);
}

type Attempt = { offer: PaidOffer; price: bigint } | { error: unknown };

/**
 * The offer to pay: `x402Requirement` is the x402 requirement the front would pay (a channel
 * already open to this seller, else the recommended one). Throws when none can be paid: the first
 * offer's reason (an x402 seller's refusals read as they always have), or `max_amount`.
 */
export async function chooseOffer(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  offers: SellerOffers,
  x402Requirement: Record<string, unknown> | null,
  maxAmount: bigint | undefined,
): Promise<PaidOffer> {
  const attempts: Attempt[] = [];
  if (offers.x402 && offers.x402.accepts.length > 0) attempts.push(await attempt(async () => x402Offer(deps, offers.x402!, x402Requirement)));
  for (const charge of readChargeOffers(offers.mpp)) attempts.push(await attempt(() => mppOffer(deps, charge)));
  if (attempts.length === 0) {
    const methods = [...new Set(offers.mpp.map((challenge) => `${challenge.method}/${challenge.intent}`))].join(', ');
    throw new AppError('RAIL_UNAVAILABLE', `The seller asks for MPP ${methods}; Purser pays MPP's EVM charge in USDC on ${deps.chain.info.network} (${deps.chain.info.displayName}) and x402`);
  }
  const priced = attempts.filter((entry): entry is Extract<Attempt, { offer: PaidOffer }> => 'offer' in entry);
  if (priced.length === 0) throw (attempts[0] as { error: unknown }).error;
  const within = priced.filter(({ price }) => maxAmount === undefined || price <= maxAmount);
  if (within.length === 0) {
    const { price } = priced[0]!;
    throw new AppError('POLICY_VIOLATION', `The seller asks ${toDecimalString(price)} USDC, more than max_amount ${toDecimalString(maxAmount!)}; nothing was paid`);
  }
  if (within.length === 1) return within[0]!.offer;
  const preferred = preferredProtocolOf(await loadApplicablePolicies(deps.db.prisma, { ownerId: agent.ownerId, agentId: agent.agentId }));
  const cheapest = [...within].sort((a, b) => (a.price === b.price ? protocolOrder(a.offer) - protocolOrder(b.offer) : a.price < b.price ? -1 : 1));
  return (cheapest.find(({ offer }) => offer.protocol === preferred) ?? cheapest[0]!).offer;
}

/** What a call adds to the agent's spending: the price, for a channel the voucher's increment. */
function callPrice(priced: PricedRequirement): bigint {
  return priced.channel?.price ?? priced.amount;
}

function protocolOrder(offer: PaidOffer): number {
  return offer.protocol === 'x402' ? 0 : 1;
}

function x402Offer(deps: X402Deps, info: PaymentRequiredInfo, chosen: Record<string, unknown> | null): { offer: PaidOffer; price: bigint } {
  const requirement = chosen ?? (recommendRequirement(info.accepts, info.x402Version, deps.chain.info.network, deps.chain.info.usdcAddress) as Record<string, unknown> | null);
  if (!requirement) {
    throw new AppError('RAIL_UNAVAILABLE', `The seller accepts no exact USDC payment on ${deps.chain.info.network} (${deps.chain.info.displayName})`);
  }
  const priced = priceFor(deps, requirement, info.x402Version);
  return { offer: { protocol: 'x402', requirement, x402Version: info.x402Version, priced }, price: callPrice(priced) };
}

/**
 * An MPP EVM charge priced like an x402 `exact` requirement, with what only MPP asks: the
 * authorisation is valid until the challenge expires, so a challenge open longer than Purser
 * signs for is refused; and a challenge is answered once (its nonce is bound to it), so one
 * answered before is refused rather than signed twice.
 */
async function mppOffer(deps: X402Deps, charge: MppChargeOffer): Promise<{ offer: PaidOffer; price: bigint }> {
  const requirement = chargeRequirement(charge);
  const priced = priceFor(deps, requirement, 2);
  if (priced.validitySeconds < requirement.maxTimeoutSeconds) {
    throw refused(`The MPP challenge stays open ${requirement.maxTimeoutSeconds} s, longer than Purser signs a payment for (${priced.validitySeconds} s); nothing was signed`);
  }
  const answered = await deps.db.prisma.railOperation.findUnique({ where: { reference: chargeNonce(charge.challenge) }, select: { paymentIntentId: true } });
  if (answered) throw refused(`This MPP challenge was already answered (payment intent ${answered.paymentIntentId}); a challenge is paid once`);
  return { offer: { protocol: 'mpp', requirement, x402Version: 2, priced, mpp: { challenge: charge.challenge } }, price: priced.amount };
}

/** An offer priced, or why it cannot be paid. */
async function attempt(price: () => Promise<{ offer: PaidOffer; price: bigint }>): Promise<Attempt> {
  try {
    return await price();
  } catch (error) {
    return { error };
  }
}

/**
 * The offer an earlier call with this Idempotency-Key chose, as it chose it: a retry pays (or
 * replays) the same payment, whatever the seller offers now. An MPP seller answers each call with
 * a fresh challenge; the payment stays the one that answered the first. Channels are left to
 * front/pay-through-channel.ts, which finds them by their seller.
 */
export async function offerChosenBefore(deps: X402Deps, agent: AuthenticatedAgent, idempotencyKey: string | undefined): Promise<PaidOffer | null> {
  if (idempotencyKey === undefined) return null;
  const intent = await deps.db.prisma.paymentIntent.findUnique({ where: { agentId_idempotencyKey: { agentId: agent.agentId, idempotencyKey } }, select: { metadata: true } });
  const x402 = x402MetadataOf(intent?.metadata);
  if (!x402) return null;
  const requirement = x402.requirement as Record<string, unknown>;
  const priced = priceFor(deps, requirement, x402.x402_version);
  // A channel is found by its seller, not by a key (front/pay-through-channel.ts).
  if (priced.channel) return null;
  return { protocol: protocolOf(x402), requirement, x402Version: x402.x402_version, priced, ...(x402.mpp ? { mpp: x402.mpp } : {}) };
}
