// Routing rules of spec section 2 that belong to no single page: the dashboard guard, and
// a navigation without a hash starting at the top of the new page.
import { expect, test } from '@playwright/test';
import { gotoHydrated } from '../support/hydration';

test.describe('routing', () => {
  test('the dashboard sends visitors without a session to sign in', async ({ page }) => {
    await gotoHydrated(page, '/dashboard');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Wallets for You and Your AI Agents' })).toBeVisible();
  });

  test('a new page starts at the top when the URL has no hash', async ({ page }) => {
    // A short window, so the blog page is scrollable and a kept offset would show.
    await page.setViewportSize({ width: 1280, height: 500 });
    await gotoHydrated(page, '/');
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
