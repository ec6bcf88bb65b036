import { describe, expect, it } from 'vitest';
import { budgetNoticeText, noticeSeverity, type BudgetAlert } from './budget-notice';

const daily: BudgetAlert = {
  id: 'a1',
  agentId: 'agent-1',
  agentName: 'Research bot',
  scope: 'daily_limit',
  policyName: null,
  threshold: 80,
  period: '2026-11-26',
  spent: 8,
  limit: 10,
  createdAt: '2026-11-26T14:03:00.000Z',
};

describe('budgetNoticeText', () => {
  it('says what share of the daily limit was spent, with both figures and the day', () => {
    expect(budgetNoticeText(daily)).toBe('Spent 80% of the daily limit ($8.00 of $10.00) on Nov 26');
  });

  it('names the agent when the notice is shown beside other agents', () => {
    expect(budgetNoticeText({ ...daily, threshold: 100, spent: 10.5 }, { withAgent: true })).toBe(
      'Research bot spent 100% of its daily limit ($10.50 of $10.00) on Nov 26',
    );
  });

  it('names the policy of a monthly budget and the month it belongs to', () => {
    const monthly: BudgetAlert = { ...daily, scope: 'monthly_budget', policyName: 'Ops budget', period: '2026-11', spent: 1234.5, limit: 1500 };
    expect(budgetNoticeText(monthly)).toBe('Spent 80% of the monthly budget of policy "Ops budget" ($1,234.50 of $1,500.00) in November 2026');
  });

  it('adds the year only when the day is not in the current year', () => {
    expect(budgetNoticeText(daily, { currentYear: 2026 })).toMatch(/on Nov 26$/);
    expect(budgetNoticeText({ ...daily, period: '2025-12-31' }, { currentYear: 2026 })).toMatch(/on Dec 31, 2025$/);
  });

  it('falls back to the day the notice was raised when the period is not a date', () => {
    expect(budgetNoticeText({ ...daily, period: 'rolling-24h', createdAt: '2026-11-27T01:00:00Z' })).toMatch(/on Nov 27$/);
  });
});

describe('noticeSeverity', () => {
  it('warns at 80% and marks a reached limit as an error', () => {
    expect(noticeSeverity({ threshold: 80 })).toBe('warning');
    expect(noticeSeverity({ threshold: 100 })).toBe('error');
  });
});
