import { listBudgetAlerts as listOwnerBudgetAlerts } from '../../services/budgets/list-budget-alerts';
import { ownerProcedure } from '../init';
import { listBudgetAlertsInput, listBudgetAlertsOutput } from './list-budget-alerts.types';

export const listBudgetAlerts = ownerProcedure
  .input(listBudgetAlertsInput)
  .output(listBudgetAlertsOutput)
  .query(({ ctx, input }) => listOwnerBudgetAlerts(ctx.db.prisma, ctx.owner.userId, input));
