import { describe, expect, it } from 'vitest';
import { returnPath, signInUrlReturningTo } from './return-path';

describe('returnPath', () => {
  it('follows a path on this site with its query and hash', () => {
    expect(returnPath('/oauth/consent?request=abc_123')).toBe('/oauth/consent?request=abc_123');
    expect(returnPath('/dashboard/agents/1#connections')).toBe('/dashboard/agents/1#connections');
  });

  it('goes to the dashboard without a next, or with one that could leave the site or loop', () => {
    for (const next of [null, undefined, '', 'dashboard', '//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/\tevil', '/a\\b', '/auth', '/auth?next=/x']) {
      expect(returnPath(next), String(next)).toBe('/dashboard');
    }
  });
});

describe('signInUrlReturningTo', () => {
  it('names the page in next, encoded, and the auth page reads it back unchanged', () => {
    const url = signInUrlReturningTo('/oauth/consent?request=a&b=c');
    expect(url).toBe('/auth?next=%2Foauth%2Fconsent%3Frequest%3Da%26b%3Dc');
    expect(returnPath(new URLSearchParams(url.split('?')[1]).get('next'))).toBe('/oauth/consent?request=a&b=c');
  });
});
