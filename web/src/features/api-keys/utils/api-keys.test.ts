import { describe, expect, it } from 'vitest';
import type { OwnerApiKey } from '../api/api-key-types';
import { formatKeyDate, keyAllowance, keyLabel, sortApiKeys } from './api-keys';

function key(id: string, created: string, revoked: string | null = null): OwnerApiKey {
  return { id, name: id, prefix: `psk_${id}`, created_at: created, last_used_at: null, revoked_at: revoked };
}

describe('sortApiKeys', () => {
  it('lists active keys newest first, then revoked keys most recently revoked first', () => {
    const keys = [
      key('old', '2026-01-01T00:00:00Z'),
      key('revoked-early', '2026-01-02T00:00:00Z', '2026-02-01T00:00:00Z'),
      key('new', '2026-03-01T00:00:00Z'),
      key('revoked-late', '2026-01-03T00:00:00Z', '2026-04-01T00:00:00Z'),
    ];
    expect(sortApiKeys(keys).map((k) => k.id)).toEqual(['new', 'old', 'revoked-late', 'revoked-early']);
  });
});

describe('keyAllowance', () => {
  it('counts active keys and allows another below the limit only', () => {
    const keys = [key('a', '2026-01-01T00:00:00Z'), key('b', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')];
    expect(keyAllowance(keys, 2)).toEqual({ active: 1, max: 2, canCreate: true });
    expect(keyAllowance([...keys, key('c', '2026-01-01T00:00:00Z')], 2)).toEqual({ active: 2, max: 2, canCreate: false });
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

describe('keyLabel', () => {
  it('is the name, or the prefix for a key without one', () => {
    expect(keyLabel({ name: 'CI', prefix: 'psk_1' })).toBe('CI');
    expect(keyLabel({ name: '  ', prefix: 'psk_1' })).toBe('psk_1');
  });
});
