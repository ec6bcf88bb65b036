/**
 * Contracts of budget alerts: an agent's spend reached 80 or 100 percent of its spending
 * rules' daily limit or of an enforced policy's monthly budget. Each threshold alerts once per
 * period (the UTC day of the daily limit, the UTC month of a monthly budget), as a row the
 * console lists (`budgetAlerts.list`, GET /api/v1/budget-alerts) and as a `budget.threshold`
 * webhook event whose id is the alert's id. camelCase, like the webhook contracts.
 */
import { z } from 'zod';
import { CURRENCIES } from '../money';

export const BUDGET_THRESHOLD_EVENT = 'budget.threshold';
/** Percent of the limit at which an alert fires. */
export const BUDGET_ALERT_THRESHOLDS = [80, 100] as const;
export type BudgetAlertThreshold = (typeof BUDGET_ALERT_THRESHOLDS)[number];
/** Which limit: the agent's spending rules' daily limit, or a policy's monthly budget. */
export const BUDGET_ALERT_SCOPES = ['daily_limit', 'monthly_budget'] as const;
export type BudgetAlertScope = (typeof BUDGET_ALERT_SCOPES)[number];

const threshold = z.union([z.literal(80), z.literal(100)]);

/** `data.alert` of a budget.threshold event. Amounts in dollars, with full-precision strings beside them. */
export const budgetAlertEventData = z.object({
  agentId: z.string(),
  agentName: z.string(),
  scope: z.enum(BUDGET_ALERT_SCOPES),
  /** The policy whose monthly budget it is; null for the daily limit. */
  policyId: z.string().nullable(),
  threshold,
  /** "2026-11-26" (UTC day) for the daily limit, "2026-11" (UTC month) for a monthly budget. */
  period: z.string(),
  /** Spent in the limit's window (the rolling 24 hours, or the month) once the payment counted. */
  spent: z.number(),
  spentExact: z.string(),
  limit: z.number(),
  limitExact: z.string(),
  currency: z.enum(CURRENCIES),
  /** The payment whose capture reached the threshold. */
  intentId: z.string().nullable(),
});
export type BudgetAlertEventData = z.infer<typeof budgetAlertEventData>;

/** The body of a budget.threshold webhook (Standard Webhooks: `id` is the `webhook-id`). */
export const budgetThresholdEventView = z.object({
  id: z.string(),
  type: z.literal(BUDGET_THRESHOLD_EVENT),
  createdAt: z.string(),
  data: z.object({ alert: budgetAlertEventData }),
});
export type BudgetThresholdEventView = z.infer<typeof budgetThresholdEventView>;

export const BUDGET_ALERTS_DEFAULT_LIMIT = 50;
const LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';

/** REST passes these in the query string, so limit is coerced. */
export const listBudgetAlertsInput = z.object({
  agentId: z.uuid({ error: 'agentId must be the id of one of your agents' }).optional(),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int({ error: LIMIT_MESSAGE })
    .min(1, { error: LIMIT_MESSAGE })
    .max(100, { error: LIMIT_MESSAGE })
    .default(BUDGET_ALERTS_DEFAULT_LIMIT),
});
export type ListBudgetAlertsInput = z.output<typeof listBudgetAlertsInput>;

export const budgetAlertView = z.object({
  id: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  scope: z.enum(BUDGET_ALERT_SCOPES),
  policyId: z.string().nullable(),
  /** The policy's name; null for the daily limit, or when the policy is gone. */
  policyName: z.string().nullable(),
  threshold,
  period: z.string(),
  spent: z.number(),
  spentExact: z.string(),
  limit: z.number(),
  limitExact: z.string(),
  currency: z.enum(CURRENCIES),
  intentId: z.string().nullable(),
  createdAt: z.string(),
});
export type BudgetAlertView = z.infer<typeof budgetAlertView>;

/** Newest first. */
export const budgetAlertListView = z.object({ alerts: z.array(budgetAlertView) });
export type BudgetAlertListView = z.infer<typeof budgetAlertListView>;
