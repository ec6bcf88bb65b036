/// <reference types="vite/client" />
// docs/*.md as text, bundled by Vite: only the /docs page imports it (through browser.ts).
const files = import.meta.glob<string>('../docs/*.md', { query: '?raw', import: 'default', eager: true });

/** Every docs section's file by its path in docs-content (`docs/<id>.md`, as load-content names it). */
export const docSectionTexts: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(files).map(([path, text]) => [path.replace('../', ''), text]),
);
