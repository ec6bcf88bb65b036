import { describe, expect, it } from 'vitest';
import { classifyLink, decodeEntities, isServerPath } from './safe-link';

describe('classifyLink', () => {
  it('treats site paths as routes and bare anchors as anchors', () => {
    expect(classifyLink('/privacy')).toEqual({ kind: 'route', to: '/privacy' });
    expect(classifyLink('#flow')).toEqual({ kind: 'anchor', href: '#flow' });
  });

  it('loads the pages and files the server serves as plain links instead of routing to them', () => {
    expect(classifyLink('/docs/api')).toEqual({ kind: 'server', href: '/docs/api' });
    expect(classifyLink(' /api/v1/openapi.json ')).toEqual({ kind: 'server', href: '/api/v1/openapi.json' });
    expect(classifyLink('/docs#mcp-api')).toEqual({ kind: 'route', to: '/docs#mcp-api' });
  });

  it('opens web addresses in a new tab, mail addresses in place', () => {
    expect(classifyLink('https://www.w3.org/TR/did-core/')).toEqual({ kind: 'external', href: 'https://www.w3.org/TR/did-core/', newTab: true });
    expect(classifyLink('mailto:privacy@purser.example')).toEqual({ kind: 'external', href: 'mailto:privacy@purser.example', newTab: false });
  });

  it('refuses script, data and protocol-relative addresses and bare relative paths', () => {
    for (const href of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', '//evil.example/x', 'page.html', '#']) {
      expect(classifyLink(href), href).toEqual({ kind: 'none' });
    }
  });
});

describe('isServerPath', () => {
  it('knows the API reference, the APIs, well-known documents and the health check', () => {
    for (const path of [
      '/docs/api',
      '/docs/api#tag/agents',
      '/docs/api?x=1',
      '/docs/api/reference.js',
      '/api/v1/openapi.json',
      '/api/v1/audit-entries/export',
      '/functions/v1/mcp-server/balance',
      '/.well-known/jwt-vc-issuer',
      '/healthz',
      '/auth/v1/token',
      '/trpc/health.get',
      '/1.0/identifiers/did:web:x',
      '/sandbox/paid/weather',
    ]) {
      expect(isServerPath(path), path).toBe(true);
    }
  });

  it('takes a path ending in a file name for a file, such as the whitepaper or an image', () => {
    expect(isServerPath('/security-whitepaper.pdf')).toBe(true);
    expect(isServerPath('/favicon.svg')).toBe(true);
  });

  it("leaves the app's own pages to the router, also those whose names start like a server path", () => {
    for (const path of ['/', '/docs', '/docs#x402', '/docs/apis', '/dashboard/api-keys', '/auth', '/apis', '/healthz-report', '/blog/ap2-rumors']) {
      expect(isServerPath(path), path).toBe(false);
    }
  });

  it('is false for addresses that are not paths of this site', () => {
    for (const href of ['https://example.com/api/v1', '//evil.example/api', 'api/v1', '#api']) {
      expect(isServerPath(href), href).toBe(false);
    }
  });
});

describe('decodeEntities', () => {
  it('decodes the common named references and leaves unknown ones as written', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &quot;d&quot; &nbsp;&hellip; &bogus;')).toBe('a & b <c> "d" \u00a0… &bogus;');
  });
});
