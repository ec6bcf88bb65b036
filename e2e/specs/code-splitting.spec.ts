// Each page is its own chunk, loaded when its route is first opened: the landing page loads
// none of the others' code, a chunk that cannot be downloaded ends on the router's error page,
// a slow chunk shows a light fallback, and the dashboard's chunk is fetched ahead from /auth.
// Chunks are named after their page module (Vite/rolldown's `[name]-[hash].js`).
import { expect, test, type Page } from '@playwright/test';

/** A held chunk, once released, still has to download, run and render: on a busy machine, seconds. */
const PAGE_LOAD = { timeout: 30_000 };

const OTHER_PAGES = ['auth-page', 'dashboard-page', 'agent-connect-page', 'agent-transactions-page', 'data-layout', 'docs-page', 'blog-list-page', 'blog-post-page', 'status-page'];

const chunkOf = (page: string) => new RegExp(`/assets/${page}-[\\w-]+\\.js$`);

/** Every script the page requests from now on. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test.describe('code splitting by route', () => {
  test('the landing page loads its own chunk and none of the other pages', async ({ page }) => {
    const scripts = recordScripts(page);
    await page.goto('/', { waitUntil: 'networkidle' });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(scripts.some((script) => chunkOf('landing-page').test(script)), scripts.join('\n')).toBe(true);
    for (const other of OTHER_PAGES) {
      expect(scripts.filter((script) => chunkOf(other).test(script)), `the landing page loaded ${other}`).toEqual([]);
    }

    // The names are right: opening the docs loads the docs chunk (and only then).
    await page.goto('/docs', { waitUntil: 'networkidle' });
    expect(scripts.some((script) => chunkOf('docs-page').test(script))).toBe(true);
  });

  test('a page whose chunk cannot be downloaded ends on the router error page', async ({ page }) => {
    await page.route(chunkOf('status-page'), (route) => route.abort('connectionfailed'));

    // Opened directly...
    await page.goto('/status');
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(/dynamically imported module|Failed to fetch|Importing a module script failed/i);
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');

    // ...or reached from another page without a reload.
    await page.goto('/no-such-page');
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await page.evaluate(() => {
      window.history.pushState({}, '', '/status');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  });

  test('while a slow first chunk downloads the page starts blank, then says Loading...; a slow navigation keeps the page and shows progress', async ({ page }) => {
    // What #root shows, in order, from the first render on.
    await page.addInitScript(() => {
      const log: string[] = [];
      (window as unknown as { rootLog: string[] }).rootLog = log;
      new MutationObserver(() => {
        const first = document.getElementById('root')?.firstElementChild;
        if (!first) return;
        const entry = first.getAttribute('aria-busy') === 'true' && first.textContent === '' ? 'blank' : (first.textContent ?? '').slice(0, 40);
        if (log.at(-1) !== entry) log.push(entry);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const hold = async (chunk: string) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(chunkOf(chunk), async (route) => {
        await held;
        await route.continue();
      });
      return release;
    };

    // A page that is not pre-rendered (the public pages arrive as HTML and never start blank).
    const releaseAuth = await hold('auth-page');
    await page.goto('/auth', { waitUntil: 'commit' });
    await expect(page.getByRole('status')).toHaveText('Loading...', PAGE_LOAD);
    releaseAuth();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible(PAGE_LOAD);
    const shown = await page.evaluate(() => (window as unknown as { rootLog: string[] }).rootLog);
    expect(shown[0], shown.join(' | ')).toBe('blank');
    expect(shown[1], shown.join(' | ')).toBe('Loading...');
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toHaveCount(0);

    // A navigation to a page whose chunk is slow: the current page stays, a progress bar shows.
    const releaseNotFound = await hold('not-found-page');
    await page.evaluate(() => {
      window.history.pushState({}, '', '/no-such-page');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('progressbar', { name: 'Loading page' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    releaseNotFound();
    await expect(page.getByText('Oops! Page not found')).toBeVisible(PAGE_LOAD);
    await expect(page.getByRole('progressbar', { name: 'Loading page' })).toHaveCount(0);
  });

  test('the auth page fetches the dashboard chunk ahead, so signing in does not wait for it', async ({ page }) => {
    const dashboardChunk = page.waitForRequest(chunkOf('dashboard-page'));
    await page.goto('/auth');
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    await dashboardChunk;
    expect(new URL(page.url()).pathname).toBe('/auth');
  });
});
