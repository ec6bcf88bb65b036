/**
 * The content as committed: every file loads and validates, the legal pages carry the spec's
 * commitments (section 9) word for word, and every internal link lands on a real page and
 * section. Blog posts are checked one test per post, so a missing or broken post is named.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countWords } from './blocks';
import {
  BLOG_DATE_RANGE,
  BLOG_POST_IDS,
  BOOKING_URL,
  CONTACT_EMAILS,
  DOC_SECTION_IDS,
  FIXED_ROUTE_ANCHORS,
  PUBLIC_ROUTES,
  RESPONSIBLE_AI_SLACK_CHANNEL,
} from './constants';
import { internalLinkProblem, isInternalLink } from './internal-links';
import { contentRoot, loadBlogPost, loadBlogPosts, loadDocSections, loadLegalPage, loadResponsibleAi, loadStatusIncidents, loadWhitepaper } from './load-content';
import { headingSlugs, outlineMarkdown } from './markdown-outline';
import { LEGAL_PAGE_IDS, parseTextDate, type Block } from './schemas';

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/** Markdown again from blocks, so links written inside blog text are found like any other. */
const blocksToMarkdown = (blocks: readonly Block[]) =>
  blocks.map((block) => (block.type === 'list' ? block.items.map((item) => `- ${item}`).join('\n') : block.text)).join('\n\n');

describe('blog posts', () => {
  const first = parseTextDate(BLOG_DATE_RANGE.first);
  const last = parseTextDate(BLOG_DATE_RANGE.last);

  it.each(BLOG_POST_IDS)('blog/%s.md exists, validates, is dated in range and has a body of at least 600 words', async (id) => {
    const post = await loadBlogPost(id);
    expect(post, `blog/${id}.md is missing`).toBeDefined();
    if (!post) return;
    expect(post.id).toBe(id);
    const date = parseTextDate(post.date);
    expect(date!.getTime()).toBeGreaterThanOrEqual(first!.getTime());
    expect(date!.getTime()).toBeLessThanOrEqual(last!.getTime());
    expect(countWords(post.content)).toBeGreaterThanOrEqual(600);
  });

  it('blog/ holds exactly the 11 posts, with unique ids equal to their file names', async () => {
    const files = (await readdir(join(contentRoot, 'blog'))).filter((name) => name.endsWith('.md'));
    expect(files.map((name) => name.replace(/\.md$/, '')).sort()).toEqual([...BLOG_POST_IDS].sort());
    const posts = await loadBlogPosts();
    expect(new Set(posts.map((post) => post.id)).size).toBe(posts.length);
    expect(posts.map((post) => post.id).sort()).toEqual([...BLOG_POST_IDS].sort());
  });
});

describe('legal pages', () => {
  // The exact wording each page commits to (spec section 9); changing it is a legal change.
  const commitments = {
    terms: [
      'limited to the fees you paid us in the 3 months before the incident',
      'governed by the laws of the Province of Ontario',
      'The courts located in Toronto, Ontario have exclusive jurisdiction',
    ],
    privacy: [
      'We keep operational logs for 13 months',
      "We give customers 30 days' notice before we add or replace a subprocessor",
      'we tell you within 24 hours of becoming aware of it',
      'We answer privacy requests within 30 days',
    ],
    dpa: [
      "give the Customer 30 days' notice before a new subprocessor processes Customer Data",
      'notify the Customer of any security incident affecting Customer Data within 24 hours of becoming aware of it',
      'Operational logs are deleted after 13 months',
      'within 30 days',
      'the laws of the Province of Ontario, with the courts located in Toronto, Ontario having exclusive jurisdiction',
    ],
  } as const;

  it.each(LEGAL_PAGE_IDS)('legal/%s.md carries its commitments word for word', async (id) => {
    const page = await loadLegalPage(id);
    const text = oneLine(page.body);
    for (const phrase of commitments[id]) expect(text, `${page.file} must say "${phrase}"`).toContain(phrase);
  });

  it.each(LEGAL_PAGE_IDS)('legal/%s.md ends with a link back home', async (id) => {
    const page = await loadLegalPage(id);
    expect(page.body.trimEnd().endsWith('[Back to home](/)')).toBe(true);
  });

  it('the terms cap liability and name the governing law in their own sections', async () => {
    const terms = await loadLegalPage('terms');
    expect(terms.headings.map((heading) => heading.slug)).toEqual(expect.arrayContaining(['limitation-of-liability', 'governing-law-and-courts']));
  });
});

describe('responsible AI page', () => {
  it('has the principles, safety, privacy and operations sections, resources and office hours', async () => {
    const page = await loadResponsibleAi();
    const headings = page.content.filter((block) => block.type === 'heading').map((block) => block.text);
    expect(headings).toEqual(expect.arrayContaining(['Principles', 'Safety', 'Privacy', 'Operations']));
    expect(page.officeHours).toBe('Wednesdays 16:00-18:00 UTC');
    expect(page.resources.map((resource) => resource.action)).toEqual(['Request a copy', 'Schedule a workshop', 'Request a workshop']);
    for (const resource of page.resources) expect(resource.href).toBe(BOOKING_URL);
    expect(page.contact).toEqual({ email: CONTACT_EMAILS.responsibleAi, slack: RESPONSIBLE_AI_SLACK_CHANNEL });
    const text = blocksToMarkdown(page.content);
    expect(text).toContain(CONTACT_EMAILS.responsibleAi);
    expect(text).toContain(RESPONSIBLE_AI_SLACK_CHANNEL);
    expect(text).toContain('Wednesdays 16:00-18:00 UTC');
  });
});

describe('status incident log', () => {
  it('is labelled illustrative and holds the Solana maintenance window', async () => {
    const log = await loadStatusIncidents();
    expect(log.illustrative).toBe(true);
    expect(log.note).toMatch(/illustrative/i);
    expect(log.incidents.some((incident) => /Solana/.test(incident.title) && incident.title.includes('22:00-22:20 UTC'))).toBe(true);
  });

  it('lists incidents newest first', async () => {
    const times = (await loadStatusIncidents()).incidents.map((incident) => parseTextDate(incident.date)!.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('security whitepaper', () => {
  it('has at least 1,500 words and covers the controls as built', async () => {
    const paper = await loadWhitepaper();
    expect(paper.body.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length).toBeGreaterThanOrEqual(1500);
    for (const term of ['AES-256-GCM', 'argon2id', 'reuse', 'shown once', 'SD-JWT', 'status list', 'hash-chained', 'audit:verify', 'double-entry', 'Idempotency-Key', 'Temporal', 'Standard Webhooks', 'private', 'sandbox']) {
      expect(paper.body, term).toContain(term);
    }
  });
});

describe('docs sections', () => {
  it('docs/ holds the nine sections, each with its front matter and a body of substance', async () => {
    const files = (await readdir(join(contentRoot, 'docs'))).filter((name) => name.endsWith('.md'));
    expect(files.map((name) => name.replace(/\.md$/, '')).sort()).toEqual([...DOC_SECTION_IDS].sort());
    const sections = await loadDocSections();
    expect(sections.map((section) => section.id)).toEqual([...DOC_SECTION_IDS]);
    for (const section of sections) {
      expect(section.body.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length, section.file).toBeGreaterThanOrEqual(400);
      expect(section.headings.some((heading) => heading.depth === 1), `${section.file} has no H1 (the title is the H1)`).toBe(false);
    }
  });

  it('the MCP API section documents every agent endpoint, both headers, the MCP endpoint and the error codes', async () => {
    const sections = await loadDocSections();
    const text = sections.find((section) => section.id === 'mcp-api')!.body;
    for (const term of [
      '/functions/v1/mcp-server',
      'X-Agent-DID',
      'Authorization: Bearer',
      'GET /balance',
      'POST /payment',
      'GET /transactions',
      'GET /info',
      '/x402/requirements',
      '/x402/sign-payment',
      '/x402/proxy',
      '/x402/fetch',
      '/mcp',
      'Idempotency-Key',
      'UNAUTHORIZED',
      'AGENT_SUSPENDED',
      'POLICY_VIOLATION',
      'RATE_LIMITED',
      'UPSTREAM_ERROR',
      '120',
    ]) {
      expect(text, term).toContain(term);
    }
  });

  it('the workflow recipes cover n8n, Make, MCP clients and curl', async () => {
    const sections = await loadDocSections();
    const text = sections.find((section) => section.id === 'workflows')!.body;
    for (const term of ['n8n', 'Make', 'MCP', 'curl', 'Streamable HTTP']) expect(text, term).toContain(term);
  });
});

describe('links in the content', () => {
  async function allDocuments() {
    const posts = await loadBlogPosts();
    const legal = await Promise.all(LEGAL_PAGE_IDS.map((id) => loadLegalPage(id)));
    const responsibleAi = await loadResponsibleAi();
    const whitepaper = await loadWhitepaper();
    const docs = await loadDocSections();
    const postSlugs = (blocks: readonly Block[]) =>
      headingSlugs(blocks.filter((block) => block.type === 'heading').map((block) => block.text));

    const targets = new Map<string, ReadonlySet<string>>(PUBLIC_ROUTES.map((route) => [route, new Set(FIXED_ROUTE_ANCHORS[route] ?? [])]));
    for (const post of posts) targets.set(`/blog/${post.id}`, new Set(postSlugs(post.content)));
    for (const page of legal) targets.set(`/${page.id}`, new Set(page.headings.map((heading) => heading.slug)));
    targets.set('/responsible-ai', new Set(postSlugs(responsibleAi.content)));
    // /docs is one page: its anchors are the sections and every heading inside them.
    targets.set('/docs', new Set([...DOC_SECTION_IDS, ...docs.flatMap((section) => section.headings.map((heading) => heading.slug))]));
    // The server's interactive API reference.
    targets.set('/docs/api', new Set<string>());

    const documents = [
      ...posts.map((post) => ({ file: `blog/${post.id}.md`, route: `/blog/${post.id}`, markdown: blocksToMarkdown(post.content) })),
      ...legal.map((page) => ({ file: page.file, route: `/${page.id}`, markdown: page.body })),
      { file: responsibleAi.file, route: '/responsible-ai', markdown: blocksToMarkdown(responsibleAi.content) },
      ...docs.map((section) => ({ file: section.file, route: '/docs', markdown: section.body })),
      // The whitepaper is a static file, not a route; its own #anchors resolve to its headings.
      { file: whitepaper.file, route: '/security-whitepaper', markdown: whitepaper.body },
    ];
    targets.set('/security-whitepaper', new Set(whitepaper.headings.map((heading) => heading.slug)));
    return { documents, targets };
  }

  it('every internal link resolves to a route of the site and, with an anchor, to one of its sections', async () => {
    const { documents, targets } = await allDocuments();
    const problems: string[] = [];
    let checked = 0;
    for (const document of documents) {
      for (const href of outlineMarkdown(document.markdown).links.filter(isInternalLink)) {
        checked++;
        const problem = internalLinkProblem(href, document.route, targets);
        if (problem) problems.push(`${document.file}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('every email address in the content is one of the contact addresses', async () => {
    const { documents } = await allDocuments();
    const known = new Set<string>(Object.values(CONTACT_EMAILS));
    const unknown = documents.flatMap((document) =>
      [...document.markdown.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)].map((match) => match[0]).filter((email) => !known.has(email)).map((email) => `${document.file}: ${email}`),
    );
    expect(unknown).toEqual([]);
  });
});
