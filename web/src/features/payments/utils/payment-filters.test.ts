import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTERS,
  filterProblems,
  filtersFromParams,
  hasActiveFilters,
  isAmountText,
  isDayText,
  listInputFromFilters,
  paramsFromFilters,
  startOfLocalDay,
  type PaymentFilters,
} from './payment-filters';

const AGENT = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

const filters = (changes: Partial<PaymentFilters>): PaymentFilters => ({ ...DEFAULT_FILTERS, ...changes });

describe('filters in the URL', () => {
  it('round-trips every filter through the search params', () => {
    const all = filters({
      statuses: ['pending_approval', 'settled'],
      rail: 'x402-base',
      protocol: 'mpp',
      agentId: AGENT,
      from: '2026-11-01',
      to: '2026-11-26',
      minAmount: '0.5',
      maxAmount: '100',
      search: 'weather api',
      pageSize: 10,
    });
    const params = paramsFromFilters(all);
    expect(params.toString()).toBe(
      'q=weather+api&status=pending_approval%2Csettled&rail=x402-base&protocol=mpp&agent=3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e&from=2026-11-01&to=2026-11-26&min=0.5&max=100&limit=10',
    );
    expect(filtersFromParams(new URLSearchParams(params.toString()))).toEqual(all);
  });

  it('gives an unfiltered view a bare URL', () => {
    expect(paramsFromFilters(DEFAULT_FILTERS).toString()).toBe('');
    expect(filtersFromParams(new URLSearchParams())).toEqual(DEFAULT_FILTERS);
  });

  it('reads statuses given once each or comma-separated, in the canonical order, without repeats', () => {
    const parsed = filtersFromParams(new URLSearchParams('status=settled&status=failed,created,settled'));
    expect(parsed.statuses).toEqual(['created', 'settled', 'failed']);
  });

  it('drops what a hand-edited link gets wrong instead of failing the page', () => {
    const parsed = filtersFromParams(
      new URLSearchParams('status=paid,settled&rail=paypal&protocol=lightning&agent=42&from=2026-02-30&to=yesterday&min=-1&max=1.1234567&limit=7'),
    );
    expect(parsed).toEqual(filters({ statuses: ['settled'] }));
  });

  it('keeps the search text trimmed and within the server limit', () => {
    expect(filtersFromParams(new URLSearchParams(`q=${'x'.repeat(250)}`)).search).toHaveLength(200);
    expect(filtersFromParams(new URLSearchParams('q=%20%20bread%20')).search).toBe('bread');
  });
});

describe('hasActiveFilters', () => {
  it('is false for the defaults and a changed page size, true for any narrowing filter', () => {
    expect(hasActiveFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilters(filters({ pageSize: 100 }))).toBe(false);
    expect(hasActiveFilters(filters({ search: '   ' }))).toBe(false);
    expect(hasActiveFilters(filters({ statuses: ['failed'] }))).toBe(true);
    expect(hasActiveFilters(filters({ maxAmount: '3' }))).toBe(true);
    expect(hasActiveFilters(filters({ protocol: 'x402' }))).toBe(true);
  });
});

describe('the list query', () => {
  it('asks for the page size alone when nothing is filtered', () => {
    expect(listInputFromFilters(DEFAULT_FILTERS)).toEqual({ limit: 50 });
  });

  it('turns days into local instants: from the start of From to the start of the day after To', () => {
    const input = listInputFromFilters(filters({ from: '2026-11-01', to: '2026-11-26' }));
    expect(input.from).toBe(new Date(2026, 10, 1).toISOString());
    expect(input.to).toBe(new Date(2026, 10, 27).toISOString());
  });

  it('takes a one-day range (From equal to To) as that whole day', () => {
    const input = listInputFromFilters(filters({ from: '2026-12-31', to: '2026-12-31' }));
    expect(input.from).toBe(new Date(2026, 11, 31).toISOString());
    expect(input.to).toBe(new Date(2027, 0, 1).toISOString());
  });

  it('passes statuses as a list, and the other filters as they are', () => {
    expect(listInputFromFilters(filters({ statuses: ['pending_approval'], rail: 'card', protocol: 'mpp', agentId: AGENT, minAmount: '1.5', maxAmount: '2', search: ' tea ', pageSize: 25 }))).toEqual({
      limit: 25,
      status: ['pending_approval'],
      rail: 'card',
      protocol: 'mpp',
      agentId: AGENT,
      minAmount: '1.5',
      maxAmount: '2',
      search: 'tea',
    });
  });

  it('leaves a backwards range open at its closing end, and says so on that field', () => {
    const backwards = filters({ from: '2026-11-26', to: '2026-11-01', minAmount: '10', maxAmount: '9.99' });
    expect(filterProblems(backwards)).toEqual({ to: 'Must not be before From', maxAmount: 'Must not be less than Min' });
    const input = listInputFromFilters(backwards);
    expect(input.to).toBeUndefined();
    expect(input.maxAmount).toBeUndefined();
    expect(input.from).toBe(startOfLocalDay('2026-11-26'));
    expect(input.minAmount).toBe('10');
  });

  it('compares amounts as numbers, not as text', () => {
    expect(filterProblems(filters({ minAmount: '9', maxAmount: '10' }))).toEqual({});
  });
});

describe('input checks', () => {
  it('accepts dollars with at most 6 decimals', () => {
    for (const ok of ['0', '12', '12.5', '0.000001', ' 3 ']) expect(isAmountText(ok), ok).toBe(true);
    for (const bad of ['', '-1', '1e3', '1.1234567', 'abc', '1,000', '.25', '7.']) expect(isAmountText(bad), bad).toBe(false);
  });

  it('accepts only real calendar days', () => {
    expect(isDayText('2028-02-29')).toBe(true);
    expect(isDayText('2026-02-29')).toBe(false);
    expect(isDayText('2026-1-5')).toBe(false);
  });
});
