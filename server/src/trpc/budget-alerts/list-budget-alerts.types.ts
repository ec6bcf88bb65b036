import { budgetAlertListView, listBudgetAlertsInput as listBudgetAlertsRequest } from '@purser/core';

// Optional as a whole, so `budgetAlerts.list()` reads the newest alerts of every agent.
export const listBudgetAlertsInput = listBudgetAlertsRequest.prefault({});
export const listBudgetAlertsOutput = budgetAlertListView;
