// The words of a budget notice (budgetAlerts.list): what share of which limit an agent spent,
// with the figures, and when. "Spent 80% of the daily limit ($8.00 of $10.00) on Nov 26".

import { formatDay, formatDollars, formatMonth, utcDay } from './money';

/** The fields of a budget alert the notices read. */
export interface BudgetAlert {
  id: string;
  agentId: string;
  agentName: string;
  scope: 'daily_limit' | 'monthly_budget';
  policyName: string | null;
  threshold: number;
  /** The day ('YYYY-MM-DD') or month ('YYYY-MM') the threshold was crossed in. */
  period: string;
  spent: number;
  limit: number;
  createdAt: string;
}

export type NoticeSeverity = 'warning' | 'error';

/** A threshold of 100% means the limit is reached: further payments are refused. */
export function noticeSeverity(alert: Pick<BudgetAlert, 'threshold'>): NoticeSeverity {
  return alert.threshold >= 100 ? 'error' : 'warning';
}

function limitName(alert: BudgetAlert, possessive: string): string {
  if (alert.scope === 'daily_limit') return `${possessive} daily limit`;
  return alert.policyName ? `the monthly budget of policy "${alert.policyName}"` : `${possessive} monthly budget`;
}

/** 'on Nov 26' for a day, 'in November 2026' for a month, else the day the notice was raised. */
function when(alert: BudgetAlert, currentYear: number | undefined): string {
  if (/^\d{4}-\d{2}$/.test(alert.period)) return `in ${formatMonth(alert.period)}`;
  const day = /^\d{4}-\d{2}-\d{2}/.test(alert.period) ? alert.period : utcDay(alert.createdAt);
  return day ? `on ${formatDay(day, currentYear)}` : '';
}

/**
 * The notice's sentence. On an agent's own page: "Spent 80% of the daily limit ($8.00 of
 * $10.00) on Nov 26"; across agents (`withAgent`): "Research bot spent 80% of its daily limit
 * ($8.00 of $10.00) on Nov 26".
 */
export function budgetNoticeText(alert: BudgetAlert, options: { withAgent?: boolean; currentYear?: number } = {}): string {
  const subject = options.withAgent ? `${alert.agentName} spent` : 'Spent';
  const limit = limitName(alert, options.withAgent ? 'its' : 'the');
  const figures = `(${formatDollars(alert.spent)} of ${formatDollars(alert.limit)})`;
  return [`${subject} ${alert.threshold}% of ${limit}`, figures, when(alert, options.currentYear)].filter(Boolean).join(' ');
}
