import { z } from 'zod';

/**
 * 'sync': the subscription is live, read everything now. 'changed': what changed (committed):
 * the wallet, the agents, or the wallet's transactions.
 */
export const dashboardChangeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync') }),
  z.object({ type: z.literal('changed'), what: z.enum(['wallet', 'agents', 'transactions']) }),
]);
export type DashboardChangeMessage = z.infer<typeof dashboardChangeMessage>;
