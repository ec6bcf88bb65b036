import { describe, expect, it } from 'vitest';
import { internalLinkProblem, type LinkTargets } from './internal-links';

const targets: LinkTargets = new Map([
  ['/', new Set(['flow', 'start-building'])],
  ['/terms', new Set(['limitation-of-liability'])],
  ['/blog/behind-acp', new Set<string>()],
]);

describe('internalLinkProblem', () => {
  it('accepts a known route, a known anchor and an anchor of the page itself', () => {
    expect(internalLinkProblem('/', '/terms', targets)).toBeUndefined();
    expect(internalLinkProblem('/#start-building', '/terms', targets)).toBeUndefined();
    expect(internalLinkProblem('#limitation-of-liability', '/terms', targets)).toBeUndefined();
    expect(internalLinkProblem('/blog/behind-acp', '/terms', targets)).toBeUndefined();
  });

  it('names an unknown route, an unknown anchor and a trailing slash', () => {
    expect(internalLinkProblem('/pricing', '/terms', targets)).toBe('/pricing: /pricing is not a route of the site');
    expect(internalLinkProblem('/terms#liability', '/', targets)).toBe('/terms#liability: /terms has no section "liability"');
    expect(internalLinkProblem('#nowhere', '/terms', targets)).toBe('#nowhere: /terms has no section "nowhere"');
    expect(internalLinkProblem('/terms/', '/', targets)).toBe('/terms/: no trailing slash on routes');
  });

  it('leaves external links alone', () => {
    expect(internalLinkProblem('https://example.com/x#y', '/terms', targets)).toBeUndefined();
    expect(internalLinkProblem('mailto:legal@purser.example', '/terms', targets)).toBeUndefined();
  });
});
