import { z } from 'zod';

/** 'sync': the subscription is live, read the wallet now. 'changed': a balance changed (committed). */
export const walletChangeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync') }),
  z.object({ type: z.literal('changed'), walletId: z.uuid() }),
]);
export type WalletChangeMessage = z.infer<typeof walletChangeMessage>;
