import { getOwnerWallet } from '../../services/wallets/get-owner-wallet';
import { ownerProcedure } from '../init';
import { getWalletOutput } from './get-wallet.types';

export const getWallet = ownerProcedure.output(getWalletOutput).query(({ ctx }) => getOwnerWallet(ctx.db.prisma, ctx.owner.userId));
