import { describe, expect, it } from 'vitest';
import { classifyLink, decodeEntities } from './safe-link';

describe('classifyLink', () => {
  it('treats site paths as routes and bare anchors as anchors', () => {
    expect(classifyLink('/privacy')).toEqual({ kind: 'route', to: '/privacy' });
    expect(classifyLink('#flow')).toEqual({ kind: 'anchor', href: '#flow' });
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

describe('decodeEntities', () => {
  it('decodes the common named references and leaves unknown ones as written', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &quot;d&quot; &nbsp;&hellip; &bogus;')).toBe('a & b <c> "d" \u00a0… &bogus;');
  });
});
