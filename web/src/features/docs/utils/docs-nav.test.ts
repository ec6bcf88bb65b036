import { DOC_SECTION_IDS } from '@purser/docs-content/browser';
import { describe, expect, it } from 'vitest';
import { docSections } from '../data/doc-sections';
import { DOCS_NAV, onThisPage } from './docs-nav';
import { SECTION_ICONS } from './section-icons';

const titleOf = (id: string) => docSections.find((section) => section.id === id)?.title;

describe('DOCS_NAV', () => {
  it('groups the sections as the spec names them', () => {
    expect(DOCS_NAV.map((group) => [group.title, group.sections.map(titleOf)])).toEqual([
      ['Getting started', ['Introduction', 'Quick start']],
      ['Product tour', ['Dashboard', 'Governance']],
      ['Automation', ['MCP API', 'x402 payments', 'TypeScript SDK', 'n8n', 'Workflow recipes']],
    ]);
  });

  it('leads to every docs section exactly once', () => {
    const listed = DOCS_NAV.flatMap((group) => group.sections);
    expect([...listed].sort()).toEqual([...DOC_SECTION_IDS].sort());
  });
});

describe('docSections', () => {
  it('holds the nine sections in the spec’s order, each with an icon the bundle carries', () => {
    expect(docSections.map((section) => section.id)).toEqual([...DOC_SECTION_IDS]);
    for (const section of docSections) expect(Object.keys(SECTION_ICONS), section.id).toContain(section.icon);
  });

  it('gives every section and heading of the page a different element id', () => {
    const ids = docSections.flatMap((section) => [section.id, `${section.id}-title`, ...section.headings.map((heading) => heading.slug)]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});

describe('onThisPage', () => {
  it('lists a section’s top-level headings only', () => {
    const headings = [
      { depth: 2, text: 'REST endpoints', slug: 'rest-endpoints' },
      { depth: 3, text: 'GET /balance', slug: 'get-balance' },
      { depth: 2, text: 'Errors', slug: 'errors' },
    ];
    expect(onThisPage(headings).map((heading) => heading.slug)).toEqual(['rest-endpoints', 'errors']);
  });
});
