// How the audit page writes entries: times, subjects that lead to a console page, the data
// as a one-line preview, and the chain's verification as one sentence.
import type { AuditVerification } from '../api/audit-types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** '2025-10-18T09:05:03Z' -> 'Oct 18, 2025, 09:05:03' in the viewer's time zone. */
export function formatEntryTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}, ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The same, shorter for the table: the year only when it is not this year's ('Oct 18, 09:05:03'). */
export function formatShortEntryTime(value: string, now: Date = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const year = date.getFullYear() === now.getFullYear() ? '' : `, ${date.getFullYear()}`;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}${year}, ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The console page of a subject: a payment or an agent; null for any other subject. */
export function subjectPath(subject: string): string | null {
  const colon = subject.indexOf(':');
  if (colon < 0) return null;
  const kind = subject.slice(0, colon);
  const id = subject.slice(colon + 1);
  if (!UUID.test(id)) return null;
  if (kind === 'payment_intent') return `/dashboard/payments/${id}`;
  if (kind === 'agent') return `/dashboard/agents/${id}`;
  return null;
}

/** `{"amount":"5.00",...}` cut to `max` characters; '' for empty data. */
export function dataPreview(data: Record<string, unknown>, max = 48): string {
  if (Object.keys(data).length === 0) return '';
  const text = JSON.stringify(data);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface VerificationSummary {
  severity: 'success' | 'error' | 'info';
  title: string;
  detail: string;
}

export function summarizeVerification(result: AuditVerification): VerificationSummary {
  const entries = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'entry' : 'entries'}`;
  switch (result.status) {
    case 'verified':
      return {
        severity: 'success',
        title: `Verified through entry ${result.verifiedThrough ?? result.checked}`,
        detail: `${entries(result.checked)} checked: each one’s hash recomputed and linked to the one before.`,
      };
    case 'broken':
      return {
        severity: 'error',
        title: `Broken at entry ${result.brokenAt ?? '?'}${result.reason ? `: ${result.reason}` : ''}`,
        detail: result.verifiedThrough
          ? `Entries 1 to ${result.verifiedThrough} are sound; from entry ${result.brokenAt ?? '?'} on, the log does not match what was written.`
          : 'The log does not match what was written from its first entry on.',
      };
    case 'empty':
      return { severity: 'info', title: 'No entries yet', detail: 'Entries appear as you and your agents act: payments, approvals, policy and key changes.' };
  }
}
