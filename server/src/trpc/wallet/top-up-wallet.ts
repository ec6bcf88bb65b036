import { topUpWallet as topUpOwnerWallet } from '../../services/wallets/top-up-wallet';
import { ownerProcedure } from '../init';
import { topUpWalletProcedureInput, topUpWalletProcedureOutput } from './top-up-wallet.types';

export const topUpWallet = ownerProcedure
  .input(topUpWalletProcedureInput)
  .output(topUpWalletProcedureOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await topUpOwnerWallet(ctx, ctx.owner.userId, input, { idempotencyKey: input.idempotency_key });
    return result.response;
  });
