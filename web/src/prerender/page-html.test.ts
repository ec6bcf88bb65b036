import { describe, expect, it } from 'vitest';
import { emotionStyleTags, pageFile, pageHtml, splitHoistedHead } from './page-html';
import { canonicalPath, isPrerenderedFor } from './prerendered-path';

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="The default." />
    <title>Purser</title>
    <script type="module" src="/assets/index.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('splitHoistedHead', () => {
  it("takes the title, meta and link elements React put before the page's markup", () => {
    const markup = '<title>Blog · Purser</title><meta name="description" content="Notes."/><link rel="canonical" href="/blog"/><div><h1>Blog</h1></div>';
    expect(splitHoistedHead(markup)).toEqual({
      head: '<title>Blog · Purser</title><meta name="description" content="Notes."/><link rel="canonical" href="/blog"/>',
      body: '<div><h1>Blog</h1></div>',
    });
  });

  it('leaves markup without hoisted elements whole', () => {
    expect(splitHoistedHead('<div><title>not hoisted</title></div>')).toEqual({ head: '', body: '<div><title>not hoisted</title></div>' });
  });
});

describe('emotionStyleTags', () => {
  it('writes global rules first, one element each, then every class in one element the browser cache adopts', () => {
    const cache = {
      key: 'css',
      inserted: { base: 'body{margin:0;}', abc: '.css-abc{color:red;}', def: '.css-def{color:blue;}', seen: true as const },
      registered: { 'css-abc': 'color:red;', 'css-def': 'color:blue;' },
    };
    expect(emotionStyleTags(cache)).toBe(
      '<style data-emotion="css-global base">body{margin:0;}</style><style data-emotion="css abc def">.css-abc{color:red;}.css-def{color:blue;}</style>',
    );
  });

  it('cannot close its style element early', () => {
    const cache = { key: 'css', inserted: { abc: '.css-abc::after{content:"</style><script>";}' }, registered: { 'css-abc': '' } };
    expect(emotionStyleTags(cache)).not.toContain('</style><script>');
  });
});

describe('pageHtml', () => {
  const page = {
    path: '/blog',
    head: '<title>Blog · Purser</title><meta name="description" content="Notes."/>',
    styles: '<style data-emotion="css a">.css-a{}</style>',
    preloads: ['assets/index.js', 'assets/blog-list-page-1.js'],
    body: '<main><h1>Blog</h1><p>Costs $5 and $&amp; more</p></main>',
  };

  it("puts the page's head, styles and markup in the template, in place of its default title and description", () => {
    const html = pageHtml(TEMPLATE, page);
    expect(html).not.toContain('<title>Purser</title>');
    expect(html).not.toContain('The default.');
    expect(html).toContain(`${page.head}<link rel="modulepreload" crossorigin href="/assets/blog-list-page-1.js">${page.styles}</head>`);
    // The template loads its entry already.
    expect(html.match(/assets\/index\.js/g)).toHaveLength(1);
    expect(html).toContain('<div id="root" data-prerendered-path="/blog"><main><h1>Blog</h1><p>Costs $5 and $&amp; more</p></main></div>');
    expect(html).toContain('<script type="module" src="/assets/index.js"></script>');
  });

  it('refuses a page without its own title or description', () => {
    expect(() => pageHtml(TEMPLATE, { ...page, head: '<title>Blog · Purser</title>' })).toThrow(/description/);
  });

  it('refuses a template without an empty root to render into', () => {
    expect(() => pageHtml(TEMPLATE.replace('<div id="root"></div>', '<div id="app"></div>'), page)).toThrow(/root/);
  });
});

describe('pageFile', () => {
  it("puts each page in its folder's index.html, the home page at the top", () => {
    expect(pageFile('/')).toBe('index.html');
    expect(pageFile('/blog')).toBe('blog/index.html');
    expect(pageFile('/blog/demystifying-x402')).toBe('blog/demystifying-x402/index.html');
  });
});

describe('isPrerenderedFor', () => {
  const root = (path: string | null, children = true) => ({ getAttribute: () => path, hasChildNodes: () => children });

  it('hydrates the page rendered for this address, with or without a trailing slash', () => {
    expect(isPrerenderedFor(root('/blog'), '/blog')).toBe(true);
    expect(isPrerenderedFor(root('/blog'), '/blog/')).toBe(true);
    expect(canonicalPath('/')).toBe('/');
  });

  it("renders from scratch over another page's HTML or the empty shell", () => {
    expect(isPrerenderedFor(root('/'), '/dashboard')).toBe(false);
    expect(isPrerenderedFor(root(null, false), '/dashboard')).toBe(false);
  });
});
