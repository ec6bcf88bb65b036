// The public pages arrive as HTML with their text (web/src/entry-server.tsx pre-renders them at
// build time) and the app hydrates them: React takes over the page on screen without a warning,
// keeps the HTML it was given, marks #root `data-hydrated`, and from then on the page is the
// app: a link navigates inside it, without reloading.
import { loadBlogPost } from '@purser/docs-content';
import { expect, test, type Page } from '@playwright/test';

const post = await loadBlogPost('demystifying-x402');
if (!post) throw new Error('docs-content has no demystifying-x402 post');

const PAGES = [
  { path: '/', heading: 'Payment integration and identity wallets for the agentic economy', title: /^Purser · /, link: 'Blog', to: '/blog' },
  { path: `/blog/${post.id}`, heading: post.title, title: `${post.title} · Purser`, link: 'Explore docs', to: '/docs' },
  { path: '/docs', heading: 'Documentation', title: 'Documentation · Purser', link: 'Back to home', to: '/' },
  { path: '/terms', heading: 'Terms of Service', title: 'Terms of Service · Purser', link: 'Back to home', to: '/' },
] as const;

/** Every console error or warning and every uncaught error of the page, from the first byte on. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/** Remembers the first element of #root as the HTML arrived, before any script ran. */
async function rememberServerHtml(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { serverRoot: Element | null }).serverRoot = document.getElementById('root')?.firstElementChild ?? null;
    });
  });
}

/** Whether #root still holds the element the HTML arrived with: hydrated, not rendered anew. */
function keptServerHtml(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const kept = (window as unknown as { serverRoot: Element | null }).serverRoot;
    return kept !== null && kept === document.getElementById('root')?.firstElementChild;
  });
}

test.describe('pre-rendered public pages', () => {
  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    for (const { path, heading, title } of PAGES) {
      test(`${path} shows its heading and title from the HTML alone`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
        await expect(page).toHaveTitle(title);
        await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\w{3,}/);
      });
    }
  });

  for (const width of [1280, 390]) {
    test.describe(`at ${width} px`, () => {
      test.use({ viewport: { width, height: 900 } });

      for (const { path, heading, title, link, to } of PAGES) {
        test(`${path} hydrates without a warning, then its links navigate inside the app`, async ({ page }) => {
          const problems = watchConsole(page);
          await rememberServerHtml(page);
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
          await expect(page).toHaveTitle(title);
          await expect(page.locator('#root[data-hydrated]')).toBeAttached();

          // A page that is only HTML would follow the link by reloading, which drops this mark.
          await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
          const nav = width < 900 && path === '/' ? await openLandingMenu(page) : page.getByRole('navigation').first();
          await nav.getByRole('link', { name: link, exact: true }).click();
          await expect(page).toHaveURL(new URL(to, page.url()).toString());
          await expect(page.getByRole('heading', { level: 1 }).first()).not.toHaveText(heading);
          expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);

          expect(problems).toEqual([]);
        });
      }

      test('a saved dark theme takes over after hydration without a warning', async ({ page }) => {
        const problems = watchConsole(page);
        await rememberServerHtml(page);
        await page.addInitScript(() => window.localStorage.setItem('purser-theme', 'dark'));
        await page.goto(`/blog/${post.id}`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
        // The page is drawn light, as built, then dark: the background is the dark theme's.
        await expect(page.locator('#root[data-hydrated]')).toBeAttached();
        await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(11, 16, 32)');
        expect(await keptServerHtml(page)).toBe(true);
        expect(problems).toEqual([]);
      });
    });
  }

  test('hydration keeps the HTML the server sent instead of drawing the page again', async ({ page }) => {
    const problems = watchConsole(page);
    await rememberServerHtml(page);
    for (const { path, heading } of PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.locator('#root[data-hydrated]')).toBeAttached();
      expect(await keptServerHtml(page), path).toBe(true);
    }
    expect(problems).toEqual([]);
  });
});

/** On a phone the landing page's links sit in the menu behind the burger button. */
async function openLandingMenu(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  return page.locator('#landing-mobile-menu');
}
