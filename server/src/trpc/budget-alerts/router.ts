import { router } from '../init';
import { listBudgetAlerts } from './list-budget-alerts';

export const budgetAlertsRouter = router({
  list: listBudgetAlerts,
});
