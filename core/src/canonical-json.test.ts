import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('serializes equal values to the same text whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x'], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, 'x'] }, b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('writes bigints as decimal strings and leaves out undefined properties', () => {
    expect(canonicalJson({ amount: 1_500_000n, memo: undefined })).toBe('{"amount":"1500000"}');
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });
});
