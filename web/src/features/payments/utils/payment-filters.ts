// The payments page's filters and where they live: the URL's search params, so a filtered view
// can be shared, bookmarked and reloaded. Parsing is forgiving (a hand-edited or stale link
// drops what it cannot read instead of failing the page); the list query gets only bounds the
// server accepts (it refuses from >= to and min > max, which the page reports on the fields).
import type { IntentStatus, ListIntentsQuery, PaymentProtocol, RailName } from '../api/payment-types';
import { INTENT_STATUSES, isIntentStatus, isPaymentProtocol, isRailName } from './intent-labels';

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 50;
/** The server's limit on the search text (core's INTENT_SEARCH_MAX_LENGTH). */
export const SEARCH_MAX_LENGTH = 200;

export interface PaymentFilters {
  /** Any of these; empty means every status. */
  statuses: IntentStatus[];
  rail: RailName | null;
  /** Paid calls paid in this protocol (x402 or MPP); every other payment is left out. */
  protocol: PaymentProtocol | null;
  agentId: string | null;
  /** Payments that named this payment session (the agent page's link); no field of the bar. */
  sessionId: string | null;
  /** Calendar days in the viewer's time zone, 'YYYY-MM-DD', both inclusive; '' when open. */
  from: string;
  to: string;
  /** Dollars as typed ('12.5'), both inclusive; '' when open. */
  minAmount: string;
  maxAmount: string;
  search: string;
  pageSize: PageSize;
}

export const DEFAULT_FILTERS: PaymentFilters = {
  statuses: [],
  rail: null,
  protocol: null,
  agentId: null,
  sessionId: null,
  from: '',
  to: '',
  minAmount: '',
  maxAmount: '',
  search: '',
  pageSize: DEFAULT_PAGE_SIZE,
};

const PARAMS = {
  search: 'q',
  statuses: 'status',
  rail: 'rail',
  protocol: 'protocol',
  agentId: 'agent',
  sessionId: 'session',
  from: 'from',
  to: 'to',
  minAmount: 'min',
  maxAmount: 'max',
  pageSize: 'limit',
} as const satisfies Record<keyof PaymentFilters, string>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** As core's parseAmount takes them: digits, then at most 6 decimals; at most a trillion dollars. */
const DOLLARS = /^\d{1,13}(?:\.\d{1,6})?$/;

/** '12', '12.5', '0.000001': dollars with at most 6 decimals, as the server takes them. */
export function isAmountText(value: string): boolean {
  return DOLLARS.test(value.trim());
}

/** A real calendar day written 'YYYY-MM-DD' (what a date input gives). */
export function isDayText(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
}

export function filtersFromParams(params: URLSearchParams): PaymentFilters {
  const text = (key: string) => params.get(key)?.trim() ?? '';
  const statuses = params
    .getAll(PARAMS.statuses)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(isIntentStatus);
  const rail = text(PARAMS.rail);
  const protocol = text(PARAMS.protocol);
  const agentId = text(PARAMS.agentId);
  const sessionId = text(PARAMS.sessionId);
  const day = (key: string) => (isDayText(text(key)) ? text(key) : '');
  const amount = (key: string) => (isAmountText(text(key)) ? text(key) : '');
  const pageSize = Number(text(PARAMS.pageSize));
  return {
    // In the canonical order, once each, whatever order the link had.
    statuses: INTENT_STATUSES.filter((status) => statuses.includes(status)),
    rail: isRailName(rail) ? rail : null,
    protocol: isPaymentProtocol(protocol) ? protocol : null,
    agentId: UUID.test(agentId) ? agentId.toLowerCase() : null,
    sessionId: UUID.test(sessionId) ? sessionId.toLowerCase() : null,
    from: day(PARAMS.from),
    to: day(PARAMS.to),
    minAmount: amount(PARAMS.minAmount),
    maxAmount: amount(PARAMS.maxAmount),
    search: text(PARAMS.search).slice(0, SEARCH_MAX_LENGTH),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? (pageSize as PageSize) : DEFAULT_PAGE_SIZE,
  };
}

/** The search params of `filters`, defaults left out so an unfiltered view has a bare URL. */
export function paramsFromFilters(filters: PaymentFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set(PARAMS.search, filters.search.trim());
  if (filters.statuses.length > 0) params.set(PARAMS.statuses, filters.statuses.join(','));
  if (filters.rail) params.set(PARAMS.rail, filters.rail);
  if (filters.protocol) params.set(PARAMS.protocol, filters.protocol);
  if (filters.agentId) params.set(PARAMS.agentId, filters.agentId);
  if (filters.sessionId) params.set(PARAMS.sessionId, filters.sessionId);
  if (filters.from) params.set(PARAMS.from, filters.from);
  if (filters.to) params.set(PARAMS.to, filters.to);
  if (filters.minAmount) params.set(PARAMS.minAmount, filters.minAmount);
  if (filters.maxAmount) params.set(PARAMS.maxAmount, filters.maxAmount);
  if (filters.pageSize !== DEFAULT_PAGE_SIZE) params.set(PARAMS.pageSize, String(filters.pageSize));
  return params;
}

/** True when any filter narrows the list (the page size does not). */
export function hasActiveFilters(filters: PaymentFilters): boolean {
  return (
    filters.statuses.length > 0 ||
    filters.rail !== null ||
    filters.protocol !== null ||
    filters.agentId !== null ||
    filters.sessionId !== null ||
    filters.from !== '' ||
    filters.to !== '' ||
    filters.minAmount !== '' ||
    filters.maxAmount !== '' ||
    filters.search.trim() !== ''
  );
}

export interface FilterProblems {
  to?: string;
  maxAmount?: string;
}

/** Ranges the server would refuse, said on the field that closes them. */
export function filterProblems(filters: PaymentFilters): FilterProblems {
  const problems: FilterProblems = {};
  if (filters.from && filters.to && filters.to < filters.from) problems.to = 'Must not be before From';
  if (filters.minAmount && filters.maxAmount && Number(filters.maxAmount) < Number(filters.minAmount)) {
    problems.maxAmount = 'Must not be less than Min';
  }
  return problems;
}

/** Local midnight at the start of `day` ('YYYY-MM-DD'), plus `addDays`, as an ISO instant. */
export function startOfLocalDay(day: string, addDays = 0): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date + addDays).toISOString();
}

/**
 * The intents.list input for `filters` (no cursor). Days become instants in the viewer's time
 * zone: from its first moment, to the first moment of the day after `to`. A range the server
 * would refuse is left open at its closing end (the field says why).
 */
export function listInputFromFilters(filters: PaymentFilters): Omit<ListIntentsQuery, 'cursor'> {
  const problems = filterProblems(filters);
  const input: Omit<ListIntentsQuery, 'cursor'> = { limit: filters.pageSize };
  if (filters.statuses.length > 0) input.status = [...filters.statuses];
  if (filters.rail) input.rail = filters.rail;
  if (filters.protocol) input.protocol = filters.protocol;
  if (filters.agentId) input.agentId = filters.agentId;
  if (filters.sessionId) input.sessionId = filters.sessionId;
  if (filters.from) input.from = startOfLocalDay(filters.from);
  if (filters.to && !problems.to) input.to = startOfLocalDay(filters.to, 1);
  if (filters.minAmount) input.minAmount = filters.minAmount;
  if (filters.maxAmount && !problems.maxAmount) input.maxAmount = filters.maxAmount;
  if (filters.search.trim()) input.search = filters.search.trim();
  return input;
}
