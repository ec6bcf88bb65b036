// The transactions page's filters (spec section 5): type, currency and status match exactly,
// category by case-insensitive containment, and the search case-insensitively across the
// description, destination address, category and serialized metadata. All combine with AND.
// Filtering is client-side only; the page reads every transaction of the agent.

/** The fields of an agent transaction (agents.transactions) the filters and the table read. */
export interface FilterableTransaction {
  type: string;
  currency: string;
  status: string;
  category: string | null;
  to_address: string | null;
  description: string;
  metadata: Record<string, unknown>;
}

/** The value of a select's 'All' option: no filter on that field. */
export const ALL = '__all__';

export interface TransactionFilters {
  type: string;
  currency: string;
  status: string;
  category: string;
  search: string;
}

export const DEFAULT_FILTERS: TransactionFilters = { type: ALL, currency: ALL, status: ALL, category: ALL, search: '' };

export function filterTransactions<T extends FilterableTransaction>(transactions: readonly T[], filters: TransactionFilters): T[] {
  const category = filters.category === ALL ? null : filters.category.toLowerCase();
  const search = filters.search.trim().toLowerCase();
  return transactions.filter(
    (transaction) =>
      (filters.type === ALL || transaction.type === filters.type) &&
      (filters.currency === ALL || transaction.currency === filters.currency) &&
      (filters.status === ALL || transaction.status === filters.status) &&
      (category === null || (transaction.category ?? '').toLowerCase().includes(category)) &&
      (search === '' || searchableText(transaction).includes(search)),
  );
}

function searchableText(transaction: FilterableTransaction): string {
  return [transaction.description, transaction.to_address ?? '', transaction.category ?? '', JSON.stringify(transaction.metadata)].join('\n').toLowerCase();
}

/** The distinct non-empty values of one field, sorted, for a select's options. */
export function distinctValues(transactions: readonly FilterableTransaction[], field: 'type' | 'category'): string[] {
  const values = new Set<string>();
  for (const transaction of transactions) {
    const value = transaction[field];
    if (value) values.add(value);
  }
  return [...values].sort((a, b) => a.localeCompare(b));
}

/** Transaction types are stored snake_case ('mcp_payment') and shown with spaces. */
export function formatTransactionType(type: string): string {
  return type.replaceAll('_', ' ');
}

export const ADDRESS_DISPLAY_LENGTH = 12;

/** Destination addresses are shown as their first 12 characters. */
export function truncateAddress(address: string): string {
  return address.length > ADDRESS_DISPLAY_LENGTH ? `${address.slice(0, ADDRESS_DISPLAY_LENGTH)}…` : address;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'MMM d, yyyy HH:mm' in the viewer's time zone, e.g. 'Oct 3, 2025 07:05'. */
export function formatTableDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
