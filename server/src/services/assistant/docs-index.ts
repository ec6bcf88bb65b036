/**
 * The assistant's knowledge: every page of docs-content (docs sections, legal pages, the
 * security whitepaper, the responsible-AI page, the blog) cut into passages at its headings,
 * each with the link of the web app's page and anchor that shows it, and a full-text index
 * (MiniSearch) over them. Built once per process, on the first question.
 */
import MiniSearch from 'minisearch';
import type { Token, Tokens } from 'marked';
import { marked } from 'marked';
import {
  contentRoot,
  headingSlugs,
  LEGAL_PAGE_IDS,
  loadBlogPosts,
  loadDocSections,
  loadLegalPage,
  loadResponsibleAi,
  loadWhitepaper,
  outlineMarkdown,
  type Block,
} from '@purser/docs-content';

export type PassageKind = 'docs' | 'legal' | 'whitepaper' | 'responsible-ai' | 'blog';

export interface DocPassage {
  id: string;
  /** The section's heading, or the page's title for the text before the first heading. */
  title: string;
  /** The page it is on, as a reader names it: "Docs: Dashboard", "Terms of Service". */
  source: string;
  kind: PassageKind;
  /** A route (and anchor) of the web app, or one of its static files (the whitepaper PDF). */
  link: string;
  /** Plain text, one paragraph each; list items start with "- ". */
  paragraphs: string[];
  /** Indexed but never quoted: table rows. */
  tables: string[];
}

export interface ScoredPassage {
  passage: DocPassage;
  score: number;
  /** The indexed terms the query matched, for choosing an excerpt. */
  terms: string[];
}

export interface DocsIndex {
  passages: readonly DocPassage[];
  search(query: string, options?: { limit?: number }): ScoredPassage[];
}

/** The whitepaper is a static file of the web build (web/vite.config.ts), not a route. */
export const WHITEPAPER_PDF_LINK = '/security-whitepaper.pdf';

/**
 * Words that carry no topic ("how do I ..."): left out of the index and of queries, so a
 * passage is not chosen for saying "you" often.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can could do does for from have how i if in into is it its me my of on or our ' +
    'please should so that the their them then there these this to us was we what when where which who why will ' +
    'with would you your about tell want need help hi hello thanks thank'
  ).split(' '),
);

/** Blog posts discuss the market; the pages that describe the product answer first. */
const KIND_BOOST: Record<PassageKind, number> = { docs: 1, legal: 1, whitepaper: 1, 'responsible-ai': 1, blog: 0.6 };

function normalizeTerm(term: string): string | null {
  const lower = term.toLowerCase().replace(/['’]s$/, '');
  if (lower.length < 2 && !/\d/.test(lower)) return null;
  if (STOP_WORDS.has(lower)) return null;
  // A plural finds its singular ("agents" -> "agent"); "ss" and short words are left alone.
  return lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower;
}

/** The index's words of a text, as queries and passages are indexed. */
export function indexTerms(text: string): Set<string> {
  return new Set(tokenize(text).flatMap((word) => normalizeTerm(word) ?? []));
}

function tokenize(text: string): string[] {
  // Letters and digits only: "`funding`" and "/x402/fetch" index as their words.
  return text.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

export async function buildDocsIndex(root: string = contentRoot): Promise<DocsIndex> {
  const passages = await loadPassages(root);
  const byId = new Map(passages.map((passage) => [passage.id, passage]));
  const search = new MiniSearch<{ id: string; title: string; source: string; text: string }>({
    fields: ['title', 'source', 'text'],
    tokenize,
    processTerm: normalizeTerm,
    searchOptions: {
      boost: { title: 3, source: 2 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      combineWith: 'OR',
      boostDocument: (id) => KIND_BOOST[byId.get(id as string)?.kind ?? 'docs'],
    },
  });
  search.addAll(
    passages.map((passage) => ({
      id: passage.id,
      title: passage.title,
      // The page's own name: "Docs: " on every docs passage would make "docs" match them all
      // alike instead of the docs overview.
      source: passage.source.replace(/^(Docs|Blog): /, ''),
      text: [...passage.paragraphs, ...passage.tables].join('\n'),
    })),
  );

  return {
    passages,
    search(query, options = {}) {
      return search
        .search(query)
        .slice(0, options.limit ?? 5)
        .flatMap((result) => {
          const passage = byId.get(result.id as string);
          return passage ? [{ passage, score: result.score, terms: result.terms }] : [];
        });
    },
  };
}

let shared: Promise<DocsIndex> | undefined;

/** The process's index, built on first use; a failed build is tried again next time. */
export function loadDocsIndex(): Promise<DocsIndex> {
  if (!shared) {
    shared = buildDocsIndex();
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}

async function loadPassages(root: string): Promise<DocPassage[]> {
  const [sections, legal, whitepaper, responsibleAi, posts] = await Promise.all([
    loadDocSections(root),
    Promise.all(LEGAL_PAGE_IDS.map((id) => loadLegalPage(id, root))),
    loadWhitepaper(root),
    loadResponsibleAi(root),
    loadBlogPosts(root),
  ]);

  // /docs shows every section on one page: a heading id that two sections share, or that is
  // another section's id, reaches only the first on the page, so those link to their section.
  const docsIds = sections.flatMap((section) => [section.id, ...section.headings.map((heading) => heading.slug)]);
  const repeated = new Set(docsIds.filter((id, index) => docsIds.indexOf(id) !== index));

  return [
    {
      id: 'docs',
      title: 'Docs',
      source: 'Documentation',
      kind: 'docs',
      link: '/docs',
      paragraphs: sections.map((section) => `- ${section.title}: ${section.subtitle}`),
      tables: [],
    },
    ...sections.flatMap((section) =>
      markdownPassages(section.body, {
        id: `docs/${section.id}`,
        source: `Docs: ${section.title}`,
        kind: 'docs',
        pageTitle: section.title,
        summary: section.subtitle,
        pageLink: `/docs#${section.id}`,
        anchorLink: (slug) => (repeated.has(slug) ? `/docs#${section.id}` : `/docs#${slug}`),
      }),
    ),
    ...legal.flatMap((page) =>
      markdownPassages(page.body, {
        id: `legal/${page.id}`,
        source: page.title,
        kind: 'legal',
        pageTitle: page.title,
        summary: page.summary,
        pageLink: `/${page.id}`,
        anchorLink: (slug) => `/${page.id}#${slug}`,
      }),
    ),
    ...markdownPassages(whitepaper.body, {
      id: 'security/whitepaper',
      source: 'Security Whitepaper',
      kind: 'whitepaper',
      pageTitle: whitepaper.title,
      summary: whitepaper.summary,
      pageLink: WHITEPAPER_PDF_LINK,
      anchorLink: () => WHITEPAPER_PDF_LINK,
    }),
    ...blockPassages(responsibleAi.content, {
      id: 'responsible-ai',
      source: 'Responsible AI',
      kind: 'responsible-ai',
      pageTitle: responsibleAi.title,
      summary: responsibleAi.summary,
      pageLink: '/responsible-ai',
      anchorLink: (slug) => `/responsible-ai#${slug}`,
      extra: [
        `Office hours: ${responsibleAi.officeHours}.`,
        ...responsibleAi.resources.map((resource) => `${resource.title}: ${resource.description}`),
        `Contact: ${responsibleAi.contact.email} or the ${responsibleAi.contact.slack} Slack channel.`,
      ],
    }),
    ...posts.flatMap((post) =>
      blockPassages(post.content, {
        id: `blog/${post.id}`,
        source: `Blog: ${post.title}`,
        kind: 'blog',
        pageTitle: post.title,
        summary: post.intro,
        pageLink: `/blog/${post.id}`,
        anchorLink: (slug) => `/blog/${post.id}#${slug}`,
      }),
    ),
  ];
}

interface PageSource {
  id: string;
  source: string;
  kind: PassageKind;
  pageTitle: string;
  /** The page's subtitle or summary, said first in its opening passage. */
  summary: string;
  pageLink: string;
  anchorLink: (slug: string) => string;
  /** More text for the opening passage (what the page shows outside its body). */
  extra?: string[];
}

/** Passages of a markdown body: the text before the first heading, then one per heading. */
function markdownPassages(markdown: string, page: PageSource): DocPassage[] {
  const tokens = marked.lexer(markdown);
  // The slugs the web app gives the headings, in document order (markdown-outline.ts).
  const headingTokens: Token[] = [];
  void marked.walkTokens(tokens, (token) => {
    if (token.type === 'heading') headingTokens.push(token);
  });
  const slugs = outlineMarkdown(markdown).headings.map((heading) => heading.slug);
  const slugOf = new Map(headingTokens.map((token, index) => [token, slugs[index] ?? '']));

  const passages: DocPassage[] = [openingPassage(page)];
  for (const token of tokens) {
    if (token.type === 'heading') {
      const slug = slugOf.get(token) ?? '';
      passages.push({
        id: `${page.id}#${slug}`,
        title: inlineText((token as Tokens.Heading).tokens),
        source: page.source,
        kind: page.kind,
        link: page.anchorLink(slug),
        paragraphs: [],
        tables: [],
      });
      continue;
    }
    const passage = passages.at(-1);
    if (token.type === 'table') passage?.tables.push(...tableRows(token as Tokens.Table));
    else passage?.paragraphs.push(...blockText(token));
  }
  return passages.filter((passage) => passage.paragraphs.length > 0);
}

/** Passages of a restricted-markdown body (blog posts, the responsible-AI page). */
function blockPassages(blocks: readonly Block[], page: PageSource): DocPassage[] {
  const slugs = headingSlugs(blocks.flatMap((block) => (block.type === 'heading' ? [block.text] : [])));
  const passages: DocPassage[] = [openingPassage(page)];
  for (const block of blocks) {
    if (block.type === 'heading') {
      const slug = slugs[passages.length - 1] ?? '';
      passages.push({ id: `${page.id}#${slug}`, title: block.text, source: page.source, kind: page.kind, link: page.anchorLink(slug), paragraphs: [], tables: [] });
    } else {
      passages.at(-1)?.paragraphs.push(...(block.type === 'list' ? block.items.map((item) => `- ${item}`) : [block.text]));
    }
  }
  return passages.filter((passage) => passage.paragraphs.length > 0);
}

function openingPassage(page: PageSource): DocPassage {
  return { id: page.id, title: page.pageTitle, source: page.source, kind: page.kind, link: page.pageLink, paragraphs: [page.summary, ...(page.extra ?? [])], tables: [] };
}

/** A block token as plain paragraphs: prose and list items ("- "); code is skipped. */
function blockText(token: Token): string[] {
  switch (token.type) {
    case 'paragraph':
    case 'text':
      return nonBlank([inlineText((token as Tokens.Paragraph).tokens ?? [])]);
    case 'list':
      return (token as Tokens.List).items.flatMap((item) => {
        const text = item.tokens.map((child) => blockText(child).join(' ')).join(' ').trim();
        return text === '' ? [] : [`- ${text.replace(/^- /, '')}`];
      });
    case 'blockquote':
      return (token as Tokens.Blockquote).tokens.flatMap(blockText);
    default:
      return [];
  }
}

function tableRows(table: Tokens.Table): string[] {
  const row = (cells: Tokens.TableCell[]) => cells.map((cell) => inlineText(cell.tokens)).join(' | ');
  return nonBlank([row(table.header), ...table.rows.map(row)]);
}

/** Inline markdown as text a reader would see; inline code keeps its backticks. */
function inlineText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'codespan') return `\`${(token as Tokens.Codespan).text}\``;
      if (token.type === 'br') return ' ';
      if (token.type === 'image') return (token as Tokens.Image).text;
      if ('tokens' in token && Array.isArray(token.tokens)) return inlineText(token.tokens);
      return 'text' in token && typeof token.text === 'string' ? token.text : '';
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

function nonBlank(texts: string[]): string[] {
  return texts.filter((text) => text.trim() !== '');
}
