/**
 * The one-time approval link of an agent's budget request (issue 43): the agent hands its owner
 * `<public URL>/approve/<token>`, which opens a confirmation page that needs the owner signed in.
 * The token is 32 random bytes, kept only as its SHA-256 (like OAuth codes, oauth-secrets.ts);
 * the link is bound to its request and its owner, works PAYMENT_SESSION_APPROVAL_LINK_MINUTES, and
 * decides once (decide-by-approval-link.ts). Each refusal has its own code and changes nothing.
 */
import { randomBytes } from 'node:crypto';
import {
  APPROVAL_LINK_NOT_FOUND_MESSAGE,
  AppError,
  PAYMENT_SESSION_APPROVAL_LINK_MINUTES,
  PAYMENT_SESSION_APPROVAL_PATH,
} from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { isUuid } from '../agents/owned-agent';
import { hashSecret } from '../../secrets';
import { assertRequestWaiting, sessionNotFound } from './session-view';

export interface MintApprovalLink {
  sessionId: string;
  ownerId: string;
  /** The deployment's public base URL (AppDeps.publicUrl): the link is opened in the owner's browser. */
  publicUrl: string;
  now: Date;
}

/** Mints a link for the request in `tx` (the request's own transaction); answers the full URL, shown once. */
export async function mintApprovalLink(tx: Pick<TransactionClient, 'paymentSessionApprovalLink'>, link: MintApprovalLink): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.paymentSessionApprovalLink.create({
    data: {
      sessionId: link.sessionId,
      ownerId: link.ownerId,
      tokenHash: hashSecret(token),
      expiresAt: new Date(link.now.getTime() + PAYMENT_SESSION_APPROVAL_LINK_MINUTES * 60_000),
      createdAt: link.now,
    },
    select: { id: true },
  });
  return `${link.publicUrl.replace(/\/+$/, '')}${PAYMENT_SESSION_APPROVAL_PATH}/${token}`;
}

/**
 * A fresh link for one of the owner's requests still waiting (the first one expired or was lost);
 * earlier links keep working until their own end. A session decided or closed, or a request past
 * its expiry, is a 409.
 */
export async function mintFreshApprovalLink(deps: Pick<AppDeps, 'db' | 'publicUrl'>, ownerId: string, sessionId: string, now = new Date()): Promise<string> {
  if (!isUuid(ownerId) || !isUuid(sessionId)) throw sessionNotFound();
  return deps.db.prisma.$transaction(async (tx: TransactionClient) => {
    const session = await tx.paymentSession.findFirst({ where: { id: sessionId, ownerId }, select: { status: true, expiresAt: true } });
    if (!session) throw sessionNotFound();
    assertRequestWaiting(session, now);
    return mintApprovalLink(tx, { sessionId, ownerId, publicUrl: deps.publicUrl, now });
  });
}

export const approvalTokenHash = (token: string): string => hashSecret(token);

export interface ApprovalLinkRow {
  sessionId: string;
  ownerId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export const approvalLinkSelect = { sessionId: true, ownerId: true, expiresAt: true, usedAt: true } as const;

/**
 * Throws why `link` cannot decide for `ownerId` at `now` (for `sessionId`, when one is named).
 * Another owner's link reads as no link at all, so a link says nothing of accounts it does not
 * belong to.
 */
export function assertApprovalLinkUsable(link: ApprovalLinkRow | null, ownerId: string, now: Date, sessionId?: string): asserts link is ApprovalLinkRow {
  if (!link || link.ownerId !== ownerId) throw approvalLinkNotFound();
  if (sessionId !== undefined && link.sessionId !== sessionId) throw new AppError('NOT_FOUND', 'This approval link is for another budget request');
  if (link.usedAt) throw approvalLinkUsed();
  if (link.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('APPROVAL_LINK_EXPIRED', `This approval link expired (links work for ${PAYMENT_SESSION_APPROVAL_LINK_MINUTES} minutes); decide the request from the approvals page instead`);
  }
}

export function approvalLinkNotFound(): AppError {
  return new AppError('NOT_FOUND', APPROVAL_LINK_NOT_FOUND_MESSAGE);
}

export function approvalLinkUsed(): AppError {
  return new AppError('APPROVAL_LINK_USED', 'This approval link was already used: each link decides its request once');
}

