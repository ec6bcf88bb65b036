/**
 * The console's list of an agent's OAuth connections, newest first, revoked ones included: the
 * client, its scopes, its cap and what it spent against it, when it was made, last acted and
 * expires. Only the agent's owner sees them; a deleted agent is found by nobody.
 */
import type { OAuthConnectionListView } from '@purser/core';
import type { AppDeps } from '../../deps';
import { agentNotFound, assertUuids, ownedAgentWhere } from '../agents/owned-agent';
import { spentByConnections } from './connection-spend';
import { connectionSelect, toConnectionView } from './connection-view';

const MAX_LISTED = 200;

export async function listAgentConnections(deps: Pick<AppDeps, 'db'>, ownerId: string, agentId: string): Promise<OAuthConnectionListView> {
  assertUuids(ownerId, agentId);
  const { prisma } = deps.db;
  const agent = await prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, agentId), select: { id: true } });
  if (!agent) throw agentNotFound();
  const rows = await prisma.oauthConnection.findMany({
    where: { agentId, ownerId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: MAX_LISTED,
    select: connectionSelect,
  });
  const spent = await spentByConnections(prisma, rows.map((row) => row.id));
  return { connections: rows.map((row) => toConnectionView(row, spent.get(row.id) ?? 0n)) };
}
