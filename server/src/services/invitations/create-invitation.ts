/**
 * Invitation codes gate sign-up. The code is shown once; only its SHA-256 is stored, so a
 * database leak does not hand out sign-ups.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../secrets';
import { AppError } from '@purser/core';
import type { PrismaClient } from '@purser/db';

// Crockford base32: no I, L, O, U, so codes survive being read aloud or retyped.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_USES_LIMIT = 10_000;

export interface CreateInvitationInput {
  maxUses: number;
  expiresAt: Date;
  now?: Date;
}

export interface CreatedInvitation {
  id: string;
  code: string;
  maxUses: number;
  expiresAt: Date;
}

export function hashInvitationCode(code: string): string {
  return hashSecret(normalizeInvitationCode(code));
}

export function normalizeInvitationCode(code: string): string {
  return code.trim().toUpperCase();
}

export function generateInvitationCode(): string {
  const bytes = randomBytes(15);
  let body = '';
  for (const byte of bytes) body += ALPHABET[byte % 32];
  return `PURSER-${body.slice(0, 5)}-${body.slice(5, 10)}-${body.slice(10, 15)}`;
}

export async function createInvitation(prisma: PrismaClient, input: CreateInvitationInput): Promise<CreatedInvitation> {
  const now = input.now ?? new Date();
  if (!Number.isInteger(input.maxUses) || input.maxUses < 1 || input.maxUses > MAX_USES_LIMIT) {
    throw new AppError('VALIDATION_FAILED', `Uses must be a whole number from 1 to ${MAX_USES_LIMIT}`);
  }
  if (!(input.expiresAt.getTime() > now.getTime())) {
    throw new AppError('VALIDATION_FAILED', 'Expiry must be in the future');
  }
  const code = generateInvitationCode();
  const row = await prisma.invitationCode.create({
    data: { codeHash: hashInvitationCode(code), maxUses: input.maxUses, expiresAt: input.expiresAt },
    select: { id: true },
  });
  return { id: row.id, code, maxUses: input.maxUses, expiresAt: input.expiresAt };
}

/**
 * On a fresh installation nobody can sign up without a code, so the first start makes one.
 * Returns undefined once any invitation or user exists.
 */
export async function createFirstInvitation(prisma: PrismaClient, now = new Date()): Promise<CreatedInvitation | undefined> {
  const [invitations, users] = await Promise.all([prisma.invitationCode.count(), prisma.user.count()]);
  if (invitations > 0 || users > 0) return undefined;
  return createInvitation(prisma, { maxUses: 10, expiresAt: new Date(now.getTime() + 30 * DAY_MS), now });
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Parses durations such as 30m, 12h, 7d, 2w. */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*(m|h|d|w)$/.exec(text.trim());
  if (!match) throw new AppError('VALIDATION_FAILED', `Invalid duration "${text}": use a number followed by m, h, d or w (e.g. 7d)`);
  const unit = { m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS }[match[2] as 'm' | 'h' | 'd' | 'w'];
  const value = Number(match[1]) * unit;
  if (value <= 0) throw new AppError('VALIDATION_FAILED', 'Duration must be greater than zero');
  return value;
}
