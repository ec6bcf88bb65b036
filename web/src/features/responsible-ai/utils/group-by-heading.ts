// Splits a page's blocks at its headings, so each part can be shown as its own card.
import { headingSlugs, type Block } from '@purser/docs-content/browser';

export interface BlockGroup {
  heading: string;
  /** The heading's element id (GitHub-style slug, as the content's links expect). */
  id: string;
  blocks: Block[];
}

/** Blocks before the first heading are dropped: the page's own header introduces it. */
export function groupByHeading(blocks: readonly Block[]): BlockGroup[] {
  const headings = blocks.flatMap((block) => (block.type === 'heading' ? [block.text] : []));
  const ids = headingSlugs(headings);
  const groups: BlockGroup[] = [];
  for (const block of blocks) {
    if (block.type === 'heading') groups.push({ heading: block.text, id: ids[groups.length] ?? '', blocks: [] });
    else groups.at(-1)?.blocks.push(block);
  }
  return groups;
}
