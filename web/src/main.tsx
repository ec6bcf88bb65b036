// Browser entry point. A public page arrives pre-rendered by the build (entry-server.tsx) and is
// hydrated: React takes over the HTML already on screen. Every other page arrives as the empty
// shell and is rendered here.
import './shared/zod-jitless';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRouter, loadRouteModules } from './app/router';
import { HYDRATED_ATTRIBUTE, isPrerenderedFor } from './prerender/prerendered-path';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/**
 * Whether to hydrate the HTML in #root. It must be this address's page (a server may answer
 * any path with some other file) and its route's chunk must be in; when the chunk fails to
 * download, the page is rendered from scratch, where the router shows its error page.
 */
async function canHydrate(root: HTMLElement): Promise<boolean> {
  if (!isPrerenderedFor(root, window.location.pathname)) return false;
  try {
    await loadRouteModules(window.location.pathname);
    return true;
  } catch (error) {
    console.error('The page could not be loaded:', error);
    return false;
  }
}

/**
 * Marks `root` once React has taken the page over, hydrated or rendered (effects run after the
 * first commit): until then a pre-rendered page's buttons do nothing.
 */
function MarkHydrated({ root, children }: { root: HTMLElement; children: ReactNode }) {
  useEffect(() => root.setAttribute(HYDRATED_ATTRIBUTE, ''), [root]);
  return children;
}

/**
 * Hydrates a pre-rendered page, else renders the page from scratch. The router is made after
 * canHydrate: it takes the routes as they are, resolved or still lazy. A function rather than
 * a top-level await, with which the bundler splits the entry into many small chunks (measured:
 * ten more files and 3 kB more gzip for the landing page), keeping the pages' shared modules
 * out of an entry that would still be waiting for those pages.
 */
async function start(root: HTMLElement): Promise<void> {
  const hydrate = await canHydrate(root);
  const router = createAppRouter();
  if (hydrate) {
    hydrateRoot(
      root,
      <StrictMode>
        <MarkHydrated root={root}>
          <App router={router} />
        </MarkHydrated>
      </StrictMode>,
    );
  } else {
    createRoot(root).render(
      <StrictMode>
        <MarkHydrated root={root}>
          <App router={router} />
        </MarkHydrated>
      </StrictMode>,
    );
  }
}

void start(container);
