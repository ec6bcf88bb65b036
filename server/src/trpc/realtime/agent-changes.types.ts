import { z } from 'zod';

/**
 * 'sync': the subscription is live, read the agent list now. 'changed': one of the owner's
 * agents was created, updated (including its wallet balance or spending rules) or deleted.
 */
export const agentChangeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync') }),
  z.object({ type: z.literal('changed'), agentId: z.uuid(), change: z.enum(['created', 'updated', 'deleted']) }),
]);
export type AgentChangeMessage = z.infer<typeof agentChangeMessage>;
