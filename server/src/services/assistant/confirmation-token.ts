/**
 * Confirmation tokens of the assistant's actions. The conversation lives in the browser and
 * comes back whole with every request, so the server cannot trust it to say what the owner was
 * asked. When the model asks to create or fund an agent, the server writes the proposal itself
 * and ends it with a token naming exactly that action: the owner, the action, its arguments,
 * an expiry and a random nonce, authenticated with an HMAC under a key derived from the master
 * key. A "yes" acts only on a valid token of the signed-in owner; the nonce becomes the
 * action's idempotency key, so a replayed "yes" never acts twice.
 *
 * Format: `pa1.<base64url JSON payload>.<base64url HMAC-SHA256 of "pa1.<payload>">`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { deriveKey } from '../../secrets';
import { IDEMPOTENCY_TTL_MS } from '../idempotency/with-idempotency';

export const CONFIRMATION_TOKEN_PREFIX = 'pa1';
/** How long the owner has to answer "yes". */
export const CONFIRMATION_TTL_MS = 10 * 60 * 1000;

// A token must expire before its idempotency record does, or a late replay could act again.
if (CONFIRMATION_TTL_MS >= IDEMPOTENCY_TTL_MS) throw new Error('CONFIRMATION_TTL_MS must be shorter than IDEMPOTENCY_TTL_MS');

export const ACTION_NAMES = ['create_agent', 'fund_agent'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

const payloadSchema = z.strictObject({
  /** The owner the action was proposed to. */
  o: z.string(),
  a: z.enum(ACTION_NAMES),
  /** The action's arguments as the contract accepts them (amounts as decimal strings). */
  p: z.record(z.string(), z.string()),
  /** Expiry, Unix milliseconds. */
  e: z.number().int(),
  n: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
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

function mac(masterKey: Buffer, signed: string): Buffer {
  return createHmac('sha256', signingKey(masterKey)).update(signed).digest();
}

export function issueConfirmationToken(masterKey: Buffer, proposal: ProposedAction, now: Date = new Date()): string {
  const payload = { o: proposal.ownerId, a: proposal.action, p: proposal.args, e: now.getTime() + CONFIRMATION_TTL_MS, n: randomBytes(16).toString('base64url') };
  const signed = `${CONFIRMATION_TOKEN_PREFIX}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signed}.${mac(masterKey, signed).toString('base64url')}`;
}

/**
 * What a token allows the owner signed in now: the action, or why not. The signature is
 * checked before anything in the payload is believed.
 */
export function checkConfirmationToken(masterKey: Buffer, token: string, ownerId: string, now: Date = new Date()): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== CONFIRMATION_TOKEN_PREFIX) return { ok: false, reason: 'invalid' };
  const [prefix, body = '', signature = ''] = parts;
  const expected = mac(masterKey, `${prefix}.${body}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };

  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  const payload = payloadSchema.safeParse(json);
  if (!payload.success) return { ok: false, reason: 'invalid' };
  if (payload.data.o !== ownerId) return { ok: false, reason: 'other_owner' };
  if (payload.data.e <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, action: { ownerId: payload.data.o, action: payload.data.a, args: payload.data.p, nonce: payload.data.n } };
}

/** How a proposal carries its token: a last line that renders as a small code span. */
export function confirmationLine(token: string): string {
  return `Confirmation: \`${token}\``;
}

const TOKEN_IN_MESSAGE = /Confirmation: `(pa1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)`/;
const TOKENS_IN_TEXT = /Confirmation: `pa1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`/g;

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
