import { describe, expect, it } from 'vitest';
import { summarizeRules } from './policy-summary';
import { formatDays, formatMerchant, formatRuleDollars } from './rule-format';

describe('formatRuleDollars', () => {
  it('shows two decimals, and more only where the rule has them', () => {
    expect(['0.5', '1000', '100.000001', '7', '12.30'].map(formatRuleDollars)).toEqual(['$0.50', '$1,000.00', '$100.000001', '$7.00', '$12.30']);
  });
});

describe('formatDays', () => {
  it('runs three or more consecutive days together and names the whole week', () => {
    expect(formatDays(['mon', 'tue', 'wed', 'thu', 'fri'])).toBe('Mon–Fri');
    expect(formatDays(['sat', 'sun'])).toBe('Sat, Sun');
    expect(formatDays(['mon', 'wed', 'thu', 'fri', 'sun'])).toBe('Mon, Wed–Fri, Sun');
    expect(formatDays(['sun', 'sat', 'fri', 'thu', 'wed', 'tue', 'mon'])).toBe('Every day');
  });
});

describe('formatMerchant', () => {
  it('shortens addresses and keeps hosts', () => {
    expect(formatMerchant('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe('0x7099…79C8');
    expect(formatMerchant('api.example.com')).toBe('api.example.com');
  });
});

describe('summarizeRules', () => {
  it('says every rule in words, in the engine order', () => {
    expect(
      summarizeRules({
        maxPerTransaction: '5',
        dailyLimit: '100',
        monthlyBudget: '1000',
        approvalThreshold: '50',
        allowedCategories: ['data_api', 'compute'],
        blockedCategories: ['gambling'],
        allowedMerchants: ['api.example.com', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
        blockedMerchants: ['bad.example'],
        allowedCountries: ['US', 'DE'],
        blockedCountries: ['KP'],
        timeWindows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
        kyaEscalation: 'moderate',
        timeBox: '24h',
        preferredProtocol: 'mpp',
      }),
    ).toEqual([
      'Up to $5.00 per payment',
      '$100.00 per rolling 24 hours',
      '$1,000.00 per calendar month',
      'Owner approval above $50.00',
      'Only categories: data_api, compute',
      'Blocks categories: gambling',
      'Only merchants: api.example.com, 0x7099…79C8',
      'Blocks merchants: bad.example',
      'Only countries: US, DE',
      'Blocks countries: KP',
      'Only Mon–Fri 09:00–17:00 UTC',
      'Approval may stand in for KYA up to moderate',
      'Approvals wait up to 24h',
      'Pays in MPP when a seller offers x402 and MPP',
    ]);
  });

  it('previews long lists', () => {
    expect(summarizeRules({ allowedCountries: ['US', 'DE', 'FR', 'IT', 'ES'] })).toEqual(['Only countries: US, DE, FR +2 more']);
  });

  it('says so when there is no rule', () => {
    expect(summarizeRules({})).toEqual(['No rules']);
  });
});
