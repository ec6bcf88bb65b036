import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AssistantMarkdown } from './assistant-markdown';

/** The HTML of one assistant message (router links need a router around them). */
function html(markdown: string, idPrefix = 'm0-'): string {
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(AssistantMarkdown, { markdown, idPrefix })));
}

describe('AssistantMarkdown links', () => {
  it('drops the address of a link whose protocol is not allowed, keeping its text', () => {
    for (const url of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:msgbox', 'file:///etc/passwd']) {
      const out = html(`[x](${url})`);
      expect(out, url).toBe('<p><span>x</span></p>');
    }
  });

  it('opens web addresses in a new tab, without giving the page a handle on this one', () => {
    expect(html('[docs](https://example.com/a?b=1)')).toBe(
      '<p><a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">docs<span style="position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0"> (opens in a new tab)</span></a></p>',
    );
    expect(html('[plain](http://example.com)')).toContain('href="http://example.com" target="_blank"');
  });

  it('keeps mailto, irc, ircs and xmpp addresses as ordinary links', () => {
    for (const url of ['mailto:support@purser.dev', 'irc://irc.libera.chat/purser', 'ircs://irc.libera.chat/purser', 'xmpp:help@purser.dev']) {
      expect(html(`[x](${url})`), url).toBe(`<p><a href="${url}">x</a></p>`);
    }
  });

  it('follows a path of this site with the router, with or without a fragment', () => {
    expect(html('[Docs](/docs#agents)')).toBe('<p><a href="/docs#agents" data-discover="true">Docs</a></p>');
    expect(html('[Status](status)')).toContain('href="/status"');
  });

  it('loads the pages the server serves (the API reference, the OpenAPI document) as plain links', () => {
    expect(html('[API reference](/docs/api)')).toBe('<p><a href="/docs/api">API reference</a></p>');
    expect(html('[OpenAPI](/api/v1/openapi.json)')).toBe('<p><a href="/api/v1/openapi.json">OpenAPI</a></p>');
  });
});

describe('AssistantMarkdown GitHub extensions', () => {
  it('renders a table inside a box that scrolls sideways', () => {
    const out = html('| Rail | Currency |\n| --- | --- |\n| Base | USDC |');
    expect(out).toContain('<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>');
    expect(out).toContain('<th>Rail</th>');
    expect(out).toContain('<td>USDC</td>');
  });

  it('renders a task list with read-only boxes that say their state', () => {
    const out = html('- [x] Create an agent\n- [ ] Fund it');
    expect(out).toContain('<ul class="contains-task-list">');
    expect(out).toContain('<input type="checkbox" disabled="" readOnly="" aria-label="Done" checked=""/> Create an agent');
    expect(out).toContain('<input type="checkbox" disabled="" readOnly="" aria-label="Not done"/> Fund it');
  });

  it('renders footnotes whose ids belong to this message alone', () => {
    const first = html('Limits apply[^1].\n\n[^1]: Daily limit.', 'm1-');
    const second = html('Again[^1].\n\n[^1]: Another note.', 'm3-');
    expect(first).toContain('href="#m1-fn-1"');
    expect(first).toContain('id="m1-fn-1"');
    expect(first).toContain('id="m1-footnote-label"');
    expect(first).toContain('aria-describedby="m1-footnote-label"');
    expect(first).toContain('<h3 class="sr-only" id="m1-footnote-label">Footnotes</h3>');
    const ids = (out: string) => [...out.matchAll(/id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids(first).filter((id) => ids(second).includes(id))).toEqual([]);
  });

  it('renders strikethrough and bare web addresses as links', () => {
    expect(html('~~old~~ www.example.com')).toContain('<del>old</del>');
    expect(html('see https://example.com')).toContain('href="https://example.com"');
  });
});

describe('AssistantMarkdown images and raw HTML', () => {
  it('draws a picture from this site, and links to a picture elsewhere (the CSP would refuse it)', () => {
    expect(html('![Purser](/favicon.svg)')).toBe('<p><img src="/favicon.svg" alt="Purser" loading="lazy"/></p>');
    const out = html('![Chart](https://cdn.example.com/chart.png)');
    expect(out).not.toContain('<img');
    expect(out).toContain('<a href="https://cdn.example.com/chart.png" target="_blank" rel="noopener noreferrer">Chart');
  });

  it('drops a picture whose protocol is not allowed', () => {
    expect(html('![x](javascript:alert(1))')).toBe('<p><span>x</span></p>');
  });

  it('shows raw HTML as text, never as markup', () => {
    const out = html('<img src=x onerror="alert(1)"> and <script>alert(1)</script>');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<script');
  });
});
