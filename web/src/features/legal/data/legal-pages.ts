// The legal pages (/terms, /privacy, /dpa): docs-content/legal/*.md, bundled as text, front
// matter checked by docs-content's schema. Only the legal route chunks import this file.
import { legalFrontMatterSchema, legalPageTexts, splitFrontMatter, type LegalPageId } from '@purser/docs-content/browser';

export interface LegalDocument {
  id: LegalPageId;
  title: string;
  /** Text date, e.g. 'Oct 20, 2025'. */
  updated: string;
  summary: string;
  /** The markdown after the front matter. */
  body: string;
}

export function legalDocument(id: LegalPageId): LegalDocument {
  const file = `legal/${id}.md`;
  const { data, body } = splitFrontMatter(legalPageTexts[id], file);
  return { ...legalFrontMatterSchema.parse(data), body };
}
