// /terms, /privacy and /dpa: the documents of docs-content/legal rendered as markdown, each
// with Back to home, the commitments of spec section 9 and working links between them.
import { expect, test } from '@playwright/test';
import { auditPage } from '../support/page-checks';
import { gotoHydrated } from '../support/hydration';

const PAGES = [
  { path: '/terms', title: 'Terms of Service', commitment: /3 months before the incident/, heading: 'Governing law and courts' },
  { path: '/privacy', title: 'Privacy Policy', commitment: /13 months/, heading: 'How long we keep data' },
  { path: '/dpa', title: 'Data Processing Addendum', commitment: /24 hours/, heading: 'Security incidents' },
] as const;

test.describe('legal pages', () => {
  for (const legal of PAGES) {
    test(`${legal.path} shows the ${legal.title} with Back to home`, async ({ page }, testInfo) => {
      await gotoHydrated(page, legal.path);
      await expect(page.getByRole('heading', { level: 1, name: legal.title })).toBeVisible();
      await expect(page.getByText(/^Last updated /)).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Page links' }).getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
      await expect(page.getByRole('heading', { level: 2, name: legal.heading })).toBeVisible();
      await expect(page.getByRole('main')).toContainText(legal.commitment);
      // Rendered markdown, not markdown text.
      expect(await page.getByRole('main').innerText()).not.toMatch(/^#{1,6} |\*\*\w|\]\(\//m);

      await auditPage(page, testInfo, legal.path.slice(1), async () => {
        await gotoHydrated(page, legal.path);
        await expect(page.getByRole('heading', { level: 1, name: legal.title })).toBeVisible();
      });

      // The document's own closing link goes home too.
      await page.getByRole('main').getByRole('link', { name: 'Back to home' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }

  test('the terms link to the privacy policy within the app, which opens at its top', async ({ page }) => {
    await gotoHydrated(page, '/terms');
    await page.getByRole('main').getByRole('link', { name: 'Privacy Policy' }).first().click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    // A new page starts at its top.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
