import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseScopeParameter } from './oauth-scopes';
import { verifierMatches } from './oauth-secrets';

describe('PKCE and scopes', () => {
  it('accepts only the verifier whose S256 hash is the challenge', () => {
    const verifier = 'a'.repeat(43);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier}b`, challenge)).toBe(false);
    expect(verifierMatches(verifier, verifier)).toBe(false);
    expect(verifierMatches('short', createHash('sha256').update('short').digest('base64url'))).toBe(false);
  });

  it('reads the scope parameter: all three by default, offline_access implied, unknown scopes refused', () => {
    expect(parseScopeParameter(undefined, ['read', 'pay', 'fetch'])).toEqual(['read', 'pay', 'fetch']);
    expect(parseScopeParameter('fetch  read', ['read'])).toEqual(['read', 'fetch']);
    expect(parseScopeParameter('read offline_access', ['read', 'pay'])).toEqual(['read']);
    expect(parseScopeParameter('read admin', ['read'])).toBeNull();
  });
});
