import { ownerProcedure } from '../init';
import { ownerEvents } from './owner-events';
import type { WalletChangeMessage } from './wallet-changes.types';

/** The signed-in owner's wallet balances changed: re-read the wallet. */
export const walletChanges = ownerProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<WalletChangeMessage, void> {
  for await (const message of ownerEvents(ctx, ['wallet'], signal)) {
    yield message.type === 'sync' ? message : { type: 'changed', walletId: message.event.walletId };
  }
});
