import { describe, expect, it } from 'vitest';
import { KYA_ESCALATION_TIER_MESSAGE, KYA_EVIDENCE_FIELDS, kyaEscalationBody, requestKyaEscalationInput } from './kya';

const AGENT_ID = '0195f3c2-7d1e-7a4b-9c2d-1e2f3a4b5c6d';
const SHA256 = 'AB'.repeat(32);

const BASIC = { legal_name: 'Acme Robotics GmbH', contact_email: 'Ops@Acme.example' };
const MODERATE = { ...BASIC, country: 'de', registration_number: 'HRB 123456' };
const HIGH = { ...MODERATE, document_sha256: SHA256, beneficial_owner_name: 'Ada Lovelace' };

function messagesOf(body: unknown): string[] {
  const result = requestKyaEscalationInput.safeParse(body);
  if (result.success) throw new Error(`Expected ${JSON.stringify(body)} to be refused`);
  return result.error.issues.map((issue) => issue.message);
}

describe('requestKyaEscalationInput', () => {
  it('reads each tier with the evidence it needs, trimmed, e-mail lower-cased, country upper-cased and the hash lower-cased', () => {
    expect(requestKyaEscalationInput.parse({ agent_id: AGENT_ID, tier: 'basic', evidence: { ...BASIC, legal_name: '  Acme Robotics GmbH ' } })).toEqual({
      agent_id: AGENT_ID,
      tier: 'basic',
      evidence: { legal_name: 'Acme Robotics GmbH', contact_email: 'ops@acme.example' },
    });
    expect(requestKyaEscalationInput.parse({ agent_id: AGENT_ID, tier: 'moderate', evidence: MODERATE }).evidence).toEqual({
      legal_name: 'Acme Robotics GmbH',
      contact_email: 'ops@acme.example',
      country: 'DE',
      registration_number: 'HRB 123456',
    });
    expect(requestKyaEscalationInput.parse({ agent_id: AGENT_ID, tier: 'high', evidence: HIGH }).evidence).toMatchObject({
      document_sha256: 'ab'.repeat(32),
      beneficial_owner_name: 'Ada Lovelace',
    });
  });

  it('asks for more evidence the higher the tier, each tier including the one below', () => {
    expect(KYA_EVIDENCE_FIELDS.moderate.slice(0, KYA_EVIDENCE_FIELDS.basic.length)).toEqual(KYA_EVIDENCE_FIELDS.basic);
    expect(KYA_EVIDENCE_FIELDS.high.slice(0, KYA_EVIDENCE_FIELDS.moderate.length)).toEqual(KYA_EVIDENCE_FIELDS.moderate);
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'moderate', evidence: BASIC })).toEqual([
      'evidence.country is required for the moderate tier: an ISO 3166-1 alpha-2 country code, such as DE or US',
      "evidence.registration_number is required for the moderate tier: the organisation's registration number in its country's company register",
    ]);
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'high', evidence: MODERATE })).toEqual([
      'evidence.document_sha256 is required for the high tier: the SHA-256 of the identity or registration document, 64 hexadecimal characters',
      'evidence.beneficial_owner_name is required for the high tier: the name of the natural person who ultimately owns or controls the organisation',
    ]);
  });

  it('refuses a tier that is not above the lowest, or not a tier, naming the tiers to ask for', () => {
    expect(KYA_ESCALATION_TIER_MESSAGE).toBe('tier must be the tier to raise the agent to: basic, moderate, high');
    for (const tier of ['pseudonymous', 'ultra', undefined, 3]) {
      expect(messagesOf({ agent_id: AGENT_ID, tier, evidence: BASIC }), String(tier)).toEqual([KYA_ESCALATION_TIER_MESSAGE]);
    }
  });

  it('refuses unknown evidence fields, so nothing but the listed evidence is ever kept', () => {
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'basic', evidence: { ...BASIC, password: 'hunter2' } })).toEqual([
      'Unknown evidence field password: the basic tier takes legal_name, contact_email',
    ]);
  });

  it('explains malformed evidence field by field', () => {
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'moderate', evidence: { ...MODERATE, contact_email: 'not an address', country: 'uk' } })).toEqual([
      'evidence.contact_email must be an email address to reach the person or organisation behind the agent',
      'evidence.country: "uk" is not an assigned ISO 3166-1 alpha-2 country code (did you mean GB?)',
    ]);
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'high', evidence: { ...HIGH, document_sha256: 'abc' } })).toEqual([
      'evidence.document_sha256 must be the SHA-256 of the identity or registration document, 64 hexadecimal characters',
    ]);
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'basic', evidence: { ...BASIC, legal_name: '   ' } })).toEqual(['evidence.legal_name must not be blank']);
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'basic', evidence: { ...BASIC, legal_name: 'x'.repeat(201) } })).toEqual([
      'evidence.legal_name must be at most 200 characters',
    ]);
    expect(messagesOf({ agent_id: AGENT_ID, tier: 'basic', evidence: 'me' })).toEqual(['evidence must be an object with legal_name, contact_email']);
  });

  it('needs the agent id as a UUID', () => {
    expect(messagesOf({ agent_id: 'agent-1', tier: 'basic', evidence: BASIC })).toEqual(['Agent id must be a UUID']);
  });
});

describe('kyaEscalationBody', () => {
  it('is the same request without the agent id, which REST takes from the path', () => {
    expect(kyaEscalationBody.parse({ tier: 'moderate', evidence: MODERATE })).toEqual({
      tier: 'moderate',
      evidence: { legal_name: 'Acme Robotics GmbH', contact_email: 'ops@acme.example', country: 'DE', registration_number: 'HRB 123456' },
    });
    expect(kyaEscalationBody.safeParse({ tier: 'high', evidence: MODERATE }).success).toBe(false);
  });
});
