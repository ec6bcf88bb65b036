import { describe, expect, it } from 'vitest';
import { pendingSentence } from './pending-sentence';

describe('pendingSentence', () => {
  it('counts payments and budget requests, in words that agree with the counts', () => {
    expect(pendingSentence(1, 0)).toBe('1 payment waits for your approval.');
    expect(pendingSentence(2, 0)).toBe('2 payments wait for your approval.');
    expect(pendingSentence(0, 1)).toBe('1 budget request waits for your decision.');
    expect(pendingSentence(0, 3)).toBe('3 budget requests wait for your decision.');
    expect(pendingSentence(1, 1)).toBe('1 payment and 1 budget request wait for your decision.');
  });
});
