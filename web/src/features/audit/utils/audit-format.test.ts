import { describe, expect, it } from 'vitest';
import { dataPreview, formatEntryTime, formatShortEntryTime, subjectPath, summarizeVerification } from './audit-format';

const ID = '0193f0a0-0000-7000-8000-000000000001';

describe('subjectPath', () => {
  it('leads a payment intent to its payment page and an agent to its agent page', () => {
    expect(subjectPath(`payment_intent:${ID}`)).toBe(`/dashboard/payments/${ID}`);
    expect(subjectPath(`agent:${ID}`)).toBe(`/dashboard/agents/${ID}`);
  });

  it('leaves other subjects, and ids that are no UUID, without a page', () => {
    for (const subject of [`policy:${ID}`, 'agent:did:agnic:abc', 'system', `owner_api_key:${ID}`, 'payment_intent:']) {
      expect(subjectPath(subject), subject).toBeNull();
    }
  });
});

describe('dataPreview', () => {
  it('is the data as one line of JSON, cut with an ellipsis when long, and empty for no data', () => {
    expect(dataPreview({ amount: '5.00' })).toBe('{"amount":"5.00"}');
    expect(dataPreview({ note: 'x'.repeat(100) }, 20)).toBe('{"note":"xxxxxxxxxx…');
    expect(dataPreview({})).toBe('');
  });
});

describe('formatEntryTime', () => {
  it('writes the moment with seconds in the viewer’s time zone', () => {
    expect(formatEntryTime(new Date(2026, 10, 26, 14, 3, 9).toISOString())).toBe('Nov 26, 2026, 14:03:09');
  });
});

describe('formatShortEntryTime', () => {
  it('leaves out this year and writes any other', () => {
    const now = new Date(2026, 10, 26);
    expect(formatShortEntryTime(new Date(2026, 1, 3, 4, 5, 6).toISOString(), now)).toBe('Feb 3, 04:05:06');
    expect(formatShortEntryTime(new Date(2025, 1, 3, 4, 5, 6).toISOString(), now)).toBe('Feb 3, 2025, 04:05:06');
  });
});

describe('summarizeVerification', () => {
  it('says through which entry a sound chain is verified', () => {
    const summary = summarizeVerification({ status: 'verified', checked: 12, verifiedThrough: '12', brokenAt: null, reason: null });
    expect(summary.severity).toBe('success');
    expect(summary.title).toBe('Verified through entry 12');
    expect(summary.detail).toMatch(/^12 entries checked/);
  });

  it('says at which entry a chain breaks and why', () => {
    const summary = summarizeVerification({ status: 'broken', checked: 5, verifiedThrough: '4', brokenAt: '5', reason: 'hash mismatch' });
    expect(summary).toMatchObject({ severity: 'error', title: 'Broken at entry 5: hash mismatch' });
    expect(summary.detail).toMatch(/Entries 1 to 4 are sound/);
  });

  it('says there are no entries yet for an empty chain', () => {
    expect(summarizeVerification({ status: 'empty', checked: 0, verifiedThrough: null, brokenAt: null, reason: null })).toMatchObject({
      severity: 'info',
      title: 'No entries yet',
    });
  });
});
