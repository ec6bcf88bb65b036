/**
 * The sandbox KYA verifier. No identity provider or company register is reachable offline, so
 * this stands in for one: the contract has already checked that the evidence has every field
 * the tier needs, well formed; the sandbox accepts such evidence, except where it carries the
 * documented rejection trigger, so the rejected path can be exercised end to end.
 *
 * Sandbox trigger: a `registration_number` (moderate, high) or `legal_name` (any tier) of
 * `SANDBOX-REJECT`, in any case, is rejected as a real register would reject an unknown
 * company. Verifications record `method: 'sandbox'`; a real provider would be another method.
 *
 * A pure function: no I/O, no clock, so the same evidence always gets the same answer. It is
 * consulted only while the chain is the sandbox (request-kya-escalation.ts refuses with
 * SANDBOX_ONLY on a real network), so it never vouches for anyone where money is real.
 */
import type { KyaEscalationRequest } from '@purser/core';

export const SANDBOX_KYA_METHOD = 'sandbox';
export const SANDBOX_REJECT_TRIGGER = 'SANDBOX-REJECT';

export type KyaEvidenceOutcome = { status: 'verified'; reason: null } | { status: 'rejected'; reason: string };

function isTrigger(value: string): boolean {
  return value.trim().toUpperCase() === SANDBOX_REJECT_TRIGGER;
}

export function verifyKyaEvidence(request: KyaEscalationRequest): KyaEvidenceOutcome {
  const { evidence } = request;
  if ('registration_number' in evidence && isTrigger(evidence.registration_number)) {
    return {
      status: 'rejected',
      reason: `Sandbox register: no organisation is registered under ${evidence.registration_number} in ${evidence.country}`,
    };
  }
  if (isTrigger(evidence.legal_name)) {
    return { status: 'rejected', reason: `Sandbox register: the legal name ${evidence.legal_name} could not be matched to a person or organisation` };
  }
  return { status: 'verified', reason: null };
}
