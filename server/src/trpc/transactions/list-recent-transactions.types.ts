import { ownerTransactionView } from '@purser/core';
import { z } from 'zod';

/** The owner wallet's newest 10 transactions, newest first. */
export const listRecentTransactionsOutput = z.array(ownerTransactionView);
export type ListRecentTransactionsOutput = z.infer<typeof listRecentTransactionsOutput>;
