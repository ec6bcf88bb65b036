// One pre-rendered page's HTML file, assembled from the client build's index.html (which loads
// the app's scripts) and what rendering the page in Node produced. Plain string work on HTML
// whose shape React, emotion and Vite fix, so each step checks the shape it relies on and
// fails the build when it is not there, rather than shipping a page without its head.
import type { EmotionCache } from '@emotion/cache';
import { PRERENDERED_PATH_ATTRIBUTE } from './prerendered-path';

/**
 * React 19 puts the <title>, <meta> and <link> elements a page renders (its "hoistables") at
 * the front of renderToString's output when the tree has no <head> of its own. They belong in
 * the document's head: this splits them off the page's markup.
 */
const HOISTED_HEAD = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/>|<link [^>]*\/>)*/;

export function splitHoistedHead(markup: string): { head: string; body: string } {
  const head = HOISTED_HEAD.exec(markup)?.[0] ?? '';
  return { head, body: markup.slice(head.length) };
}

/**
 * The CSS a page used, as the <style> elements emotion's browser cache adopts on load (so it
 * inserts none of these rules again): one element with every component class, whose ids the
 * cache marks as inserted, and one per global rule set (CssBaseline, keyframes), the form
 * emotion's <Global> looks for. The cache must have rendered in compat mode, in which emotion
 * keeps each rule set as text instead of writing <style> elements into the markup.
 */
export function emotionStyleTags(cache: Pick<EmotionCache, 'key' | 'inserted' | 'registered'>): string {
  const globals: string[] = [];
  const ids: string[] = [];
  let classes = '';
  for (const [id, rules] of Object.entries(cache.inserted)) {
    if (typeof rules !== 'string') continue;
    const css = rules.replace(/<\/style/gi, '<\\/style');
    if (cache.registered[`${cache.key}-${id}`] === undefined) globals.push(`<style data-emotion="${cache.key}-global ${id}">${css}</style>`);
    else {
      ids.push(id);
      classes += css;
    }
  }
  // Globals first: a component's class must win over the baseline rules of its element.
  return `${globals.join('')}<style data-emotion="${cache.key} ${ids.join(' ')}">${classes}</style>`;
}

export interface PrerenderedPage {
  /** The page's address, e.g. '/blog/demystifying-x402'. */
  path: string;
  /** The page's own head elements (title, description, Open Graph). */
  head: string;
  /** The <style> elements of its CSS. */
  styles: string;
  /** The files of its route modules ('assets/landing-page-<hash>.js'), preloaded beside the app's entry. */
  preloads: readonly string[];
  /** The app's markup, what hydration takes over. */
  body: string;
}

const TEMPLATE_TITLE = /<title>[^<]*<\/title>\s*/;
const TEMPLATE_DESCRIPTION = /<meta name="description"[^>]*>\s*/;
const EMPTY_ROOT = '<div id="root"></div>';

/** The HTML file of one page: the template with the page's head, styles and markup in place. */
export function pageHtml(template: string, page: PrerenderedPage): string {
  if (!page.head.includes('<title>') || !page.head.includes('<meta name="description"')) {
    throw new Error(`${page.path} renders no <title> and <meta name="description">: every pre-rendered page needs both (PageHead)`);
  }
  for (const [what, pattern] of [['a <title>', TEMPLATE_TITLE], ['a description', TEMPLATE_DESCRIPTION], [EMPTY_ROOT, EMPTY_ROOT], ['</head>', '</head>']] as const) {
    if (typeof pattern === 'string' ? !template.includes(pattern) : !pattern.test(template)) throw new Error(`index.html has no ${what}`);
  }
  // The entry's own imports are preloaded already; crossorigin as Vite writes them, or the
  // browser would fetch each file a second time for the module script.
  const preloads = [...new Set(page.preloads)]
    .filter((file) => !template.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('');
  // The page's own title and description replace the app's defaults: a document has one of each.
  // Replacements are functions so that a '$' in the page's text is never read as a pattern.
  return template
    .replace(TEMPLATE_TITLE, '')
    .replace(TEMPLATE_DESCRIPTION, '')
    .replace('</head>', () => `${page.head}${preloads}${page.styles}</head>`)
    .replace(EMPTY_ROOT, () => `<div id="root" ${PRERENDERED_PATH_ATTRIBUTE}="${page.path}">${page.body}</div>`);
}

/** Where a page's file goes in the build: '/' -> 'index.html', '/blog' -> 'blog/index.html'. */
export function pageFile(path: string): string {
  return path === '/' ? 'index.html' : `${path.replace(/^\/+|\/+$/g, '')}/index.html`;
}
