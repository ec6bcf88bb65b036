import { describe, expect, it } from 'vitest';
import { EMPTY_EVIDENCE, escalationInput, escalationTargets, evidenceFields, sha256Hex, tierFacts, tierLabel } from './kya';

const AGENT = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('tierFacts', () => {
  it("gives a tier's eIDAS level and its caps in dollars", () => {
    expect(tierFacts('basic')).toEqual({ tier: 'basic', eidas: 'low', perTransaction: '100', perDay: '1000' });
    expect(tierFacts('moderate')).toMatchObject({ eidas: 'substantial', perTransaction: '1000' });
    expect(tierFacts('pseudonymous').eidas).toBe('none');
  });

  it('capitalises tier names for display', () => {
    expect(tierLabel('moderate')).toBe('Moderate');
  });
});

describe('escalationTargets', () => {
  it('offers only the tiers above the current one', () => {
    expect(escalationTargets('pseudonymous')).toEqual(['basic', 'moderate', 'high']);
    expect(escalationTargets('basic')).toEqual(['moderate', 'high']);
    expect(escalationTargets('high')).toEqual([]);
  });

  it('asks for more evidence at each tier', () => {
    expect(evidenceFields('basic')).toEqual(['legal_name', 'contact_email']);
    expect(evidenceFields('high')).toHaveLength(6);
  });
});

describe('escalationInput', () => {
  it('sends only the evidence the chosen tier takes', () => {
    const form = { ...EMPTY_EVIDENCE, legal_name: 'Acme GmbH', contact_email: 'ops@acme.test', country: 'de', registration_number: 'HRB 1', beneficial_owner_name: 'Left over' };
    expect(escalationInput(AGENT, 'moderate', form)).toEqual({
      ok: true,
      input: { agent_id: AGENT, tier: 'moderate', evidence: { legal_name: 'Acme GmbH', contact_email: 'ops@acme.test', country: 'de', registration_number: 'HRB 1' } },
    });
  });

  it("shows the server schema's message under each missing or malformed field", () => {
    const result = escalationInput(AGENT, 'moderate', { ...EMPTY_EVIDENCE, legal_name: 'Acme', contact_email: 'not an email', country: 'UK' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.contact_email).toMatch(/^evidence\.contact_email must be an email address/);
    expect(result.errors.country).toMatch(/did you mean GB/);
    expect(result.errors.registration_number).toMatch(/^evidence\.registration_number is required for the moderate tier/);
    expect(result.errors.legal_name).toBeUndefined();
  });
});

describe('sha256Hex', () => {
  it('hashes bytes to 64 lower-case hexadecimal characters', async () => {
    const bytes = new TextEncoder().encode('abc');
    expect(await sha256Hex(bytes.buffer)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
