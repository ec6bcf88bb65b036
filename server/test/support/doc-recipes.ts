/**
 * The recipes of the docs (docs-content/docs/*.md) as tests read them: the code block under a
 * heading, taken from the markdown the /docs page renders, with the page's example URL, DID and
 * key replaced by a real agent's. A test then sends what the block holds, so the page cannot
 * drift from what works.
 */
import { codeBlocks, loadDocSections, type DocSectionId } from '@purser/docs-content';

/** The placeholders the recipes use for what each reader has of their own. */
export const EXAMPLE_URL = 'https://purser.example.com';
export const EXAMPLE_DID = 'did:agnic:0423e163-2809-4879-a27c-66df3ed4aa66';
export const EXAMPLE_KEY = '<agent API key>';

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/**
 * The text of the one fenced block of `lang` whose nearest heading above it is `heading`;
 * throws when there is none or more than one, so a renamed heading fails loudly.
 */
export async function docRecipe(sectionId: DocSectionId, heading: string, lang: string): Promise<string> {
  const section = (await loadDocSections()).find((candidate) => candidate.id === sectionId);
  if (!section) throw new Error(`no docs section "${sectionId}"`);
  const lines = section.body.split('\n');
  const blocks = codeBlocks(section.body);
  // Lines inside a fence (its opening and closing lines included) are code, not headings.
  const inFence = new Set<number>();
  for (const block of blocks) {
    const last = block.line + block.text.split('\n').length + 1;
    for (let line = block.line; line <= last; line++) inFence.add(line);
  }
  const headingAbove = (line: number): string | undefined => {
    for (let index = line - 1; index >= 1; index--) {
      const match = inFence.has(index) ? null : HEADING.exec(lines[index - 1] ?? '');
      if (match) return match[2];
    }
    return undefined;
  };
  const found = blocks.filter((block) => block.lang === lang && headingAbove(block.line) === heading);
  if (found.length !== 1) throw new Error(`${section.file}: expected one ${lang} block under "${heading}", found ${found.length}`);
  return found[0]!.text;
}

/** Replaces every occurrence of each key by its value; a key the text does not hold is an error. */
export function fillIn(text: string, values: Record<string, string>): string {
  let filled = text;
  for (const [placeholder, value] of Object.entries(values)) {
    if (!filled.includes(placeholder)) throw new Error(`the recipe does not contain "${placeholder}":\n${text}`);
    filled = filled.split(placeholder).join(value);
  }
  return filled;
}
