/**
 * The body of a blog post (and of the responsible-AI page) is a restricted markdown: `## `
 * headings, plain paragraphs and `- ` or `1. ` lists, separated by blank lines. The web app
 * renders the blocks as text, so anything richer would show up as stray characters; it is
 * refused here, with the file and line, rather than rendered wrong.
 */
import type { Block } from './schemas';

export class ContentError extends Error {
  override name = 'ContentError';
}

export type BlockSource = {
  /** Named in errors, e.g. `blog/behind-acp.md`. */
  file: string;
  /** Line of the file on which `body` starts (1-based), so errors point into the file. */
  firstLine?: number;
};

const BULLET = /^- +(?=\S)/;
const NUMBERED = /^\d{1,3}\. +(?=\S)/;
const INDENTED_MARKER = /^\s+([-*+]|\d{1,3}[.)])\s/;
const INLINE_HTML = /<\/?(a|b|i|u|em|strong|br|hr|p|div|span|img|sup|sub|code|pre|table|details|summary)\b[^>]*>/i;

type Line = { text: string; number: number };

function refuse(source: BlockSource, line: Line, reason: string): never {
  throw new ContentError(`${source.file}:${line.number}: ${reason}`);
}

/** Why a line cannot appear in any block, or undefined when it can. */
function refusal(text: string): string | undefined {
  if (/^\s*(```|~~~)/.test(text)) return 'code fences are not allowed; describe the code in a paragraph';
  if (/^\s*\|/.test(text) || /^\s*:?-{3,}:?\s*\|/.test(text)) return 'tables are not allowed; use a list';
  if (/^\s*<[A-Za-z/!]/.test(text) || INLINE_HTML.test(text)) return 'HTML is not allowed';
  if (/^\s*>/.test(text)) return 'block quotes are not allowed';
  if (/^\s*!\[/.test(text)) return 'images are not allowed; the post graphic is set in the front matter';
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(text)) return 'horizontal rules are not allowed';
  if (/^\s*#{1,6}(\s|$)/.test(text) && !/^## +\S/.test(text)) return 'only "## " headings are allowed';
  if (INDENTED_MARKER.test(text)) return 'nested lists are not allowed';
  if (/^[*+] /.test(text)) return 'bulleted lists use "- " items';
  if (/^\d{1,3}\) /.test(text)) return 'numbered lists use "1. " items';
  return undefined;
}

function toBlock(lines: Line[], source: BlockSource): Block {
  const [first] = lines;
  if (!first) throw new Error('empty block');
  for (const line of lines) {
    const reason = refusal(line.text);
    if (reason) refuse(source, line, reason);
  }
  // Inside a block an indented line only continues the text; starting a block, it is code.
  if (/^\s/.test(first.text)) refuse(source, first, 'a block may not start indented (that is indented code or a nested block)');
  if (first.text.startsWith('## ')) {
    const extra = lines[1];
    if (extra) refuse(source, extra, 'a heading stands on its own line, followed by a blank line');
    return { type: 'heading', text: first.text.slice(3).trim() };
  }
  const ordered = NUMBERED.test(first.text);
  if (ordered || BULLET.test(first.text)) {
    const marker = ordered ? NUMBERED : BULLET;
    const other = ordered ? BULLET : NUMBERED;
    const items: string[] = [];
    for (const line of lines) {
      if (marker.test(line.text)) items.push(line.text.replace(marker, '').trim());
      else if (other.test(line.text)) refuse(source, line, 'a list mixes "- " and "1. " items; separate the lists with a blank line and a paragraph');
      else if (line.text.startsWith('## ')) refuse(source, line, 'a heading needs a blank line before it');
      // A lazy continuation line: the item's text wraps.
      else items[items.length - 1] = `${items.at(-1) ?? ''} ${line.text.trim()}`;
    }
    return { type: 'list', items, ordered };
  }
  for (const line of lines.slice(1)) {
    if (line.text.startsWith('## ')) refuse(source, line, 'a heading needs a blank line before it');
    if (BULLET.test(line.text) || NUMBERED.test(line.text)) refuse(source, line, 'a list needs a blank line before it');
  }
  return { type: 'paragraph', text: lines.map((line) => line.text.trim()).join(' ') };
}

/** Turns a restricted markdown body into the spec's blocks, refusing anything else. */
export function parseBlocks(body: string, source: BlockSource = { file: '<body>' }): Block[] {
  const firstLine = source.firstLine ?? 1;
  const blocks: Block[] = [];
  let current: Line[] = [];
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') {
      if (current.length > 0) blocks.push(toBlock(current, source));
      current = [];
    } else {
      current.push({ text: text.trimEnd(), number: firstLine + index });
    }
  });
  if (current.length > 0) blocks.push(toBlock(current, source));
  return blocks;
}

/** Words of the blocks' text, as a reader would count them. */
export function countWords(blocks: readonly Block[]): number {
  const text = blocks.map((block) => (block.type === 'list' ? block.items.join(' ') : block.text)).join(' ');
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
