import { describe, expect, it } from 'vitest';
import { approvalThresholdHint, fieldOfMessage, spendingRulesForm, spendingRulesInput } from './spending-rules-form';

const AGENT = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('spendingRulesForm', () => {
  it('fills the fields with the exact figures and leaves a missing threshold empty', () => {
    expect(
      spendingRulesForm({ max_transaction_amount_exact: '50', max_daily_limit_exact: '200.5', approval_threshold_exact: null }),
    ).toEqual({ maxTransactionAmount: '50', maxDailyLimit: '200.5', approvalThreshold: '' });
  });
});

describe('spendingRulesInput', () => {
  it('sends every limit, an empty approval threshold as null (never)', () => {
    expect(spendingRulesInput(AGENT, { maxTransactionAmount: ' 25 ', maxDailyLimit: '100', approvalThreshold: '' })).toEqual({
      ok: true,
      input: { agent_id: AGENT, max_transaction_amount: '25', max_daily_limit: '100', approval_threshold: null },
    });
    expect(spendingRulesInput(AGENT, { maxTransactionAmount: '25', maxDailyLimit: '100', approvalThreshold: '5.5' })).toMatchObject({
      ok: true,
      input: { approval_threshold: '5.5' },
    });
  });

  it("asks for the limits that are empty and shows the server schema's message for the rest", () => {
    expect(spendingRulesInput(AGENT, { maxTransactionAmount: '', maxDailyLimit: '-3', approvalThreshold: '1.1234567' })).toEqual({
      ok: false,
      errors: {
        maxTransactionAmount: 'Please enter a max transaction amount',
        maxDailyLimit: 'Max daily limit must not be negative',
        approvalThreshold: 'Approval threshold must have at most 6 decimals',
      },
    });
  });

  it('accepts zero, which freezes spending', () => {
    expect(spendingRulesInput(AGENT, { maxTransactionAmount: '0', maxDailyLimit: '0', approvalThreshold: '0' }).ok).toBe(true);
  });
});

describe('fieldOfMessage', () => {
  it('finds the field a server message is about', () => {
    expect(fieldOfMessage('Max daily limit is too large')).toBe('maxDailyLimit');
    expect(fieldOfMessage('Approval threshold must be a decimal number of dollars')).toBe('approvalThreshold');
    expect(fieldOfMessage('Agent not found')).toBeNull();
  });
});

describe('approvalThresholdHint', () => {
  it('warns when the threshold can never be reached by one payment', () => {
    expect(approvalThresholdHint({ maxTransactionAmount: '50', maxDailyLimit: '100', approvalThreshold: '50' })).toMatch(/no payment will wait/);
    expect(approvalThresholdHint({ maxTransactionAmount: '50', maxDailyLimit: '100', approvalThreshold: '20' })).toBeNull();
    expect(approvalThresholdHint({ maxTransactionAmount: '50', maxDailyLimit: '100', approvalThreshold: '' })).toBeNull();
  });
});
