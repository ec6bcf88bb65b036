// The build's pre-renderer (vite.config.ts) runs this file in Node, after the client build: it
// renders each public page from the app's own routes and providers to the HTML file the server
// answers for that page, so the page's text, title and description are there at the first byte.
// The browser then hydrates it (main.tsx): this render must equal the browser's first one, which
// is why the pages' data is bundled (no fetching) and client-only values (the saved theme,
// today's date) start from what the build knows. Pages behind sign-in are not pre-rendered.
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { isValidElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import { queryClient } from './app/data-layout';
import { AppProviders } from './app/providers';
import { routes } from './app/router';
import { blogPosts } from './features/blog/data/blog-posts';
import { emotionStyleTags, pageHtml, pageFile, splitHoistedHead } from './prerender/page-html';

/** The public pages (product spec, section 2). */
export const PRERENDERED_PATHS: readonly string[] = [
  '/',
  '/blog',
  ...blogPosts.map((post) => `/blog/${post.id}`),
  '/docs',
  '/status',
  '/responsible-ai',
  '/terms',
  '/privacy',
  '/dpa',
];

/**
 * The files to preload for a page: the chunks of its route modules, each named after its file
 * as the component is (LandingPage, landing-page.tsx, assets/landing-page-<hash>.js). The page
 * itself is always such a chunk; a layout may be in the entry (RootLayout) instead.
 */
function routeModuleFiles(path: string, context: StaticHandlerContext, chunks: ReadonlyMap<string, readonly string[]>): string[] {
  const names = context.matches.map(({ route }) =>
    isValidElement(route.element) && typeof route.element.type === 'function'
      ? route.element.type.name.replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase()
      : '',
  );
  const page = names.at(-1) ?? '';
  if (!chunks.has(page)) throw new Error(`${path}: the client build has no chunk named after its page component ('${page}')`);
  return names.flatMap((name) => chunks.get(name) ?? []);
}

/**
 * Renders one page of the app. Its route modules load first, as the browser's hydration waits
 * for them; `chunks` names the files of each route module's chunk, which the page preloads so
 * that the browser fetches them beside the app's entry and hydrates as soon as it can (a click
 * before hydration starts is lost).
 */
async function renderPage(path: string, template: string, chunks: ReadonlyMap<string, readonly string[]>): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answers ${context.status}: only pages can be pre-rendered`);
  if (context.errors) throw new Error(`${path} failed to render: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);

  // A cache per page, in compat mode: emotion keeps the page's CSS as text for the head
  // instead of writing <style> elements between the page's elements.
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  const markup = renderToString(
    <CacheProvider value={cache}>
      <AppProviders>
        {/* hydrate={false}: no inline script with the router state (the CSP forbids inline scripts, and no route has data to hand over). */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </CacheProvider>,
  );
  const { head, body } = splitHoistedHead(markup);
  return pageHtml(template, { path, head, styles: emotionStyleTags(cache), preloads: routeModuleFiles(path, context, chunks), body });
}

/**
 * Every public page as a file of the build: its path under the build folder and its HTML.
 * `chunks`: each lazy chunk of the client build by name, with the files it needs.
 */
export async function prerenderPages(template: string, chunks: ReadonlyMap<string, readonly string[]>): Promise<Array<{ file: string; html: string }>> {
  const pages = [];
  for (const path of PRERENDERED_PATHS) pages.push({ file: pageFile(path), html: await renderPage(path, template, chunks) });
  // The status page's health query now sits in the cache with a 5-minute garbage-collection
  // timer, which would keep the build's process alive that long: drop it.
  queryClient.clear();
  return pages;
}
