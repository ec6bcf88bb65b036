/**
 * The buyer's side of an MPP EVM charge: the `Authorization: Payment` credential, signed with the
 * official `mppx` EVM client (an EIP-3009 transferWithAuthorization of the challenge's amount to
 * its recipient, its nonce bound to the challenge, valid until the challenge expires), and read
 * back into the authorisation the `exact` scheme checks against what was priced and held, with
 * the challenge's request as the requirement it answers.
 */
import { AppError } from '@purser/core';
import { Credential } from 'mppx';
import { charge } from 'mppx/evm/client';
import type { Address, LocalAccount } from 'viem';
import { z } from 'zod';
import type { MppChallenge } from './payment-challenge';

/** The header an MPP credential travels in. */
export const MPP_CREDENTIAL_HEADER = 'Authorization';

/** What signing a challenge takes besides the agent's key: the token's EIP-712 domain, Purser's chain and USDC. */
export interface ChargeSigningDomain {
  name: string;
  version: string;
  chainId: number;
  currency: Address;
}

/**
 * The credential for `challenge`, as its header value (`Payment <base64url>`). The client refuses
 * a challenge on another chain or in another currency than Purser's (its own allowlists), so
 * nothing is signed for them even if the front were wrong.
 */
export async function signChargeCredential(account: LocalAccount, challenge: MppChallenge, domain: ChargeSigningDomain): Promise<string> {
  const method = charge({ account, authorization: { name: domain.name, version: domain.version }, networks: [domain.chainId], currencies: [domain.currency], decimals: 6 });
  return method.createCredential({ challenge: challenge as never, context: {} });
}

/** True for an `Authorization: Payment` value: what tells an MPP credential from an x402 header. */
export function isMppCredential(value: string): boolean {
  return /^Payment\s+\S/i.test(value);
}

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Uint = z.string().regex(/^\d+$/);

/** The EVM charge credential's payload (mppx `evm/Types` AuthorizationPayloadSchema). */
const AuthorizationPayloadSchema = z.object({
  type: z.literal('authorization'),
  from: Address,
  to: Address,
  value: Uint,
  validAfter: Uint,
  validBefore: Uint,
  nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
});

const ChargeChallengeRequestSchema = z.object({
  amount: Uint,
  currency: Address,
  recipient: Address,
  methodDetails: z.object({ chainId: z.number().int().positive() }),
});

/** A credential read back: the authorisation it carries, and the challenge it answers. */
export interface DecodedChargeCredential {
  challenge: MppChallenge;
  chainId: number;
  request: z.infer<typeof ChargeChallengeRequestSchema>;
  authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };
  signature: string;
}

export function decodeChargeCredential(value: string): DecodedChargeCredential {
  const malformed = (cause?: unknown) => new AppError('VALIDATION_FAILED', 'The payment header is not a valid MPP EVM charge credential', { cause });
  let credential: Credential.Credential;
  try {
    credential = Credential.deserialize(value);
  } catch (error) {
    throw malformed(error);
  }
  const payload = AuthorizationPayloadSchema.safeParse(credential.payload);
  const request = ChargeChallengeRequestSchema.safeParse(credential.challenge.request);
  if (!payload.success || !request.success || credential.challenge.method !== 'evm' || credential.challenge.intent !== 'charge') throw malformed();
  const { signature, type: _type, ...authorization } = payload.data;
  return { challenge: credential.challenge, chainId: request.data.methodDetails.chainId, request: request.data, authorization, signature };
}
