import { RECENT_TRANSACTIONS_LIMIT } from '@purser/core';
import { listOwnerTransactions } from '../../services/wallets/list-owner-transactions';
import { ownerProcedure } from '../init';
import { listRecentTransactionsOutput } from './list-recent-transactions.types';

export const listRecentTransactions = ownerProcedure
  .output(listRecentTransactionsOutput)
  .query(({ ctx }) => listOwnerTransactions(ctx.db.prisma, ctx.owner.userId, { limit: RECENT_TRANSACTIONS_LIMIT }));
