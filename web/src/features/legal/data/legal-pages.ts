// The legal pages (/terms, /privacy, /dpa): docs-content/legal/*.md, bundled as text, front
// matter checked by docs-content's schema. Only the legal route chunks import this file.
import { splitFrontMatter } from '@purser/docs-content/front-matter';
import { legalFrontMatterSchema, type LegalPageId } from '@purser/docs-content/schemas';
import dpa from '../../../../../docs-content/legal/dpa.md?raw';
import privacy from '../../../../../docs-content/legal/privacy.md?raw';
import terms from '../../../../../docs-content/legal/terms.md?raw';

export interface LegalDocument {
  id: LegalPageId;
  title: string;
  /** Text date, e.g. 'Oct 20, 2025'. */
  updated: string;
  summary: string;
  /** The markdown after the front matter. */
  body: string;
}

const texts: Record<LegalPageId, string> = { terms, privacy, dpa };

export function legalDocument(id: LegalPageId): LegalDocument {
  const file = `legal/${id}.md`;
  const { data, body } = splitFrontMatter(texts[id], file);
  return { ...legalFrontMatterSchema.parse(data), body };
}
