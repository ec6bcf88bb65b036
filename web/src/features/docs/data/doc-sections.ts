// The nine sections of /docs: docs-content/docs/*.md, bundled as text, front matter checked
// by docs-content's schema, in the order of DOC_SECTION_IDS. Only the docs route chunk
// imports this file, so the landing page never downloads the documentation.
import {
  DOC_SECTION_IDS,
  docSectionFrontMatterSchema,
  docSectionTexts,
  outlineMarkdown,
  splitFrontMatter,
  type DocSectionFrontMatter,
  type DocSectionId,
  type Heading,
} from '@purser/docs-content/browser';

export type DocSection = DocSectionFrontMatter & {
  /** The markdown after the front matter. */
  body: string;
  /** Its headings with the element ids the page gives them. */
  headings: Heading[];
};

function loadSection(id: DocSectionId): DocSection {
  const file = `docs/${id}.md`;
  const text = docSectionTexts[file];
  if (text === undefined) throw new Error(`${file} is missing from docs-content`);
  const { data, body } = splitFrontMatter(text, file);
  const frontMatter = docSectionFrontMatterSchema.parse(data);
  if (frontMatter.id !== id) throw new Error(`${file}: id "${frontMatter.id}" must equal the file name`);
  return { ...frontMatter, body, headings: outlineMarkdown(body).headings };
}

export const docSections: readonly DocSection[] = DOC_SECTION_IDS.map(loadSection);
