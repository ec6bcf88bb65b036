// The owner API reference at /docs/api renders the OpenAPI document in the browser, offline.
import { expect, test } from '@playwright/test';
import { gotoHydrated } from '../support/hydration';

test('the API reference lists the owner API operations', async ({ page }) => {
  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(request.url()));
  await gotoHydrated(page, '/docs/api');
  await expect(page.getByText('Purser owner API').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('link', { name: /Add funds to the wallet from the sandbox funding source/ })).toBeVisible();
  // Everything it needs comes from this server.
  expect(failed.filter((url) => !url.startsWith(new URL(page.url()).origin))).toEqual([]);
});
