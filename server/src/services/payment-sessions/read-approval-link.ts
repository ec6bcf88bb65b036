/**
 * What the owner's approval link opens (approval-link.ts): the waiting request with its agent's
 * name, for the confirmation page. Reading changes nothing; a link that could not decide
 * (another owner's, for nothing, used, expired, its request decided or past its expiry) is
 * refused with its code.
 */
import type { PaymentSessionApprovalLinkView } from '@purser/core';
import type { AppDeps } from '../../deps';
import { isUuid } from '../agents/owned-agent';
import { approvalLinkNotFound, approvalLinkSelect, approvalTokenHash, assertApprovalLinkUsable } from './approval-link';
import { assertRequestWaiting, sessionSelect, viewSession } from './session-view';

export async function readApprovalLink(deps: Pick<AppDeps, 'db'>, ownerId: string, token: string, now = new Date()): Promise<PaymentSessionApprovalLinkView> {
  if (!isUuid(ownerId)) throw approvalLinkNotFound();
  const { prisma } = deps.db;
  const link = await prisma.paymentSessionApprovalLink.findUnique({
    where: { tokenHash: approvalTokenHash(token) },
    select: { ...approvalLinkSelect, session: { select: { ...sessionSelect, agent: { select: { name: true } } } } },
  });
  assertApprovalLinkUsable(link, ownerId, now);
  const { agent, ...row } = link.session;
  assertRequestWaiting(row, now);
  return { session: await viewSession(prisma, row, now), agentName: agent.name, linkExpiresAt: link.expiresAt.toISOString() };
}
