import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentApiBaseUrl, fetchAgentApiBaseUrl } from './agent-api-base';

describe('agentApiBaseUrl', () => {
  it("uses the server's public address from its issuer metadata", () => {
    expect(agentApiBaseUrl({ issuer: 'https://pay.example.com', jwks: { keys: [] } }, 'http://127.0.0.1:4173')).toBe(
      'https://pay.example.com/functions/v1/mcp-server',
    );
  });

  it('keeps a path prefix and drops a trailing slash', () => {
    expect(agentApiBaseUrl({ issuer: 'https://example.com/purser/' }, 'http://localhost')).toBe('https://example.com/purser/functions/v1/mcp-server');
  });

  it("falls back to the page's origin when the metadata is missing or odd", () => {
    for (const metadata of [null, undefined, 'text', {}, { issuer: 42 }, { issuer: 'not a url' }, { issuer: 'javascript:alert(1)' }, { issuer: 'ftp://example.com' }]) {
      expect(agentApiBaseUrl(metadata, 'http://127.0.0.1:4173'), JSON.stringify(metadata)).toBe('http://127.0.0.1:4173/functions/v1/mcp-server');
    }
  });
});

describe('fetchAgentApiBaseUrl', () => {
  const origin = 'http://127.0.0.1:4173';
  const answer = (body: string, contentType: string, status = 200) => vi.fn(async () => new Response(body, { status, headers: { 'content-type': contentType } }));

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("reads the server's issuer metadata", async () => {
    const fetch = answer(JSON.stringify({ issuer: 'https://pay.example.com', jwks: { keys: [] } }), 'application/json; charset=utf-8');
    vi.stubGlobal('fetch', fetch);
    await expect(fetchAgentApiBaseUrl(origin)).resolves.toBe('https://pay.example.com/functions/v1/mcp-server');
    expect(fetch).toHaveBeenCalledWith('/.well-known/jwt-vc-issuer', expect.anything());
  });

  it("uses the page's origin when a single-page-app server answers with its index.html", async () => {
    vi.stubGlobal('fetch', answer('<!doctype html><html></html>', 'text/html'));
    await expect(fetchAgentApiBaseUrl(origin)).resolves.toBe(`${origin}/functions/v1/mcp-server`);
  });

  it("uses the page's origin when the server refuses or cannot be reached", async () => {
    vi.stubGlobal('fetch', answer('{}', 'application/json', 404));
    await expect(fetchAgentApiBaseUrl(origin)).resolves.toBe(`${origin}/functions/v1/mcp-server`);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(fetchAgentApiBaseUrl(origin)).resolves.toBe(`${origin}/functions/v1/mcp-server`);
    vi.stubGlobal('fetch', answer('not json', 'application/json'));
    await expect(fetchAgentApiBaseUrl(origin)).resolves.toBe(`${origin}/functions/v1/mcp-server`);
  });
});
