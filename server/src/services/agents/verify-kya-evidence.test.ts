import { describe, expect, it } from 'vitest';
import { kyaEscalationBody, type KyaEscalationBody } from '@purser/core';
import { SANDBOX_KYA_METHOD, SANDBOX_REJECT_TRIGGER, verifyKyaEvidence } from './verify-kya-evidence';

const BASIC = { legal_name: 'Acme Robotics GmbH', contact_email: 'ops@acme.example' };
const MODERATE = { ...BASIC, country: 'DE', registration_number: 'HRB 123456' };
const HIGH = { ...MODERATE, document_sha256: 'ab'.repeat(32), beneficial_owner_name: 'Ada Lovelace' };

function verify(body: KyaEscalationBody) {
  return verifyKyaEvidence(kyaEscalationBody.parse(body));
}

describe('the sandbox KYA verifier', () => {
  it('is labelled sandbox', () => {
    expect(SANDBOX_KYA_METHOD).toBe('sandbox');
    expect(SANDBOX_REJECT_TRIGGER).toBe('SANDBOX-REJECT');
  });

  it('verifies complete, well-formed evidence for every tier', () => {
    expect(verify({ tier: 'basic', evidence: BASIC })).toEqual({ status: 'verified', reason: null });
    expect(verify({ tier: 'moderate', evidence: MODERATE })).toEqual({ status: 'verified', reason: null });
    expect(verify({ tier: 'high', evidence: HIGH })).toEqual({ status: 'verified', reason: null });
  });

  it('rejects the registration number SANDBOX-REJECT in any case, saying the register does not know it', () => {
    for (const registration_number of ['SANDBOX-REJECT', ' sandbox-reject ']) {
      expect(verify({ tier: 'moderate', evidence: { ...MODERATE, registration_number } })).toEqual({
        status: 'rejected',
        reason: `Sandbox register: no organisation is registered under ${registration_number.trim()} in DE`,
      });
      expect(verify({ tier: 'high', evidence: { ...HIGH, registration_number } }).status).toBe('rejected');
    }
  });

  it('rejects the legal name SANDBOX-REJECT at any tier, the basic tier included', () => {
    expect(verify({ tier: 'basic', evidence: { ...BASIC, legal_name: 'Sandbox-Reject' } })).toEqual({
      status: 'rejected',
      reason: 'Sandbox register: the legal name Sandbox-Reject could not be matched to a person or organisation',
    });
    expect(verify({ tier: 'high', evidence: { ...HIGH, legal_name: 'SANDBOX-REJECT' } }).status).toBe('rejected');
  });

  it('does not reject a value that merely contains the trigger', () => {
    expect(verify({ tier: 'moderate', evidence: { ...MODERATE, registration_number: 'HRB SANDBOX-REJECTED 1' } }).status).toBe('verified');
  });

  it('gives the same answer for the same evidence', () => {
    const body = { tier: 'moderate', evidence: { ...MODERATE, registration_number: 'SANDBOX-REJECT' } } as const;
    expect(verify(body)).toEqual(verify(body));
  });
});
