// The router's error page, shown when a page cannot be shown: here, when the code of a lazily
// loaded page fails to download (its chunk request is aborted with page.route). The reader
// sees a clear message and two ways out, never a stack trace, and Reload recovers.
import { expect, test, type Page } from '@playwright/test';
import { auditPage } from '../support/page-checks';
import { gotoHydrated } from '../support/hydration';

/** Makes the /docs page's code fail to download until the route is removed. */
async function breakDocsChunk(page: Page) {
  await page.route(/\/assets\/docs-page-[\w-]+\.js$/, (route) => route.abort('connectionfailed'));
}

async function expectErrorPage(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByText('This page could not be downloaded. Check your connection, then reload the page.')).toBeVisible();
  // The error's message, as the spec asks, but no stack trace.
  await expect(page.getByTestId('route-error-detail')).toContainText('dynamically imported module');
  const text = await page.getByRole('alert').innerText();
  expect(text).not.toMatch(/\n\s*at |\.js:\d+:\d+/);
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
}

test.describe('route error page', () => {
  test('a page whose code fails to load on navigation shows the error page, and Reload recovers', async ({ page }) => {
    await gotoHydrated(page, '/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    await breakDocsChunk(page);

    await page.getByRole('navigation', { name: 'Page links' }).getByRole('link', { name: 'Explore docs' }).click();
    await expectErrorPage(page);
    await expect(page).toHaveURL(/\/docs$/);

    await page.unrouteAll({ behavior: 'wait' });
    await page.getByRole('button', { name: 'Reload page' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();
  });

  test('a first visit to such a page shows it too, and it passes the accessibility checks', async ({ page }, testInfo) => {
    await gotoHydrated(page, '/');
    await breakDocsChunk(page);
    await gotoHydrated(page, '/docs');
    await expectErrorPage(page);

    await auditPage(page, testInfo, 'route-error', async () => {
      await gotoHydrated(page, '/docs');
      await expect(page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' })).toBeVisible();
    });

    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
