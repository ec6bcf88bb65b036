import { beforeAll, describe, expect, it } from 'vitest';
import {
  DOC_SECTION_IDS,
  FIXED_ROUTE_ANCHORS,
  headingSlugs,
  internalLinkProblem,
  isInternalLink,
  LEGAL_PAGE_IDS,
  loadBlogPosts,
  loadDocSections,
  loadLegalPage,
  loadResponsibleAi,
  outlineMarkdown,
  PUBLIC_ROUTES,
  type Block,
  type LinkTargets,
} from '@purser/docs-content';
import { buildDocsIndex, type DocsIndex } from './docs-index';
import { answerFromDocs, NOTHING_FOUND } from './offline-responder';

/**
 * The web app's routes and the element ids each page gives its headings (as
 * docs-content's own link test builds them), plus the whitepaper's static files.
 */
async function siteTargets(): Promise<LinkTargets> {
  const [posts, legal, responsibleAi, docs] = await Promise.all([
    loadBlogPosts(),
    Promise.all(LEGAL_PAGE_IDS.map((id) => loadLegalPage(id))),
    loadResponsibleAi(),
    loadDocSections(),
  ]);
  const blockSlugs = (blocks: readonly Block[]) => headingSlugs(blocks.flatMap((block) => (block.type === 'heading' ? [block.text] : [])));
  const targets = new Map<string, ReadonlySet<string>>(PUBLIC_ROUTES.map((route) => [route, new Set(FIXED_ROUTE_ANCHORS[route] ?? [])]));
  for (const post of posts) targets.set(`/blog/${post.id}`, new Set(blockSlugs(post.content)));
  for (const page of legal) targets.set(`/${page.id}`, new Set(page.headings.map((heading) => heading.slug)));
  targets.set('/responsible-ai', new Set(blockSlugs(responsibleAi.content)));
  targets.set('/docs', new Set([...DOC_SECTION_IDS, ...docs.flatMap((section) => section.headings.map((heading) => heading.slug))]));
  // Static files of the web build (web/vite.config.ts), linked from the landing page.
  targets.set('/security-whitepaper.pdf', new Set());
  targets.set('/security-whitepaper.md', new Set());
  return targets;
}

let index: DocsIndex;
let targets: LinkTargets;

beforeAll(async () => {
  [index, targets] = await Promise.all([buildDocsIndex(), siteTargets()]);
});

function linkProblems(markdown: string): string[] {
  return outlineMarkdown(markdown)
    .links.filter(isInternalLink)
    .flatMap((href) => internalLinkProblem(href, '/', targets) ?? []);
}

describe('the docs index', () => {
  it('links every passage to a page of the web app and one of its sections, or to the whitepaper file', () => {
    expect(index.passages.length).toBeGreaterThan(100);
    const problems = index.passages.flatMap((passage) => {
      const problem = internalLinkProblem(passage.link, '/', targets);
      return problem ? [`${passage.id}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('covers the docs sections, the legal pages, the whitepaper, the responsible-AI page and the blog', () => {
    const kinds = new Set(index.passages.map((passage) => passage.kind));
    expect([...kinds].sort()).toEqual(['blog', 'docs', 'legal', 'responsible-ai', 'whitepaper']);
    for (const route of ['/terms', '/privacy', '/dpa', '/responsible-ai', '/security-whitepaper.pdf', '/docs']) {
      expect(index.passages.some((passage) => passage.link.split('#')[0] === route), route).toBe(true);
    }
  });

  it('quotes no code: code blocks stay out of the passages', () => {
    const withFences = index.passages.filter((passage) => passage.paragraphs.some((paragraph) => paragraph.includes('```')));
    expect(withFences.map((passage) => passage.id)).toEqual([]);
  });
});

describe('the offline responder', () => {
  // Each topic of the greeting (ASSISTANT_GREETING), asked as a question and as the greeting words it.
  const topics: Array<{ topic: string; questions: string[]; link: RegExp }> = [
    { topic: 'creating agent wallets', questions: ['How do I create an agent wallet?', 'create agent wallets'], link: /^\/docs#create-/ },
    { topic: 'funding them', questions: ['How do I fund my agent?', 'fund agent wallets'], link: /^\/docs#fund-/ },
    { topic: 'connecting to n8n', questions: ['How do I connect my agent to n8n?', 'connect to n8n'], link: /^\/docs#n8n$/ },
    { topic: 'the Responsible AI program', questions: ['What is your Responsible AI program?', 'Responsible AI program'], link: /^\/responsible-ai(#|$)/ },
    { topic: 'the Security Whitepaper', questions: ['Where can I read the security whitepaper?', 'Security Whitepaper'], link: /^\/security-whitepaper\.pdf$/ },
    { topic: 'the docs', questions: ['Where are the docs?', 'documentation'], link: /^\/docs$/ },
    { topic: 'the terms', questions: ['What are the terms of service?', 'terms'], link: /^\/terms(#|$)/ },
    { topic: 'the privacy commitments', questions: ['What are your privacy commitments?', 'privacy commitments'], link: /^\/privacy(#|$)/ },
  ];

  for (const { topic, questions, link } of topics) {
    it(`answers about ${topic} from the documentation, led by a link to its page`, () => {
      for (const question of questions) {
        const answer = answerFromDocs(index, question);
        expect(answer, question).toMatch(/^I answer from the Purser documentation\./);
        const links = outlineMarkdown(answer).links;
        expect(links[0], question).toMatch(link);
        expect(linkProblems(answer), question).toEqual([]);
        // A quote of the passage follows its link.
        expect(answer, question).toMatch(/\n> \S/);
      }
    });
  }

  it('says so plainly when the documentation has nothing, and points to the pages it does cover', () => {
    for (const question of ['hi', 'zxqv plorb']) {
      const answer = answerFromDocs(index, question);
      expect(answer).toBe(NOTHING_FOUND);
      expect(answer).toMatch(/^I answer from the Purser documentation, and I found nothing there about that\./);
    }
    const links = outlineMarkdown(NOTHING_FOUND).links;
    expect(links).toEqual(expect.arrayContaining(['/docs', '/terms', '/privacy', '/responsible-ai', '/security-whitepaper.pdf']));
    expect(linkProblems(NOTHING_FOUND)).toEqual([]);
  });

  it('never leaves a code span open in a quote', () => {
    for (const question of ['x402 fetch endpoint', 'idempotency key header', 'MCP client configuration', 'webhook signature']) {
      const answer = answerFromDocs(index, question);
      for (const line of answer.split('\n')) expect((line.match(/`/g)?.length ?? 0) % 2, line).toBe(0);
    }
  });
});
