import { describe, expect, it } from 'vitest';
import { policyRulesDocumentView, policyRulesToDocument } from './policy-document';
import { policyRulesSchema, type PolicyRulesDocument } from './policy-rules';

const EVERY_RULE: PolicyRulesDocument = {
  maxPerTransaction: '12.345678',
  dailyCap: 0.1,
  monthlyBudget: 0,
  approvalThreshold: 1000,
  allowedCategories: ['  compute ', 'Data'],
  blockedCategories: ['gambling'],
  allowedMerchants: ['api.example.com'],
  blockedMerchants: ['casino.example'],
  allowedCountries: ['de', ' fr '],
  blockedCountries: ['KP'],
  timeWindows: [{ days: ['Friday', 'mon'], start: '22:00', end: '02:00' }, { start: '00:00', end: '24:00' }],
  kyaEscalation: ' Moderate ',
  timeBox: '24H',
};

describe('policyRulesToDocument', () => {
  it('writes amounts as exact decimal dollar strings, the daily limit under its own name and the time box as its text', () => {
    const document = policyRulesToDocument(policyRulesSchema.parse(EVERY_RULE));
    expect(document).toEqual({
      maxPerTransaction: '12.345678',
      dailyLimit: '0.1',
      monthlyBudget: '0',
      approvalThreshold: '1000',
      allowedCategories: ['compute', 'Data'],
      blockedCategories: ['gambling'],
      allowedMerchants: ['api.example.com'],
      blockedMerchants: ['casino.example'],
      allowedCountries: ['DE', 'FR'],
      blockedCountries: ['KP'],
      timeWindows: [
        { days: ['mon', 'fri'], start: '22:00', end: '02:00' },
        { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '00:00', end: '24:00' },
      ],
      kyaEscalation: 'moderate',
      timeBox: '24h',
    });
    expect(Object.keys(document)).toEqual([
      'maxPerTransaction',
      'dailyLimit',
      'monthlyBudget',
      'approvalThreshold',
      'allowedCategories',
      'blockedCategories',
      'allowedMerchants',
      'blockedMerchants',
      'allowedCountries',
      'blockedCountries',
      'timeWindows',
      'kyaEscalation',
      'timeBox',
    ]);
  });

  it('parses back to the very rules it was made from, through JSON as the database stores it', () => {
    const samples: PolicyRulesDocument[] = [
      EVERY_RULE,
      { dailyCap: 100, allowedCategories: ['compute', 'data'], kyaEscalation: 'moderate', timeBox: '24h' },
      { maxPerTransaction: '0.000001' },
      { approvalThreshold: '999999999999.999999' },
      { blockedCountries: ['gb'], timeBox: '30m' },
      { timeWindows: [{ days: ['sun'], start: '23:00', end: '01:00' }] },
    ];
    for (const sample of samples) {
      const rules = policyRulesSchema.parse(sample);
      const stored = JSON.parse(JSON.stringify(policyRulesToDocument(rules))) as unknown;
      expect(policyRulesSchema.parse(stored), JSON.stringify(sample)).toEqual(rules);
    }
  });

  it('leaves out every rule the policy does not set', () => {
    const document = policyRulesToDocument(policyRulesSchema.parse({ monthlyBudget: 250 }));
    expect(document).toStrictEqual({ monthlyBudget: '250' });
    expect('dailyLimit' in document).toBe(false);
  });

  it('matches the document view of the API', () => {
    const document = policyRulesToDocument(policyRulesSchema.parse(EVERY_RULE));
    expect(policyRulesDocumentView.parse(document)).toEqual(document);
    // A stored document is a document an owner could have written.
    const asInput: PolicyRulesDocument = document;
    expect(policyRulesSchema.safeParse(asInput).success).toBe(true);
  });

  it('keeps amounts exact where a float would not', () => {
    const rules = policyRulesSchema.parse({ dailyLimit: '900719925474.099267' });
    expect(policyRulesToDocument(rules).dailyLimit).toBe('900719925474.099267');
  });
});
