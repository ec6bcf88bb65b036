import { z } from 'zod';

/** Without agentId: the owner's wallet transactions. With it: that agent's (when it is the owner's). */
export const transactionCreatedInput = z.object({ agentId: z.uuid().optional() }).optional();

/** 'sync': the subscription is live, read the list now. 'created': a transaction was recorded (committed). */
export const transactionCreatedMessage = z.union([
  z.object({ type: z.literal('sync') }),
  z.object({ type: z.literal('created'), id: z.uuid(), walletId: z.uuid() }),
  z.object({ type: z.literal('created'), id: z.uuid(), agentId: z.uuid() }),
]);
export type TransactionCreatedMessage = z.infer<typeof transactionCreatedMessage>;
