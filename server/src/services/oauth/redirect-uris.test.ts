import { describe, expect, it } from 'vitest';
import { redirectUriProblem, redirectUriRegistered } from './redirect-uris';

describe('redirect URIs', () => {
  it('may be registered when https, or http on a loopback address, without fragment or credentials', () => {
    expect(redirectUriProblem('https://host.example/cb?x=1')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:9000/cb')).toBeNull();
    expect(redirectUriProblem('http://[::1]/cb')).toBeNull();
    expect(redirectUriProblem('http://localhost:3000/cb')).toBeNull();
    expect(redirectUriProblem('http://host.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://host.example/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('https://user:pw@host.example/cb')).toMatch(/password/);
    expect(redirectUriProblem('myapp://cb')).toMatch(/https/);
    expect(redirectUriProblem('/relative')).toMatch(/absolute/);
  });

  it('match exactly, except a loopback http URI on any port', () => {
    const registered = ['https://host.example/cb', 'http://127.0.0.1:8000/cb?a=1'];
    expect(redirectUriRegistered('https://host.example/cb', registered)).toBe(true);
    expect(redirectUriRegistered('https://host.example/cb/', registered)).toBe(false);
    expect(redirectUriRegistered('https://host.example:443/cb', registered)).toBe(false);
    expect(redirectUriRegistered('https://HOST.example/cb', registered)).toBe(false);
    expect(redirectUriRegistered('http://127.0.0.1:9999/cb?a=1', registered)).toBe(true);
    expect(redirectUriRegistered('http://127.0.0.1/cb?a=1', registered)).toBe(true);
    expect(redirectUriRegistered('http://127.0.0.1:9999/cb?a=2', registered)).toBe(false);
    expect(redirectUriRegistered('http://127.0.0.1:9999/cb?a=1#f', registered)).toBe(false);
    expect(redirectUriRegistered('http://[::1]:8000/cb?a=1', registered)).toBe(false);
  });
});
