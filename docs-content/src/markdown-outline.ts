/**
 * Headings (with the slugs the web app gives them as element ids) and links of a markdown
 * document, for "On this page" lists and for checking that internal links resolve.
 */
import { marked, type Token } from 'marked';

export type Heading = { depth: number; text: string; slug: string };

/** GitHub-style slug: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Slugs for headings in document order; a repeated heading gets -1, -2... like GitHub. */
export function headingSlugs(texts: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const base = slugify(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  });
}

function plainText(token: Token): string {
  if ('tokens' in token && Array.isArray(token.tokens)) return token.tokens.map(plainText).join('');
  return 'text' in token && typeof token.text === 'string' ? token.text : '';
}

export function outlineMarkdown(markdown: string): { headings: Heading[]; links: string[] } {
  const tokens = marked.lexer(markdown);
  const found: { depth: number; text: string }[] = [];
  const links: string[] = [];
  // walkTokens returns the callbacks' results for async extensions; ours are synchronous.
  void marked.walkTokens(tokens, (token) => {
    if (token.type === 'heading') found.push({ depth: token.depth as number, text: plainText(token) });
    if (token.type === 'link') links.push(token.href as string);
  });
  const slugs = headingSlugs(found.map((heading) => heading.text));
  return { headings: found.map((heading, index) => ({ ...heading, slug: slugs[index] ?? '' })), links };
}

/** A fenced code block: its language tag (empty when none), its text and where it starts. */
export type CodeBlock = { lang: string; text: string; line: number };

/** Every fenced code block of a markdown document, nested ones (in lists) included, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let searchFrom = 0;
  void marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type !== 'code' || (token as { codeBlockStyle?: string }).codeBlockStyle === 'indented') return;
    const at = markdown.indexOf(token.raw, searchFrom);
    searchFrom = at >= 0 ? at + token.raw.length : searchFrom;
    blocks.push({ lang: ((token.lang as string | undefined) ?? '').trim().split(/\s+/)[0] ?? '', text: token.text as string, line: markdown.slice(0, Math.max(at, 0)).split('\n').length });
  });
  return blocks;
}
