// The approval page's form: the owner's choices <-> paymentSessions.decideByLink's input. A grant
// may lower the total and bring the expiry sooner, never raise or extend them (the server refuses
// that too); a rejection takes a note, so the agent learns why. Amounts are compared in atomic
// units (6 decimals), as the server keeps them, so $4.9999995 is refused and not rounded. A grant
// may also charge all the agent's payments to the budget, or set it aside, as in the console.
import { PAYMENT_SESSION_REASON_MAX_LENGTH, type DecidePaymentSessionByLinkBody, type PaymentSessionView } from '@purser/core';

export interface ApprovalForm {
  /** Dollars, as typed. */
  total: string;
  /** A `datetime-local` value, in the browser's time zone. */
  expiresAt: string;
  note: string;
  allPayments: boolean;
  reserve: boolean;
}

/** The fields typed in, each of which may be refused with a message. */
export type ApprovalField = 'total' | 'expiresAt' | 'note';
export type ApprovalRequest = Pick<PaymentSessionView, 'id' | 'totalExact' | 'expiresAt'>;
export type ApprovalInput = DecidePaymentSessionByLinkBody;
type Outcome = { ok: true; input: ApprovalInput } | { ok: false; errors: Partial<Record<ApprovalField, string>> };

const AMOUNT = /^\d+(\.\d{1,6})?$/;

/** A typed amount without its `$` and thousands separators. */
const cleanAmount = (dollars: string) => dollars.trim().replace(/^\$/, '').replaceAll(',', '');

/** The dollars in a decimal string as atomic units (6 decimals), or null when it is not one. */
export function toUnits(dollars: string): bigint | null {
  const text = cleanAmount(dollars);
  if (!AMOUNT.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** `iso` as a `datetime-local` value in the browser's zone, to the minute. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The terms asked for, no note, and neither option. */
export function initialApprovalForm(request: ApprovalRequest): ApprovalForm {
  return { total: request.totalExact, expiresAt: toLocalInput(request.expiresAt), note: '', allPayments: false, reserve: false };
}

function noteProblem(note: string): string | undefined {
  return note.trim().length > PAYMENT_SESSION_REASON_MAX_LENGTH ? `Keep the note to ${PAYMENT_SESSION_REASON_MAX_LENGTH} characters` : undefined;
}

/** A grant: the total and expiry only when the owner changed them, each checked against what was asked. */
export function approvalInput(token: string, request: ApprovalRequest, form: ApprovalForm, now: Date): Outcome {
  const errors: Partial<Record<ApprovalField, string>> = {};
  const asked = toUnits(request.totalExact)!;
  const units = toUnits(form.total);
  if (units === null || units <= 0n) errors.total = 'Enter a positive amount in dollars, e.g. 2.50';
  else if (units > asked) errors.total = `You can grant at most the $${request.totalExact} asked for`;

  const untouched = form.expiresAt === toLocalInput(request.expiresAt);
  const expiresAt = untouched ? null : new Date(form.expiresAt);
  if (expiresAt !== null) {
    if (form.expiresAt === '' || Number.isNaN(expiresAt.getTime())) errors.expiresAt = 'Choose a date and time';
    else if (expiresAt.getTime() > new Date(request.expiresAt).getTime()) errors.expiresAt = 'The budget can end sooner than asked, not later';
    else if (expiresAt.getTime() <= now.getTime()) errors.expiresAt = 'Choose a time in the future';
  }
  const note = noteProblem(form.note);
  if (note) errors.note = note;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      token,
      sessionId: request.id,
      approve: true,
      ...(units !== asked ? { totalUsd: cleanAmount(form.total) } : {}),
      ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
      ...(form.note.trim() ? { note: form.note.trim() } : {}),
      ...(form.allPayments ? { allPayments: true } : {}),
      ...(form.reserve ? { reserve: true } : {}),
    },
  };
}

/** A rejection: the note alone, which the agent reads. */
export function rejectionInput(token: string, request: ApprovalRequest, form: ApprovalForm): Outcome {
  const note = form.note.trim();
  if (note === '') return { ok: false, errors: { note: 'Say why in a note, so the agent knows what to do instead' } };
  const tooLong = noteProblem(note);
  if (tooLong) return { ok: false, errors: { note: tooLong } };
  return { ok: true, input: { token, sessionId: request.id, approve: false, note } };
}
