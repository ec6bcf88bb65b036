import { router } from '../init';
import { listRecentTransactions } from './list-recent-transactions';

export const transactionsRouter = router({ recent: listRecentTransactions });
