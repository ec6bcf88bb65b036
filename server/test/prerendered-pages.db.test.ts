/**
 * What a crawler or a link preview gets from the server, running no JavaScript: the public
 * pages the web build pre-rendered arrive as HTML with their heading, text, title and
 * description, and every other route of the app gets the empty shell the app renders into.
 * Runs against the built web app (web/dist), as `npm start` and CI serve it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBlogPost, loadDocSections, loadLegalPage } from '@purser/docs-content';
import { createTestApp, type TestApp } from './support/test-app';

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

let t: TestApp;

beforeAll(async () => {
  if (!existsSync(`${WEB_DIST}/shell.html`)) throw new Error(`${WEB_DIST} holds no pre-rendered build: run \`npm run build -w web\` first`);
  t = await createTestApp({ webDist: WEB_DIST });
});

afterAll(async () => {
  await t?.cleanup();
});

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'", nbsp: ' ' };

/** Text as a reader sees it: tags gone, entities decoded, white space collapsed. */
function text(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#x27|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

interface CrawledPage {
  status: number;
  contentType: string | undefined;
  csp: string | undefined;
  title: string | undefined;
  description: string | undefined;
  og: Record<string, string>;
  h1: string | undefined;
  /** The visible text of the app's root element. */
  body: string;
}

async function crawl(url: string): Promise<CrawledPage> {
  const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  const html = response.body;
  const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  const metas = html.match(/<meta [^>]*>/g) ?? [];
  const og = Object.fromEntries(
    metas.flatMap((tag) => {
      const property = attribute(tag, 'property');
      return property?.startsWith('og:') ? [[property, text(attribute(tag, 'content') ?? '')]] : [];
    }),
  );
  const description = metas.find((tag) => attribute(tag, 'name') === 'description');
  const root = html.slice(html.indexOf('<div id="root"'));
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(root)?.[1];
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
  return {
    status: response.statusCode,
    contentType: response.headers['content-type'] as string | undefined,
    csp: response.headers['content-security-policy'] as string | undefined,
    title: title === undefined ? undefined : text(title),
    description: description && text(attribute(description, 'content') ?? ''),
    og,
    h1: h1 === undefined ? undefined : text(h1),
    body: text(root),
  };
}

describe('pre-rendered public pages', () => {
  it('answers the landing page with its headline, its sections and its own title and description', async () => {
    const page = await crawl('/');
    expect(page.status).toBe(200);
    expect(page.contentType).toContain('text/html');
    expect(page.h1).toBe('Payment integration and identity wallets for the agentic economy');
    expect(page.body).toContain('Get Sandbox Access');
    expect(page.body).toContain('How an Agent Pays');
    expect(page.title).toBe('Purser · Payments and identity wallets for AI agents');
    expect(page.description).toMatch(/wallet, a verifiable identity and spending rules/);
    expect(page.og).toMatchObject({ 'og:title': page.title, 'og:description': page.description, 'og:type': 'website', 'og:url': '/' });
  });

  it('answers a blog post with its title, intro and body as an article', async () => {
    const post = await loadBlogPost('demystifying-x402');
    if (!post) throw new Error('docs-content has no demystifying-x402 post');
    const firstParagraph = post.content.find((block) => block.type === 'paragraph');
    if (!firstParagraph || firstParagraph.type !== 'paragraph') throw new Error('the post has no paragraph');

    const page = await crawl('/blog/demystifying-x402');
    expect(page.status).toBe(200);
    expect(page.h1).toBe(post.title);
    expect(page.body).toContain(post.intro);
    expect(page.body).toContain(firstParagraph.text);
    expect(page.title).toBe(`${post.title} · Purser`);
    expect(page.description).toBe(post.intro);
    expect(page.og).toMatchObject({ 'og:title': page.title, 'og:type': 'article', 'og:url': '/blog/demystifying-x402' });
  });

  it('answers the docs with the title of every section', async () => {
    const sections = await loadDocSections();
    const page = await crawl('/docs');
    expect(page.status).toBe(200);
    expect(page.h1).toBe('Documentation');
    for (const section of sections) expect(page.body).toContain(section.title);
    expect(page.title).toBe('Documentation · Purser');
    expect(page.description).toMatch(/agent wallets/);
    expect(page.og['og:url']).toBe('/docs');
  });

  it('answers the terms with their summary and text', async () => {
    const terms = await loadLegalPage('terms');
    const page = await crawl('/terms');
    expect(page.status).toBe(200);
    expect(page.h1).toBe(terms.title);
    expect(page.body).toContain(terms.summary);
    expect(page.body).toContain('Back to home');
    expect(page.body).toContain('These terms are the agreement between you and Purser');
    expect(page.title).toBe(`${terms.title} · Purser`);
    expect(page.description).toBe(terms.summary);
  });

  it('keeps the security headers on pre-rendered pages', async () => {
    const page = await crawl('/blog');
    expect(page.status).toBe(200);
    expect(page.csp).toContain("script-src 'self'");
  });

  it('answers the other routes of the app with the empty shell it renders in the browser', async () => {
    for (const url of ['/dashboard', '/auth', '/blog/no-such-post', '/no-such-page']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root"></div>');
      expect(response.body, url).toContain('<title>Purser</title>');
    }
  });
});
