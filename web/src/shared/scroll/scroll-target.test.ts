import { describe, expect, it } from 'vitest';
import { elementIdFromHash, findScrollTarget } from './scroll-target';

describe('elementIdFromHash', () => {
  it('returns null for an empty hash or a bare #', () => {
    expect(elementIdFromHash('')).toBeNull();
    expect(elementIdFromHash('#')).toBeNull();
  });

  it('strips the # and decodes escapes', () => {
    expect(elementIdFromHash('#start-building')).toBe('start-building');
    expect(elementIdFromHash('#caf%C3%A9')).toBe('café');
  });

  it('keeps a malformed escape as written instead of throwing', () => {
    expect(elementIdFromHash('#%E0')).toBe('%E0');
  });
});

describe('findScrollTarget', () => {
  const page = new Map([['flow', { id: 'flow' }]]);
  const lookup = (id: string) => page.get(id) ?? null;

  it('finds the element the hash names', () => {
    expect(findScrollTarget('#flow', lookup)).toEqual({ id: 'flow' });
  });

  it('means the top of the page when the hash names no element', () => {
    expect(findScrollTarget('#nowhere', lookup)).toBeNull();
  });

  it('means the top of the page when there is no hash', () => {
    expect(findScrollTarget('', lookup)).toBeNull();
  });
});
