import { describe, expect, it } from 'vitest';
import {
  ALL,
  DEFAULT_FILTERS,
  distinctValues,
  filterTransactions,
  formatTableDate,
  formatTransactionType,
  truncateAddress,
  type FilterableTransaction,
  type TransactionFilters,
} from './transaction-filters';

const payment: FilterableTransaction = {
  type: 'payment',
  currency: 'USDC',
  status: 'completed',
  category: 'Data_API',
  to_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  description: 'Weather API call',
  metadata: { workflow: 'n8n-weather', request_id: 'req-42' },
};
const deposit: FilterableTransaction = {
  type: 'deposit',
  currency: 'USDC',
  status: 'completed',
  category: 'funding',
  to_address: '0x1147290BbC120B3ad3C7075aB733397D5D0B48bF',
  description: 'Funding from owner wallet',
  metadata: {},
};
const failedTether: FilterableTransaction = {
  type: 'mcp_payment',
  currency: 'USDT',
  status: 'failed',
  category: null,
  to_address: null,
  description: 'Inference credits',
  metadata: { model: 'gpt' },
};
const all = [payment, deposit, failedTether];

function filters(changes: Partial<TransactionFilters>): TransactionFilters {
  return { ...DEFAULT_FILTERS, ...changes };
}

describe('filterTransactions', () => {
  it('keeps every transaction when every filter is All and the search is empty', () => {
    expect(filterTransactions(all, DEFAULT_FILTERS)).toEqual(all);
  });

  it('matches type, currency and status exactly', () => {
    expect(filterTransactions(all, filters({ type: 'payment' }))).toEqual([payment]);
    expect(filterTransactions(all, filters({ currency: 'USDT' }))).toEqual([failedTether]);
    expect(filterTransactions(all, filters({ status: 'failed' }))).toEqual([failedTether]);
    expect(filterTransactions(all, filters({ type: 'pay' }))).toEqual([]);
  });

  it('matches the category by case-insensitive containment and never matches a missing category', () => {
    expect(filterTransactions(all, filters({ category: 'data_api' }))).toEqual([payment]);
    expect(filterTransactions(all, filters({ category: 'FUND' }))).toEqual([deposit]);
  });

  it('searches the description, address, category and serialized metadata case-insensitively', () => {
    expect(filterTransactions(all, filters({ search: 'weather api' }))).toEqual([payment]);
    expect(filterTransactions(all, filters({ search: '0x1147290bbc' }))).toEqual([deposit]);
    expect(filterTransactions(all, filters({ search: 'data_api' }))).toEqual([payment]);
    expect(filterTransactions(all, filters({ search: 'REQ-42' }))).toEqual([payment]);
    expect(filterTransactions(all, filters({ search: '"model":"gpt"' }))).toEqual([failedTether]);
    expect(filterTransactions(all, filters({ search: '  inference  ' }))).toEqual([failedTether]);
  });

  it('combines the filters with AND', () => {
    expect(filterTransactions(all, filters({ currency: 'USDC', status: 'completed', search: 'funding' }))).toEqual([deposit]);
    expect(filterTransactions(all, filters({ type: 'deposit', search: 'weather' }))).toEqual([]);
  });
});

describe('distinctValues', () => {
  it('lists each non-empty value once, sorted', () => {
    expect(distinctValues([...all, payment], 'type')).toEqual(['deposit', 'mcp_payment', 'payment']);
    expect(distinctValues(all, 'category')).toEqual(['Data_API', 'funding']);
  });
});

describe('formatting', () => {
  it('shows underscores in types as spaces', () => {
    expect(formatTransactionType('mcp_payment_x402')).toBe('mcp payment x402');
  });

  it('truncates addresses to their first 12 characters', () => {
    expect(truncateAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe('0x70997970C5…');
    expect(truncateAddress('short')).toBe('short');
  });

  it("formats table dates as 'MMM d, yyyy HH:mm' in local time", () => {
    expect(formatTableDate(new Date(2025, 9, 3, 7, 5))).toBe('Oct 3, 2025 07:05');
    expect(formatTableDate(new Date(2025, 11, 31, 23, 59))).toBe('Dec 31, 2025 23:59');
    expect(formatTableDate('not a date')).toBe('');
  });

  it('uses a sentinel for All that no real value takes', () => {
    expect(ALL).toMatch(/^__/);
  });
});
