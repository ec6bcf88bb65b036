/**
 * The docs site's n8n page (docs-content/docs/n8n.md) as the tests read it: its `##` sections,
 * their `###` subsections and their tables, and the output fields its tables document.
 */
import { loadDocSections } from '@purser/docs-content';

/** The page's markdown, without its front matter. */
export async function n8nPage(): Promise<string> {
  const section = (await loadDocSections()).find((candidate) => candidate.id === 'n8n');
  if (!section) throw new Error('docs-content/docs/n8n.md is missing');
  return section.body;
}

/** The body of the `## heading` section, up to the next `## `. */
export function part(page: string, heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`n8n.md has no "## ${heading}"`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

/** The body of the `### heading` subsection of `text`, up to the next heading of depth 2 or 3. */
export function subpart(text: string, heading: string): string {
  const start = text.indexOf(`\n### ${heading}\n`);
  if (start < 0) throw new Error(`n8n.md has no "### ${heading}"`);
  const end = text.slice(start + 1).search(/\n#{2,3} /);
  return text.slice(start, end < 0 ? undefined : start + 1 + end);
}

/** The rows of the first markdown table in `text`, as cells, without the header and the rule. */
export function tableRows(text: string): string[][] {
  const lines = text.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()));
}

/**
 * The fields the page documents for an output (`### heading` under "What the nodes output"):
 * top-level fields, and those of `payment` and `file` as `payment.status`.
 */
export function documentedFields(page: string, heading: string): string[] {
  return tableRows(subpart(part(page, 'What the nodes output'), heading)).map(([field]) => field!.replace(/`/g, ''));
}

/** An output item's fields as documentedFields names them. */
export function outputFields(json: Record<string, unknown>): string[] {
  return Object.entries(json).flatMap(([field, value]) =>
    ['payment', 'file'].includes(field) && value && typeof value === 'object' ? [field, ...Object.keys(value).map((inner) => `${field}.${inner}`)] : [field],
  );
}
