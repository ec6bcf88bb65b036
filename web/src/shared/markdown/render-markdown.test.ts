import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, type RenderMarkdownOptions } from './render-markdown';

/** The HTML React would produce for the markdown (links need a router around them). */
function html(markdown: string, options?: RenderMarkdownOptions): string {
  return renderToStaticMarkup(createElement(MemoryRouter, null, renderMarkdown(markdown, options)));
}

describe('renderMarkdown', () => {
  it('gives headings the ids markdown-outline computes, repeated ones numbered', () => {
    expect(html('## KYA tiers\n\n### GET /balance\n\n## KYA tiers')).toBe(
      '<h2 id="kya-tiers">KYA tiers</h2><h3 id="get-balance">GET /balance</h3><h2 id="kya-tiers-1">KYA tiers</h2>',
    );
  });

  it('shifts heading levels under a section title', () => {
    expect(html('## Policies\n\n### Rules', { headingOffset: 1 })).toBe('<h3 id="policies">Policies</h3><h4 id="rules">Rules</h4>');
  });

  it('renders paragraphs with emphasis, strong text, inline code and line breaks', () => {
    expect(html('A **policy** is *checked* before `POST /payment`.  \nThen it pays.')).toBe(
      '<p>A <strong>policy</strong> is <em>checked</em> before <code>POST /payment</code>.<br/>Then it pays.</p>',
    );
  });

  it('renders bulleted and numbered lists, keeping a numbered list’s start', () => {
    expect(html('- one\n- two')).toBe('<ul><li><span>one</span></li><li><span>two</span></li></ul>');
    expect(html('3. three\n4. four')).toBe('<ol start="3"><li><span>three</span></li><li><span>four</span></li></ol>');
    expect(html('1. first')).toBe('<ol><li><span>first</span></li></ol>');
  });

  it('renders fenced code with its language and the text as written', () => {
    const out = html('```bash\ncurl -s "$URL" | jq \'.a < 2 && .b\'\n```');
    expect(out).toContain('<span class="md-code-lang">bash</span>');
    expect(out).toContain('<pre tabindex="0"><code class="language-bash">curl -s &quot;$URL&quot; | jq &#x27;.a &lt; 2 &amp;&amp; .b&#x27;</code></pre>');
  });

  it('renders tables with header cells and column alignment', () => {
    const out = html('| tier | cap |\n|:--|--:|\n| `basic` | $100 |');
    expect(out).toContain('<thead><tr><th scope="col" style="text-align:left">tier</th><th scope="col" style="text-align:right">cap</th></tr></thead>');
    expect(out).toContain('<tbody><tr><td style="text-align:left"><code>basic</code></td><td style="text-align:right">$100</td></tr></tbody>');
    expect(out).toMatch(/^<div class="md-table" tabindex="0"><table>/);
  });

  it('renders block quotes and rules', () => {
    expect(html('> Careful\n\n---')).toBe('<blockquote><p>Careful</p></blockquote><hr/>');
  });

  it('shows raw HTML as text instead of interpreting it', () => {
    const block = html('<script>alert(1)</script>');
    expect(block).not.toContain('<script>');
    expect(block).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const inline = html('Hello <img src=x onerror=alert(1)> world');
    expect(inline).not.toContain('<img');
    expect(inline).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('routes internal links, loads server pages plainly, opens external ones in a new tab and drops unsafe ones', () => {
    expect(html('[Docs](/docs#x402)')).toBe('<p><a href="/docs#x402" data-discover="true">Docs</a></p>');
    expect(html('[API reference](/docs/api)')).toBe('<p><a href="/docs/api">API reference</a></p>');
    expect(html('[OpenAPI](/api/v1/openapi.json)')).toBe('<p><a href="/api/v1/openapi.json">OpenAPI</a></p>');
    expect(html('[Top](#kya-tiers)')).toBe('<p><a href="#kya-tiers">Top</a></p>');
    expect(html('[x402](https://github.com/coinbase/x402)')).toBe(
      '<p><a href="https://github.com/coinbase/x402" target="_blank" rel="noopener noreferrer">x402</a></p>',
    );
    expect(html('[Mail](mailto:support@purser.example)')).toBe('<p><a href="mailto:support@purser.example">Mail</a></p>');
    expect(html('[click](javascript:alert(1))')).toBe('<p><span>click</span></p>');
  });

  it('decodes named character references in text, not in code', () => {
    expect(html('AT&amp;T &mdash; `&amp;`')).toBe('<p>AT&amp;T — <code>&amp;amp;</code></p>');
  });
});
