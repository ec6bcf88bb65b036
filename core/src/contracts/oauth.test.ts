import { describe, expect, it } from 'vitest';
import { approveOAuthRequestInput, OAUTH_CAP_MESSAGE } from './oauth';

const base = { requestId: 'abc', agentId: '0196f0c8-0000-7000-8000-000000000001', scopes: ['pay', 'read'] };

describe('approveOAuthRequestInput', () => {
  it('reads the cap in dollars into atomic units and the expiry into a date; neither is required', () => {
    expect(approveOAuthRequestInput.parse({ ...base, capUsd: '5', expiresAt: '2027-01-31T00:00:00Z' })).toEqual({
      requestId: 'abc',
      agentId: base.agentId,
      scopes: ['read', 'pay'],
      capUnits: 5_000_000n,
      expiresAt: new Date('2027-01-31T00:00:00Z'),
    });
    expect(approveOAuthRequestInput.parse({ ...base, capUsd: '0.000001' }).capUnits).toBe(1n);
    expect(approveOAuthRequestInput.parse(base)).toMatchObject({ capUnits: null, expiresAt: null });
  });

  it('refuses a cap that is not a positive amount of at most 6 decimals, unknown scopes and no scope', () => {
    for (const capUsd of ['0', '-1', '1.0000001', 'ten', '1e3x']) {
      const result = approveOAuthRequestInput.safeParse({ ...base, capUsd });
      expect(result.success, capUsd).toBe(false);
      expect(result.error?.issues[0]?.message, capUsd).toBe(OAUTH_CAP_MESSAGE);
    }
    expect(approveOAuthRequestInput.safeParse({ ...base, scopes: ['admin'] }).success).toBe(false);
    expect(approveOAuthRequestInput.safeParse({ ...base, scopes: [] }).success).toBe(false);
  });
});
