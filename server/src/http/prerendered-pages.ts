/**
 * The pages the web build pre-rendered (web/vite.config.ts): each public page's HTML sits in
 * web/dist at <path>/index.html ('/' at index.html itself), with its text, title and
 * description in it. The static files plugin answers '/' and '/blog/' from those files but not
 * '/blog', a folder without its trailing slash, the form the app links to; so the app's
 * fallback looks the path up here, and answers any other route with the empty shell.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The web build's empty page, from which the app renders a route in the browser (web/vite.config.ts). */
export const SPA_SHELL = 'shell.html';

const INDEX = 'index.html';

/** Each pre-rendered page's path ('/blog/demystifying-x402') and its file in webDist ('blog/demystifying-x402/index.html'). */
export function prerenderedPages(webDist: string): Map<string, string> {
  const pages = new Map<string, string>();
  for (const entry of readdirSync(webDist, { recursive: true, encoding: 'utf8' })) {
    const file = entry.split(path.sep).join('/');
    if (file === INDEX) pages.set('/', file);
    else if (file.endsWith(`/${INDEX}`)) pages.set(`/${file.slice(0, -INDEX.length - 1)}`, file);
  }
  return pages;
}
