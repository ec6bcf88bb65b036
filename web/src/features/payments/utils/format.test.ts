import { describe, expect, it } from 'vitest';
import { amountDisplay, formatTableDate, paymentTitle, ruleLabel, shortAddress } from './format';

describe('amountDisplay', () => {
  it('shows two decimals with thousands separators', () => {
    expect(amountDisplay('1234.5')).toEqual({ text: '1,234.50', exact: null });
    expect(amountDisplay('7.25')).toEqual({ text: '7.25', exact: null });
    expect(amountDisplay('12')).toEqual({ text: '12.00', exact: null });
  });

  it('keeps the full amount when two decimals hide part of a micro-payment', () => {
    expect(amountDisplay('0.000125')).toEqual({ text: '0.00', exact: '0.000125' });
    expect(amountDisplay('1.005')).toMatchObject({ exact: '1.005' });
  });

  it('does not call trailing zeros hidden precision', () => {
    expect(amountDisplay('3.500000')).toEqual({ text: '3.50', exact: null });
  });
});

describe('formatTableDate', () => {
  it("formats as 'MMM d, yyyy HH:mm' in local time", () => {
    const local = new Date(2025, 9, 18, 9, 5).toISOString();
    expect(formatTableDate(local)).toBe('Oct 18, 2025 09:05');
    expect(formatTableDate('nonsense')).toBe('');
  });
});

describe('paymentTitle', () => {
  it('prefers the purpose, then the merchant, then the shortened payee', () => {
    expect(paymentTitle({ purpose: ' Weather lookup ', merchant: 'api.weather.test', toAddress: null })).toBe('Weather lookup');
    expect(paymentTitle({ purpose: '', merchant: 'api.weather.test', toAddress: null })).toBe('Payment to api.weather.test');
    expect(paymentTitle({ purpose: '', merchant: null, toAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })).toBe('Payment to 0x7099…79C8');
    expect(paymentTitle({ purpose: '', merchant: null, toAddress: null })).toBe('Payment');
  });

  it('leaves short addresses whole', () => {
    expect(shortAddress('acct_123')).toBe('acct_123');
  });
});

describe('ruleLabel', () => {
  it("names a rule in words, with where it comes from", () => {
    expect(ruleLabel({ rule: 'agent.approvalThreshold' })).toBe('Agent rules · Approval threshold');
    expect(ruleLabel({ rule: 'monthlyBudget', policyId: 'p1' })).toBe('Policy · Monthly budget');
    expect(ruleLabel({ rule: 'kyaTierCap.perDay' })).toBe('KYA cap · Per day');
    expect(ruleLabel({ rule: 'intent.kyaTier' })).toBe('Payment · KYA tier');
    expect(ruleLabel({ rule: 'allowedCategories' })).toBe('Allowed categories');
  });
});
