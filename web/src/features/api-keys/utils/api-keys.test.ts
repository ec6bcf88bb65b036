import { describe, expect, it } from 'vitest';
import type { OwnerApiKey } from '../api/api-key-types';
import { expiryFromNow, formatKeyDate, keyAllowance, keyLabel, keyState, lifetimeLabel, sortApiKeys } from './api-keys';

const NOW = new Date('2026-06-01T00:00:00Z').getTime();
const LATER = '2027-01-01T00:00:00Z';

function key(id: string, created: string, revoked: string | null = null, expires = LATER): OwnerApiKey {
  return { id, name: id, prefix: `psk_${id}`, scopes: ['read'], created_at: created, expires_at: expires, last_used_at: null, revoked_at: revoked };
}

describe('keyState', () => {
  it('is revoked once revoked, expired from its expiry on, and active before', () => {
    expect(keyState(key('a', '2026-01-01T00:00:00Z'), NOW)).toBe('active');
    expect(keyState(key('b', '2026-01-01T00:00:00Z', null, '2026-06-01T00:00:00Z'), NOW)).toBe('expired');
    expect(keyState(key('c', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'), NOW)).toBe('revoked');
  });
});

describe('sortApiKeys', () => {
  it('lists active keys newest first, then expired and revoked keys, the most recently ended first', () => {
    const keys = [
      key('old', '2026-01-01T00:00:00Z'),
      key('revoked-early', '2026-01-02T00:00:00Z', '2026-02-01T00:00:00Z'),
      key('new', '2026-03-01T00:00:00Z'),
      key('expired', '2026-01-04T00:00:00Z', null, '2026-03-01T00:00:00Z'),
      key('revoked-late', '2026-01-03T00:00:00Z', '2026-04-01T00:00:00Z'),
    ];
    expect(sortApiKeys(keys, NOW).map((k) => k.id)).toEqual(['new', 'old', 'revoked-late', 'expired', 'revoked-early']);
  });
});

describe('keyAllowance', () => {
  it('counts active keys (not revoked, not expired) and allows another below the limit only', () => {
    const keys = [key('a', '2026-01-01T00:00:00Z'), key('b', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'), key('x', '2026-01-01T00:00:00Z', null, '2026-05-01T00:00:00Z')];
    expect(keyAllowance(keys, 2, NOW)).toEqual({ active: 1, max: 2, canCreate: true });
    expect(keyAllowance([...keys, key('c', '2026-01-01T00:00:00Z')], 2, NOW)).toEqual({ active: 2, max: 2, canCreate: false });
  });

  it('uses the server’s limit of 25 by default', () => {
    expect(keyAllowance([]).max).toBe(25);
  });
});

describe('formatKeyDate', () => {
  it('writes a moment in the viewer’s time zone, and the fallback for none', () => {
    expect(formatKeyDate(new Date(2026, 10, 26, 7, 4).toISOString())).toBe('Nov 26, 2026 at 07:04');
    expect(formatKeyDate(null, 'Never')).toBe('Never');
    expect(formatKeyDate('garbage')).toBe('—');
  });
});

describe('lifetimes', () => {
  it('read as days, or a year, and end that many days from now', () => {
    expect([30, 90, 365].map(lifetimeLabel)).toEqual(['30 days', '90 days', '1 year']);
    const now = new Date(2026, 0, 1, 9, 30).getTime();
    expect(expiryFromNow(30, now)).toBe('Jan 31, 2026 at 09:30');
  });
});

describe('keyLabel', () => {
  it('is the name, or the prefix for a key without one', () => {
    expect(keyLabel({ name: 'CI', prefix: 'psk_1' })).toBe('CI');
    expect(keyLabel({ name: '  ', prefix: 'psk_1' })).toBe('psk_1');
  });
});
