/**
 * An MPP EVM charge read as the requirement Purser's `exact` scheme prices and signs: the same
 * EIP-3009 transfer of exactly the amount to the recipient, in the currency, on the chain. What
 * only MPP says is checked here: the credential type Purser signs (`authorization`), no splits
 * (one payee only), and a challenge that expires (the authorisation is signed valid until then).
 */
import { AppError } from '@purser/core';
import type { MppChargeOffer } from './payment-challenge';

/** The requirement of an offer, shaped as an x402 v2 `exact` requirement (what the front prices). */
export interface ChargeRequirement extends Record<string, unknown> {
  scheme: 'exact';
  network: string;
  asset: string;
  amount: string;
  payTo: string;
  /** Whole seconds until the challenge expires: the authorisation is valid until then, no longer. */
  maxTimeoutSeconds: number;
  extra: { assetTransferMethod: 'eip3009' };
  description?: string;
}

const refused = (message: string) => new AppError('X402_REFUSED', `${message}; nothing was signed`);

export function chargeRequirement(offer: MppChargeOffer, nowMs = Date.now()): ChargeRequirement {
  const { challenge, request } = offer;
  const types = request.methodDetails.credentialTypes;
  if (types && !types.includes('authorization')) throw refused(`The MPP charge accepts only ${types.join(', ')} credentials, not an EIP-3009 authorization`);
  if (request.methodDetails.splits?.length) throw refused('The MPP charge splits the payment between payees; Purser pays one payee per payment');
  const expires = challenge.expires ? Date.parse(challenge.expires) : Number.NaN;
  if (!Number.isFinite(expires)) throw refused('The MPP challenge has no expiry; its authorisation would have no end');
  const seconds = Math.ceil((expires - nowMs) / 1000);
  if (seconds <= 0) throw refused(`The MPP challenge expired at ${challenge.expires}`);
  return {
    scheme: 'exact',
    network: `eip155:${request.methodDetails.chainId}`,
    asset: request.currency,
    amount: request.amount,
    payTo: request.recipient,
    maxTimeoutSeconds: seconds,
    extra: { assetTransferMethod: 'eip3009' },
    ...(request.description ? { description: request.description } : {}),
  };
}

