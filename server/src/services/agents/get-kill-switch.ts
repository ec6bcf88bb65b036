/** The kill switch's state for the top bar: how many agents it holds paused, and since when. */
import type { KillSwitchView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { assertUuids } from './owned-agent';

export async function getKillSwitch(prisma: PrismaClient, ownerId: string): Promise<KillSwitchView> {
  assertUuids(ownerId);
  const paused = await prisma.agent.aggregate({
    where: { ownerId, status: 'suspended', pausedAt: { not: null } },
    _count: { _all: true },
    _max: { pausedAt: true },
  });
  const pausedCount = paused._count._all;
  return { paused: pausedCount > 0, pausedCount, pausedAt: paused._max.pausedAt?.toISOString() ?? null };
}
