/// <reference types="vite/client" />
// blog/*.md as text, bundled by Vite: only the blog's pages import it (through browser.ts).
const files = import.meta.glob<string>('../blog/*.md', { query: '?raw', import: 'default', eager: true });

/** Every post's file by its path in docs-content (`blog/<id>.md`, as load-content names it). */
export const blogPostTexts: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(files).map(([path, text]) => [path.replace('../', ''), text]),
);
