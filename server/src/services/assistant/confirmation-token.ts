/**
 * Confirmation tokens of the assistant's actions. The conversation lives in the browser and
 * comes back whole with every request, so the server cannot trust it to say what the owner was
 * asked. When the model asks to create or fund an agent, the server writes the proposal itself
 * and ends it with a token naming exactly that action: the owner, the action, its arguments,
 * an expiry and a random nonce. A "yes" acts only on a valid token of the signed-in owner; the nonce becomes the
 * action's idempotency key, so a replayed "yes" never acts twice.
 *
 * Signed like the session's access tokens: an HS256 JWT (jose) under a key derived from the
 * master key for this purpose alone, its audience naming it, so neither can pass for the other.
 */
import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { deriveKey } from '../../secrets';
import { IDEMPOTENCY_TTL_MS } from '../idempotency/with-idempotency';

const AUDIENCE = 'purser-assistant-confirmation';
/** How long the owner has to answer "yes". */
export const CONFIRMATION_TTL_MS = 10 * 60 * 1000;

// A token must expire before its idempotency record does, or a late replay could act again.
if (CONFIRMATION_TTL_MS >= IDEMPOTENCY_TTL_MS) throw new Error('CONFIRMATION_TTL_MS must be shorter than IDEMPOTENCY_TTL_MS');

export const ACTION_NAMES = ['create_agent', 'fund_agent'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** The claims beside the registered ones: the action and its arguments (amounts as decimal strings). */
const claimsSchema = z.object({
  sub: z.string(),
  a: z.enum(ACTION_NAMES),
  p: z.record(z.string(), z.string()),
  jti: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
});

export interface ProposedAction {
  ownerId: string;
  action: ActionName;
  args: Record<string, string>;
}

export interface ConfirmedAction extends ProposedAction {
  nonce: string;
}

export type TokenCheck = { ok: true; action: ConfirmedAction } | { ok: false; reason: 'invalid' | 'expired' | 'other_owner' };

function signingKey(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'assistant-confirmations');
}

export function issueConfirmationToken(masterKey: Buffer, proposal: ProposedAction, now: Date = new Date()): Promise<string> {
  return new SignJWT({ a: proposal.action, p: proposal.args })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(proposal.ownerId)
    .setAudience(AUDIENCE)
    .setJti(randomBytes(16).toString('base64url'))
    .setExpirationTime(Math.floor((now.getTime() + CONFIRMATION_TTL_MS) / 1000))
    .sign(signingKey(masterKey));
}

/**
 * What a token allows the owner signed in now: the action, or why not. The signature is
 * checked before anything in the payload is believed.
 */
export async function checkConfirmationToken(masterKey: Buffer, token: string, ownerId: string, now: Date = new Date()): Promise<TokenCheck> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, signingKey(masterKey), {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'jti'],
      currentDate: now,
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof joseErrors.JOSEError) return { ok: false, reason: 'invalid' };
    throw error;
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) return { ok: false, reason: 'invalid' };
  if (claims.data.sub !== ownerId) return { ok: false, reason: 'other_owner' };
  return { ok: true, action: { ownerId: claims.data.sub, action: claims.data.a, args: claims.data.p, nonce: claims.data.jti } };
}

/** How a proposal carries its token: a last line that renders as a small code span. */
export function confirmationLine(token: string): string {
  return `Confirmation: \`${token}\``;
}

const TOKEN_IN_MESSAGE = /Confirmation: `([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)`/;
const TOKENS_IN_TEXT = /Confirmation: `[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`/g;

/** The token an assistant message ends its proposal with, if any. */
export function tokenInMessage(content: string): string | undefined {
  return TOKEN_IN_MESSAGE.exec(content)?.[1];
}

/**
 * The history as the model sees it: tokens withheld, so a model can never repeat one under a
 * proposal the server did not write.
 */
export function withoutTokens(content: string): string {
  return content.replace(TOKENS_IN_TEXT, 'Confirmation: (code withheld)');
}
