/**
 * The seller's side of an MPP 402 (the Machine Payments Protocol, IETF draft-httpauth-payment):
 * `WWW-Authenticate: Payment` challenges, read with the official `mppx` codec. Purser pays the
 * EVM `charge` intent, an EIP-3009 transferWithAuthorization like x402's `exact`: each such
 * challenge is read here into the requirement the `exact` scheme prices (the challenge itself is
 * kept, since the credential answers it and the authorisation's nonce is bound to it). A challenge
 * that cannot be read as one is left out, never guessed at.
 */
import { Challenge } from 'mppx';
import { Types } from 'mppx/evm';
import { z } from 'zod';
import { headerValue } from '../x402/payment-required';

/** A challenge as mppx reads it: id (the seller's HMAC over the rest), realm, method, intent, request, expires... */
export type MppChallenge = Challenge.Challenge;

/** The EVM method's name and the one intent Purser pays. */
export const MPP_EVM_METHOD = 'evm';
export const MPP_CHARGE_INTENT = 'charge';

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Atomic = z.string().regex(/^\d+$/);

/** An EVM charge's request (mppx `evm/Types` ChargeRequestSchema), as Purser reads it. */
const ChargeRequestSchema = z.object({
  amount: Atomic,
  currency: Address,
  recipient: Address,
  description: z.string().optional(),
  externalId: z.string().optional(),
  methodDetails: z.object({
    chainId: z.number().int().positive(),
    credentialTypes: z.array(z.string()).optional(),
    decimals: z.number().optional(),
    splits: z.array(z.unknown()).optional(),
  }),
});
export type MppChargeRequest = z.infer<typeof ChargeRequestSchema>;

/** One EVM charge a seller offers: its challenge as sent, and the request read from it. */
export interface MppChargeOffer {
  challenge: MppChallenge;
  request: MppChargeRequest;
}

/** The `Payment` challenges of a 402's WWW-Authenticate header; none for any other answer. */
export function readPaymentChallenges(response: { status: number; headers: Record<string, string> }): MppChallenge[] {
  const header = response.status === 402 ? headerValue(response.headers, 'www-authenticate') : undefined;
  if (header === undefined || !/(^|[\s,])Payment\s/i.test(header)) return [];
  try {
    return Challenge.deserializeList(header);
  } catch {
    return [];
  }
}

/** The EVM charges among a 402's challenges, each with its request read. */
export function readChargeOffers(challenges: MppChallenge[]): MppChargeOffer[] {
  return challenges.flatMap((challenge) => {
    if (challenge.method !== MPP_EVM_METHOD || challenge.intent !== MPP_CHARGE_INTENT) return [];
    const request = ChargeRequestSchema.safeParse(challenge.request);
    return request.success ? [{ challenge, request: request.data }] : [];
  });
}

/** What the seller describes its charge as, for the payment's purpose. */
export function chargeDescription(offer: MppChargeOffer): string | undefined {
  return offer.request.description ?? offer.challenge.description;
}

/** The EIP-3009 nonce a credential for `challenge` signs (mppx binds it to the challenge's id and realm): one authorisation per challenge. */
export function chargeNonce(challenge: MppChallenge): `0x${string}` {
  return Types.challengeHash(challenge);
}
