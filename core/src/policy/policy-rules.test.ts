import { describe, expect, it } from 'vitest';
import { parseTimeBox, policyRulesSchema } from './policy-rules';

function messagesOf(document: unknown): string[] {
  const result = policyRulesSchema.safeParse(document);
  if (result.success) throw new Error(`Expected ${JSON.stringify(document)} to be refused`);
  return result.error.issues.map((issue) => issue.message);
}

describe('policy documents', () => {
  it('read the spec sample: dailyCap 100, allowed categories, kyaEscalation moderate, timeBox 24h', () => {
    const rules = policyRulesSchema.parse({ dailyCap: 100, allowedCategories: ['compute', 'data'], kyaEscalation: 'moderate', timeBox: '24h' });
    expect(rules).toEqual({
      dailyLimit: 100_000_000n,
      allowedCategories: ['compute', 'data'],
      kyaEscalation: 'moderate',
      timeBox: { text: '24h', milliseconds: 86_400_000 },
    });
  });

  it('read dollar amounts as numbers or strings into atomic units, six decimals kept, zero allowed', () => {
    const rules = policyRulesSchema.parse({ maxPerTransaction: '12.345678', dailyLimit: 0.1, monthlyBudget: '0', approvalThreshold: 1000 });
    expect(rules.maxPerTransaction).toBe(12_345_678n);
    expect(rules.dailyLimit).toBe(100_000n);
    expect(rules.monthlyBudget).toBe(0n);
    expect(rules.approvalThreshold).toBe(1_000_000_000n);
  });

  it('take dailyCap as the spec name of dailyLimit but refuse both at once', () => {
    expect(policyRulesSchema.parse({ dailyCap: '5' }).dailyLimit).toBe(5_000_000n);
    expect(messagesOf({ dailyLimit: 5, dailyCap: 5 })).toEqual(['Give dailyLimit or dailyCap (its alias), not both']);
  });

  it('refuse negative amounts with a message naming the rule', () => {
    expect(messagesOf({ maxPerTransaction: -1 })).toEqual(['maxPerTransaction must not be negative']);
    expect(messagesOf({ monthlyBudget: '-0.5' })).toEqual(['monthlyBudget must not be negative']);
  });

  it('refuse amounts with more than six decimals and amounts that are not numbers', () => {
    expect(messagesOf({ dailyLimit: '1.0000001' })).toEqual(['dailyLimit must have at most 6 decimals']);
    expect(messagesOf({ approvalThreshold: 0.0000001 })).toEqual(['approvalThreshold must have at most 6 decimals']);
    expect(messagesOf({ maxPerTransaction: 'ten' })).toEqual(['maxPerTransaction must be a decimal number of dollars']);
    expect(messagesOf({ maxPerTransaction: true })).toEqual(['maxPerTransaction must be a number of dollars']);
  });

  it('upper-case country codes and refuse ones that are not two letters or not assigned', () => {
    expect(policyRulesSchema.parse({ allowedCountries: ['de', ' Fr ', 'US'] }).allowedCountries).toEqual(['DE', 'FR', 'US']);
    expect(messagesOf({ allowedCountries: ['USA'] })).toEqual([
      'allowedCountries: "USA" is not an ISO 3166-1 alpha-2 country code (two letters, such as US or DE)',
    ]);
    expect(messagesOf({ blockedCountries: ['U1'] })[0]).toMatch(/"U1" is not an ISO 3166-1 alpha-2 country code/);
    expect(messagesOf({ blockedCountries: ['XX'] })).toEqual(['blockedCountries: "XX" is not an assigned ISO 3166-1 alpha-2 country code']);
    expect(messagesOf({ allowedCountries: ['uk'] })).toEqual([
      'allowedCountries: "uk" is not an assigned ISO 3166-1 alpha-2 country code (did you mean GB?)',
    ]);
  });

  it('trim category and merchant names and refuse blank ones', () => {
    expect(policyRulesSchema.parse({ blockedMerchants: ['  shop.example '] }).blockedMerchants).toEqual(['shop.example']);
    expect(messagesOf({ allowedCategories: ['food', '  '] })).toEqual(['allowedCategories must not contain an empty category']);
  });

  it('keep merchant addresses as written and refuse an entry that starts with 0x but is not an address', () => {
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(policyRulesSchema.parse({ allowedMerchants: [` ${address} `, 'api.example.com', '0xsplits.xyz'] }).allowedMerchants).toEqual([
      address,
      'api.example.com',
      '0xsplits.xyz',
    ]);
    expect(messagesOf({ allowedMerchants: ['0x5290840009852788'] })).toEqual([
      'allowedMerchants: "0x5290840009852788" is not an EVM address (0x followed by 40 hex digits)',
    ]);
    expect(messagesOf({ blockedMerchants: [`${address}0`, '0X52908400098527886E0F7030069857D2E4169EZ7'] })).toEqual([
      `blockedMerchants: "${address}0" is not an EVM address (0x followed by 40 hex digits)`,
      'blockedMerchants: "0X52908400098527886E0F7030069857D2E4169EZ7" is not an EVM address (0x followed by 40 hex digits)',
    ]);
  });

  it('refuse unknown rules, empty lists and empty documents', () => {
    expect(messagesOf({ maxPerTx: 5 })).toHaveLength(1);
    expect(messagesOf({ maxPerTx: 5 })[0]).toMatch(/^Unknown policy rule maxPerTx; known rules: maxPerTransaction, dailyLimit/);
    expect(messagesOf({ allowedCategories: [] })).toEqual([
      'allowedCategories must list at least one category; leave it out to apply no such rule',
    ]);
    expect(messagesOf({})[0]).toMatch(/^A policy must set at least one rule/);
    expect(messagesOf('dailyCap: 100')).toEqual(['A policy must be an object of rules']);
  });
});

describe('time windows in policy documents', () => {
  it('default to every day, accept full day names in any case and keep the week order', () => {
    const rules = policyRulesSchema.parse({
      timeWindows: [
        { start: '09:00', end: '17:00' },
        { days: ['Friday', 'MON'], start: '22:00', end: '02:00' },
        { days: ['sat'], start: '00:00', end: '24:00' },
      ],
    });
    expect(rules.timeWindows).toEqual([
      { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '09:00', end: '17:00' },
      { days: ['mon', 'fri'], start: '22:00', end: '02:00' },
      { days: ['sat'], start: '00:00', end: '24:00' },
    ]);
  });

  it('refuse times that are not HH:MM within the day', () => {
    expect(messagesOf({ timeWindows: [{ start: '9:00', end: '17:00' }] })).toEqual(['Time window start must be a time HH:MM from 00:00 to 23:59']);
    expect(messagesOf({ timeWindows: [{ start: '24:00', end: '02:00' }] })).toEqual(['Time window start must be a time HH:MM from 00:00 to 23:59']);
    expect(messagesOf({ timeWindows: [{ start: '09:00', end: '24:01' }] })).toEqual(['Time window end must be a time HH:MM from 00:00 to 24:00']);
    expect(messagesOf({ timeWindows: [{ start: '09:60', end: '10:00' }] })).toEqual(['Time window start must be a time HH:MM from 00:00 to 23:59']);
  });

  it('refuse a window whose start equals its end', () => {
    expect(messagesOf({ timeWindows: [{ start: '09:00', end: '09:00' }] })).toEqual([
      'Time window start and end must differ; for a whole day use 00:00 to 24:00',
    ]);
  });

  it('refuse unknown days, empty day lists, unknown fields and an empty list of windows', () => {
    expect(messagesOf({ timeWindows: [{ days: ['funday'], start: '09:00', end: '17:00' }] })).toEqual([
      '"funday" is not a day of the week: use mon, tue, wed, thu, fri, sat, sun',
    ]);
    expect(messagesOf({ timeWindows: [{ days: [], start: '09:00', end: '17:00' }] })).toEqual([
      'Time window days must name at least one day; leave days out for every day',
    ]);
    expect(messagesOf({ timeWindows: [{ start: '09:00', end: '17:00', zone: 'UTC' }] })).toEqual([
      'Unknown time window field zone: a window has days, start and end',
    ]);
    expect(messagesOf({ timeWindows: [] })).toEqual(['timeWindows must list at least one window; leave it out to allow any time']);
  });
});

describe('kyaEscalation in policy documents', () => {
  it('accepts basic, moderate and high in any case', () => {
    expect(policyRulesSchema.parse({ kyaEscalation: 'Moderate' }).kyaEscalation).toBe('moderate');
    expect(policyRulesSchema.parse({ kyaEscalation: 'high' }).kyaEscalation).toBe('high');
  });

  it('refuses unknown tiers and pseudonymous, which no agent is below', () => {
    expect(messagesOf({ kyaEscalation: 'ultra' })).toEqual(['kyaEscalation must be one of basic, moderate, high']);
    expect(messagesOf({ kyaEscalation: 'pseudonymous' })).toEqual([
      'kyaEscalation must be one of basic, moderate, high (escalating to pseudonymous would never apply)',
    ]);
    expect(messagesOf({ kyaEscalation: 2 })).toEqual(['kyaEscalation must be one of basic, moderate, high']);
  });
});

describe('time boxes', () => {
  it('read minutes, hours, days and weeks', () => {
    expect(parseTimeBox('30m')).toBe(1_800_000);
    expect(parseTimeBox('24h')).toBe(86_400_000);
    expect(parseTimeBox(' 7D ')).toBe(604_800_000);
    expect(parseTimeBox('2w')).toBe(1_209_600_000);
  });

  it('stay within 1 minute and 30 days', () => {
    expect(parseTimeBox('1m')).toBe(60_000);
    expect(parseTimeBox('30d')).toBe(2_592_000_000);
    expect(messagesOf({ timeBox: '0m' })).toEqual(['timeBox must be at least 1 minute']);
    expect(messagesOf({ timeBox: '721h' })).toEqual(['timeBox must be at most 30 days']);
    expect(messagesOf({ timeBox: '5w' })).toEqual(['timeBox must be at most 30 days']);
  });

  it('refuse anything that is not a number and a unit', () => {
    for (const bad of ['24 hours', '1.5h', 'h', '-1h', '']) {
      expect(messagesOf({ timeBox: bad }), bad).toEqual(['timeBox must be a duration such as 30m, 24h, 7d or 2w']);
    }
    expect(messagesOf({ timeBox: 24 })).toEqual(['timeBox must be a duration such as 30m, 24h, 7d or 2w']);
  });
});
