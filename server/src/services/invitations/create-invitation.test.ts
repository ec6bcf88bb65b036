import { describe, expect, it } from 'vitest';
import { DAY_MS, generateInvitationCode, hashInvitationCode, parseDuration } from './create-invitation';

describe('invitation codes', () => {
  it('are long random codes in an unambiguous alphabet', () => {
    const codes = new Set(Array.from({ length: 200 }, generateInvitationCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^PURSER-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  });

  it('hash the same whatever the case and surrounding spaces', () => {
    expect(hashInvitationCode(' purser-abcde-12345-zzzzz ')).toBe(hashInvitationCode('PURSER-ABCDE-12345-ZZZZZ'));
    expect(hashInvitationCode('PURSER-ABCDE-12345-ZZZZZ')).not.toBe(hashInvitationCode('PURSER-ABCDE-12345-ZZZZY'));
  });
});

describe('parseDuration', () => {
  it('reads minutes, hours, days and weeks', () => {
    expect(parseDuration('30m')).toBe(30 * 60_000);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('7d')).toBe(7 * DAY_MS);
    expect(parseDuration('2w')).toBe(14 * DAY_MS);
  });

  it('refuses other forms with a clear message', () => {
    for (const bad of ['7', 'd', '-1d', '1y', '0d', '1.5d']) expect(() => parseDuration(bad), bad).toThrow(/duration/i);
  });
});
