// The grant dialog's fields <-> paymentSessions.decide's input. The owner may only lower the
// total and bring the expiry sooner; the rest is checked with core's decidePaymentSessionInput,
// so the form shows the very message the server would answer, under its field.
import { decidePaymentSessionInput } from '@purser/core';

export interface GrantForm {
  /** Dollars as typed. */
  total: string;
  /** A datetime-local value ('2026-12-08T14:30'), the viewer's time. */
  expiresAt: string;
  note: string;
  allPayments: boolean;
  reserve: boolean;
}

export type GrantField = keyof GrantForm;
/** The fields typed in a text box. */
export type GrantTextField = Exclude<GrantField, 'allPayments' | 'reserve'>;

export interface AskedTerms {
  totalExact: string;
  expiresAt: string;
}

export type GrantResult =
  | { ok: true; input: { totalUsd?: string; expiresAt?: string; note?: string; allPayments?: boolean; reserve?: boolean } }
  | { ok: false; errors: Partial<Record<GrantField, string>> };

/** The form as the request asked: its total and its expiry. */
export function grantForm(asked: AskedTerms): GrantForm {
  return { total: trimZeros(asked.totalExact), expiresAt: toLocalInput(asked.expiresAt), note: '', allPayments: false, reserve: false };
}

/** What to send: the total and expiry only when the owner changed them, else the request's own. */
export function grantInput(sessionId: string, asked: AskedTerms, form: GrantForm): GrantResult {
  const errors: Partial<Record<GrantField, string>> = {};
  const total = form.total.trim();
  const expiry = fromLocalInput(form.expiresAt);
  const askedExpiry = Date.parse(asked.expiresAt);
  const totalChanged = total !== '' && Number(total) !== Number(asked.totalExact);
  // datetime-local has minutes only: the asked expiry shown back counts as unchanged.
  const expiryChanged = form.expiresAt !== toLocalInput(asked.expiresAt);
  if (total === '') errors.total = 'Enter the total to grant';
  if (form.expiresAt.trim() === '' || expiry === null) errors.expiresAt = 'Enter when the session ends';
  const input = {
    ...(totalChanged ? { totalUsd: total } : {}),
    ...(expiryChanged && expiry ? { expiresAt: expiry } : {}),
    ...(form.note.trim() ? { note: form.note.trim() } : {}),
    ...(form.allPayments ? { allPayments: true } : {}),
    ...(form.reserve ? { reserve: true } : {}),
  };
  const parsed = decidePaymentSessionInput.safeParse({ sessionId, approve: true, ...input });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = ({ totalUsd: 'total', expiresAt: 'expiresAt', note: 'note' } as const)[issue.path[0] as 'totalUsd' | 'expiresAt' | 'note'];
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (!errors.total && totalChanged && Number(total) > Number(asked.totalExact)) errors.total = `At most the $${trimZeros(asked.totalExact)} asked for`;
  if (!errors.expiresAt && expiryChanged && expiry && Date.parse(expiry) > askedExpiry) errors.expiresAt = 'No later than the request asked';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, input };
}

/** '5.000000' -> '5', '2.500000' -> '2.5'. */
export function trimZeros(exact: string): string {
  return exact.includes('.') ? exact.replace(/0+$/, '').replace(/\.$/, '') : exact;
}

/** An ISO date-time as a datetime-local value in the viewer's time zone, to the minute. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value (the viewer's time) as an ISO date-time, or null. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
