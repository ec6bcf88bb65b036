// How a payment's steps read in its progress and its audit entry: the details the workflow writes
// for the gate's decision and the rail, and the steps of a front that ran in the agent's request.
// Plain functions over JSON, so the workflow and the server (which records a front it did not
// see, payments/payment-steps.ts) write the same words.
import type { PaymentStepRecord, RailName } from '@purser/core';

export function railDetail({ rail, sandbox }: { rail: RailName; sandbox: boolean }): string {
  return `${rail}${sandbox ? ' (sandbox)' : ''}`;
}

export function firedSummary(evaluation: { decision: string; fired: { shadow: boolean; code: string }[] }): string {
  const enforced = evaluation.fired.filter((rule) => !rule.shadow).map((rule) => rule.code);
  return enforced.length ? `${evaluation.decision}: ${enforced.join(', ')}` : evaluation.decision;
}

/** What the agent's request did for a payment authorised in it, as the database recorded it. */
export interface PaidInRequestFront {
  /** When the intent was written (ISO time). */
  createdAt: string;
  /** When its funds were held (ISO time). */
  reservedAt: string;
  /** The gate's decision the request recorded on the intent, as stored. */
  decision: unknown;
  rail: RailName;
  sandbox: boolean;
  /** The rail operation's reference, and when it settled (ISO time). */
  reference: string;
  settledAt: string;
}

/**
 * The steps of a front that ran in the agent's request and let the payment through, then its
 * execution on the rail: the steps the workflow records for an authorized front on its first
 * round (payment.ts, recordFront), each at the time the request took it.
 */
export function paidInRequestSteps(front: PaidInRequestFront): PaymentStepRecord[] {
  const decided = front.reservedAt;
  const summary = decisionSummary(front.decision);
  return [
    { step: 'intent.created', status: 'completed', at: front.createdAt },
    { step: 'policy_gate', status: 'completed', at: decided, ...(summary === undefined ? {} : { detail: summary }) },
    { step: 'approval', status: 'skipped', at: decided, detail: 'not required' },
    { step: 'intent.approved', status: 'completed', at: decided },
    { step: 'rail_selection', status: 'completed', at: decided, detail: railDetail(front) },
    { step: 'reserve', status: 'completed', at: decided },
    { step: 'execute', status: 'completed', at: front.settledAt, detail: front.reference },
  ];
}

/** firedSummary of a stored decision; none when it is not one. */
function decisionSummary(decision: unknown): string | undefined {
  const stored = decision as { decision?: unknown; fired?: unknown } | null;
  if (typeof stored?.decision !== 'string' || !Array.isArray(stored.fired)) return undefined;
  const fired = stored.fired.filter((rule): rule is { shadow: boolean; code: string } => typeof rule === 'object' && rule !== null);
  return firedSummary({ decision: stored.decision, fired });
}
