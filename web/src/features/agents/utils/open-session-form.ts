// The "Open session" dialog's fields <-> paymentSessions.open's input. Checked with the server's
// own schema (core's openPaymentSessionInput), so each field shows the very message the server
// would answer. Scope lists are typed comma-separated; empty lists do not narrow the session.
import { openPaymentSessionInput, paymentSessionExpiryProblem } from '@purser/core';
import type { z } from 'zod';

export interface OpenSessionForm {
  /** Dollars as typed. */
  total: string;
  /** Dollars as typed; empty: no cap per payment. */
  perPaymentMax: string;
  /** A datetime-local value ('2026-12-08T14:30'), the viewer's time. */
  expiresAt: string;
  sellers: string;
  categories: string;
  protocols: string;
  rails: string;
  reason: string;
  /** Charge every payment of the agent to it, not only those that name it. */
  allPayments: boolean;
  /** Set the total aside now, out of the agent's balance. */
  reserve: boolean;
}

export type OpenSessionField = keyof OpenSessionForm;
/** The fields typed in a text box. */
export type OpenSessionTextField = Exclude<OpenSessionField, 'allPayments' | 'reserve'>;

export const EMPTY_OPEN_SESSION_FORM: OpenSessionForm = {
  total: '',
  perPaymentMax: '',
  expiresAt: '',
  sellers: '',
  categories: '',
  protocols: '',
  rails: '',
  reason: '',
  allPayments: false,
  reserve: false,
};

/** paymentSessions.open's input as sent (dollars as typed). */
export type OpenSessionInput = z.input<typeof openPaymentSessionInput>;

export type OpenSessionResult = { ok: true; input: OpenSessionInput } | { ok: false; errors: Partial<Record<OpenSessionField, string>> };

const INPUT_FIELDS: Record<string, OpenSessionField> = { totalUsd: 'total', perPaymentMaxUsd: 'perPaymentMax', expiresAt: 'expiresAt', reason: 'reason' };
const SCOPE_FIELDS = ['sellers', 'categories', 'protocols', 'rails'] as const;

/** '  a.com, b.com ,' -> ['a.com', 'b.com']. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

export function openSessionInput(agentId: string, form: OpenSessionForm, now = new Date()): OpenSessionResult {
  const errors: Partial<Record<OpenSessionField, string>> = {};
  if (form.total.trim() === '') errors.total = 'Enter the total the agent may spend';
  if (form.expiresAt.trim() === '') errors.expiresAt = 'Enter when the session ends';
  const expiry = new Date(form.expiresAt);
  const scope = Object.fromEntries(SCOPE_FIELDS.flatMap((field) => (splitList(form[field]).length > 0 ? [[field, splitList(form[field])]] : [])));
  const input = {
    agentId,
    totalUsd: form.total.trim(),
    ...(form.perPaymentMax.trim() ? { perPaymentMaxUsd: form.perPaymentMax.trim() } : {}),
    expiresAt: Number.isNaN(expiry.getTime()) ? form.expiresAt : expiry.toISOString(),
    ...(Object.keys(scope).length > 0 ? { scope } : {}),
    ...(form.reason.trim() ? { reason: form.reason.trim() } : {}),
    ...(form.allPayments ? { allPayments: true } : {}),
    ...(form.reserve ? { reserve: true } : {}),
  };
  const parsed = openPaymentSessionInput.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, second] = issue.path;
      const field = first === 'scope' ? (SCOPE_FIELDS as readonly unknown[]).includes(second) ? (second as OpenSessionField) : 'sellers' : INPUT_FIELDS[String(first)];
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  // In the future and at most PAYMENT_SESSION_MAX_DAYS away: the server's own check.
  const expiryProblem = Number.isNaN(expiry.getTime()) ? null : paymentSessionExpiryProblem(expiry, now);
  if (!errors.expiresAt && expiryProblem) errors.expiresAt = expiryProblem;
  // Parsed, so its protocols and rails are the contract's names.
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, input: input as OpenSessionInput };
}

/** A datetime-local value `days` from now, to the minute: the dialog's suggested expiry. */
export function localInputIn(days: number, now = new Date()): string {
  const date = new Date(now.getTime() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
