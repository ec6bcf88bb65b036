import { describe, expect, it } from 'vitest';
import { credentialStatus, verificationOutcome } from './credential-status';

describe('credentialStatus', () => {
  it('follows the agent: active, suspended until reactivated, revoked once deleted', () => {
    expect(credentialStatus('active', true)).toMatchObject({ standing: 'active', label: 'Active', color: 'success' });
    expect(credentialStatus('suspended', true)).toMatchObject({ standing: 'suspended', label: 'Suspended', color: 'warning' });
    expect(credentialStatus('deleted', true)).toMatchObject({ standing: 'revoked', label: 'Revoked', color: 'error' });
  });

  it('says so when the agent has no credential', () => {
    expect(credentialStatus('active', false).standing).toBe('none');
  });
});

describe('verificationOutcome', () => {
  it('reads a valid answer as valid', () => {
    expect(verificationOutcome({ valid: true, revoked: false, errors: [] })).toMatchObject({ valid: true, title: 'Valid' });
  });

  it("lists every reason the server gave for an invalid credential", () => {
    expect(verificationOutcome({ valid: false, revoked: true, errors: ['Credential has expired', 'Credential has been revoked'] })).toEqual({
      valid: false,
      title: 'Invalid',
      reasons: ['Credential has expired', 'Credential has been revoked'],
    });
  });

  it('still gives a reason when the server gave none', () => {
    expect(verificationOutcome({ valid: false, revoked: true, errors: [] }).reasons).toEqual(['Credential has been revoked']);
  });
});
