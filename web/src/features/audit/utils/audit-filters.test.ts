import { describe, expect, it } from 'vitest';
import { auditListInput, AUDIT_PAGE_SIZE, dateRangeError, EMPTY_FILTERS, filtersFromParams, filtersKey, filtersToParams, hasFilters, localDayStart } from './audit-filters';

describe('filtersFromParams and filtersToParams', () => {
  it('read the filters from the address and write back only those set, keeping other parameters', () => {
    const filters = filtersFromParams(new URLSearchParams('action=agent.suspended&subject=agent:1&from=2026-11-01&to=2026-11-30'));
    expect(filters).toEqual({ action: 'agent.suspended', subject: 'agent:1', from: '2026-11-01', to: '2026-11-30' });
    const params = filtersToParams({ ...filters, subject: '', to: '' }, new URLSearchParams('tab=x&subject=old'));
    expect(params.toString()).toBe('tab=x&action=agent.suspended&from=2026-11-01');
  });

  it('drops dates that are not calendar days', () => {
    expect(filtersFromParams(new URLSearchParams('from=2026-02-31&to=yesterday'))).toEqual(EMPTY_FILTERS);
  });
});

describe('filtersKey', () => {
  it('is the same for filters the address keeps alike, and differs otherwise', () => {
    expect(filtersKey({ ...EMPTY_FILTERS, action: ' a ' })).toBe(filtersKey({ ...EMPTY_FILTERS, action: 'a' }));
    expect(filtersKey({ ...EMPTY_FILTERS, from: '2026-02-31' })).toBe(filtersKey(EMPTY_FILTERS));
    expect(filtersKey({ ...EMPTY_FILTERS, subject: 'agent:1' })).not.toBe(filtersKey(EMPTY_FILTERS));
  });
});

describe('hasFilters', () => {
  it('is false when every filter is blank', () => {
    expect(hasFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasFilters({ ...EMPTY_FILTERS, action: '  ' })).toBe(false);
    expect(hasFilters({ ...EMPTY_FILTERS, to: '2026-01-01' })).toBe(true);
  });
});

describe('localDayStart', () => {
  it('is local midnight of a real calendar day, and null for anything else', () => {
    expect(localDayStart('2026-11-26')).toEqual(new Date(2026, 10, 26));
    expect(localDayStart('2026-13-01')).toBeNull();
    expect(localDayStart('26-11-2026')).toBeNull();
  });
});

describe('dateRangeError', () => {
  it('refuses an end before the start, and allows a single day', () => {
    expect(dateRangeError({ ...EMPTY_FILTERS, from: '2026-11-02', to: '2026-11-01' })).toMatch(/before/);
    expect(dateRangeError({ ...EMPTY_FILTERS, from: '2026-11-02', to: '2026-11-02' })).toBeNull();
    expect(dateRangeError({ ...EMPTY_FILTERS, to: '2026-11-01' })).toBeNull();
  });
});

describe('auditListInput', () => {
  it('asks for the newest page without filters', () => {
    expect(auditListInput(EMPTY_FILTERS, null)).toEqual({ limit: AUDIT_PAGE_SIZE });
  });

  it('covers whole local days: from the first day’s start to the start of the day after the last', () => {
    const input = auditListInput({ action: ' policy.attached ', subject: 'payment_intent:*', from: '2026-11-01', to: '2026-11-30' }, '42');
    expect(input).toEqual({
      limit: AUDIT_PAGE_SIZE,
      action: 'policy.attached',
      subject: 'payment_intent:*',
      from: new Date(2026, 10, 1).toISOString(),
      to: new Date(2026, 11, 1).toISOString(),
      cursor: '42',
    });
  });
});
