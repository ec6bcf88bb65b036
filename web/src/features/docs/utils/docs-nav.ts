// The left navigation of /docs (spec section 2): Getting started (Introduction, Quick start),
// Product tour (Dashboard, Governance), Automation (MCP API, Workflow recipes). The x402 and
// TypeScript SDK sections are not named by the spec; they document ways to call the agent and
// owner APIs beside MCP, so they sit under Automation between the two. Every section appears
// exactly once (checked by a test).
import type { DocSectionId, Heading } from '@purser/docs-content/browser';

export interface DocsNavGroup {
  title: string;
  sections: readonly DocSectionId[];
}

export const DOCS_NAV: readonly DocsNavGroup[] = [
  { title: 'Getting started', sections: ['introduction', 'getting-started'] },
  { title: 'Product tour', sections: ['dashboard', 'governance'] },
  { title: 'Automation', sections: ['mcp-api', 'x402', 'sdk', 'n8n', 'workflows'] },
];

/** The entries of a section's 'On this page' list: its top-level (`##`) headings. */
export function onThisPage(headings: readonly Heading[]): Heading[] {
  return headings.filter((heading) => heading.depth === 2);
}
