/**
 * The x402 sign-in-with-x extension (SIWX, @x402/extensions) as it crosses: a seller's 402 asks
 * the buyer to prove control of its wallet with a CAIP-122 message (EIP-4361 on EVM chains) under
 * `extensions["sign-in-with-x"]`: `info` (domain, uri, version, nonce, issuedAt, ...) and
 * `supportedChains` (which chains and signature types the seller verifies). A seller that asks only
 * that (an account it sells access to) offers nothing to pay: `accepts: []`. The proof goes back
 * base64 JSON in the SIGN-IN-WITH-X header. The message, its signing and its encoding are the
 * package's; this module reads the challenge and writes the header.
 */
import { encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtensionInfo, type SIWxPayload } from '@x402/extensions/sign-in-with-x';
import { z } from 'zod';

/** What a seller asks the agent to sign, as its 402 declared it. */
export interface SignInChallenge {
  info: SIWxExtensionInfo;
  /** CAIP-2 chain ids and signature types (`eip191`, `ed25519`); one the agent can use is picked. */
  supportedChains: { chainId: string; type: string }[];
}

const challengeSchema = z.object({
  info: z.object({
    domain: z.string().min(1),
    uri: z.string().min(1),
    version: z.string().min(1),
    nonce: z.string().min(1),
    issuedAt: z.string().min(1),
    statement: z.string().optional(),
    expirationTime: z.string().optional(),
    notBefore: z.string().optional(),
    requestId: z.string().optional(),
    resources: z.array(z.string()).optional(),
  }),
  // A type Purser does not know is kept: it is simply not one the agent signs with.
  supportedChains: z.array(z.object({ chainId: z.string().min(1), type: z.string().min(1) })).min(1),
});

/**
 * The 402's sign-in challenge, or null when it declares none. A malformed declaration is no
 * challenge: a 402 that also offers a payment is paid as if it had none, and an auth-only one
 * reads as a malformed 402 (payment-required.ts).
 */
export function readSignInChallenge(extensions: Record<string, unknown> | undefined): SignInChallenge | null {
  const parsed = challengeSchema.safeParse(extensions?.[SIGN_IN_WITH_X]);
  return parsed.success ? parsed.data : null;
}

/** The request header that carries the signed proof back to the seller. */
export function signInHeader(payload: SIWxPayload): Record<string, string> {
  return { [SIGN_IN_WITH_X]: encodeSIWxHeader(payload) };
}
