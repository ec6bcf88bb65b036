import { describe, expect, it } from 'vitest';
import { oneAtATimeBy } from './one-at-a-time';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('oneAtATimeBy', () => {
  it('runs work of one key in order, other keys alongside, and goes on after a failure', async () => {
    const serially = oneAtATimeBy<string>();
    const log: string[] = [];
    const step = (key: string, name: string, ms: number, fail = false) =>
      serially(key, async () => {
        log.push(`${name} start`);
        await later(ms);
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step('a', 'a1', 30, true), step('a', 'a2', 1), step('b', 'b1', 5)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    // a2 waits for a1 although a1 failed; b1 does not wait for either.
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 end')).toBeLessThan(log.indexOf('a1 end'));
  });
});
