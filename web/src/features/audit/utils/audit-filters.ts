// The audit page's filters: kept in the address (?action=&subject=&from=&to=, dates as
// YYYY-MM-DD in the viewer's time zone) so a filtered view can be linked to, and turned into
// audit.list's input (from at the start of the first day, to at the end of the last).
import type { AuditListInput } from '../api/audit-types';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilters {
  action: string;
  subject: string;
  /** 'YYYY-MM-DD' or ''. */
  from: string;
  /** 'YYYY-MM-DD' or '' (inclusive: the whole day). */
  to: string;
}

export const EMPTY_FILTERS: AuditFilters = { action: '', subject: '', from: '', to: '' };
const KEYS = ['action', 'subject', 'from', 'to'] as const;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function filtersFromParams(params: URLSearchParams): AuditFilters {
  const read = (key: keyof AuditFilters) => params.get(key)?.trim() ?? '';
  const day = (key: 'from' | 'to') => (localDayStart(read(key)) ? read(key) : '');
  return { action: read('action'), subject: read('subject'), from: day('from'), to: day('to') };
}

/** The address's parameters for these filters: the empty ones left out, others kept as they are. */
export function filtersToParams(filters: AuditFilters, current = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of KEYS) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
    else params.delete(key);
  }
  return params;
}

/** One string per distinct set of filters, as the address keeps them (trimmed, real days only). */
export function filtersKey(filters: AuditFilters): string {
  return JSON.stringify(filtersFromParams(filtersToParams(filters)));
}

export function hasFilters(filters: AuditFilters): boolean {
  return KEYS.some((key) => filters[key].trim() !== '');
}

/** Midnight at the start of 'YYYY-MM-DD' in the viewer's time zone; null for anything else. */
export function localDayStart(day: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const start = new Date(year, month, date);
  // Refuses 2026-02-31 and the like, which Date would roll over into March.
  if (start.getFullYear() !== year || start.getMonth() !== month || start.getDate() !== date) return null;
  return start;
}

/** Why the range cannot be asked for, or null. */
export function dateRangeError(filters: AuditFilters): string | null {
  const from = localDayStart(filters.from);
  const to = localDayStart(filters.to);
  return from && to && to < from ? 'The end date is before the start date' : null;
}

/** audit.list's input for one page: the filters given, `to` moved to the next day's start. */
export function auditListInput(filters: AuditFilters, cursor: string | null): AuditListInput {
  const from = localDayStart(filters.from);
  const toDay = localDayStart(filters.to);
  const to = toDay ? new Date(toDay.getFullYear(), toDay.getMonth(), toDay.getDate() + 1) : null;
  return {
    limit: AUDIT_PAGE_SIZE,
    ...(filters.action.trim() ? { action: filters.action.trim() } : {}),
    ...(filters.subject.trim() ? { subject: filters.subject.trim() } : {}),
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { to: to.toISOString() } : {}),
    ...(cursor ? { cursor } : {}),
  };
}
