// Links inside the app to pages the server serves (/docs/api, /api/v1/openapi.json) are plain
// links: the browser loads them from the server instead of the app's router showing its 404.
import { expect, test } from '@playwright/test';
import { gotoHydrated } from '../support/hydration';

test('a docs page link to /docs/api opens the API reference, not the app’s 404 page', async ({ page }) => {
  await gotoHydrated(page, '/docs');
  await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();
  const link = page.locator('main a[href="/docs/api"]').first();
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page).toHaveTitle('Purser API reference');
  // The reference renders the OpenAPI document in the browser, which takes a moment.
  await expect(page.getByText('Purser owner API').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Page not found')).toHaveCount(0);

  // Back in the app, the OpenAPI document named on the page is the server's JSON too.
  const document = await page.request.get('/api/v1/openapi.json');
  expect(document.ok()).toBe(true);
  expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);
});
