// Any path no route matches: the 404 page logs the bad path and leads home.
import { expect, test } from '@playwright/test';
import { auditPage } from '../support/page-checks';

test.describe('not-found page', () => {
  test('an unknown path shows 404, logs the path and leads home', async ({ page }, testInfo) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    await page.goto('/no/such/page');
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible();
    await expect.poll(() => errors.some((text) => text.includes('/no/such/page'))).toBe(true);

    await auditPage(page, testInfo, 'not-found', async () => {
      await page.goto('/no/such/page');
      await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible();
    });

    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
