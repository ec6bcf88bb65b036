// /blog and /blog/{postId}: the 11 articles from docs-content as cards, one article with its
// body, sidebar and 'Continue exploring', and an unknown id sent back to the list.
import { expect, test } from '@playwright/test';
import { auditPage } from '../support/page-checks';
import { gotoHydrated } from '../support/hydration';

test.describe('blog', () => {
  test('lists the 11 articles as cards with the header links', async ({ page }, testInfo) => {
    await gotoHydrated(page, '/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Page links' });
    await expect(nav.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('link', { name: 'Explore docs' })).toHaveAttribute('href', '/docs');

    const cards = page.getByRole('article');
    await expect(cards).toHaveCount(11);
    await expect(page.getByRole('link', { name: 'Read article' })).toHaveCount(11);

    // Newest first: the KYA article (Oct 18, 2025) leads, the 101 (Sep 10, 2025) closes.
    const first = cards.first();
    await expect(first.getByRole('heading', { level: 2 })).toHaveText(/Agent Identity and Know-Your-Agent/);
    await expect(first.locator('time')).toHaveText('Oct 18, 2025');
    await expect(first.getByRole('list', { name: 'Topics' }).getByRole('listitem')).toHaveText(['identity', 'DID', 'SD-JWT VC', 'KYA', 'eIDAS']);
    await expect(first.getByRole('link', { name: /Source: W3C Decentralized Identifiers/ })).toHaveAttribute('href', 'https://www.w3.org/TR/did-core/');
    await expect(first.getByRole('link', { name: 'Read article' })).toHaveAttribute('href', '/blog/agent-identity-kya');
    await expect(cards.last().locator('time')).toHaveText('Sep 10, 2025');
    // A post without a source shows no source link.
    await expect(cards.last().getByRole('link', { name: /^Source:/ })).toHaveCount(0);

    await auditPage(page, testInfo, 'blog', async () => {
      await gotoHydrated(page, '/blog');
      await expect(page.getByRole('article')).toHaveCount(11);
    });

    await page.getByRole('navigation', { name: 'Page links' }).getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an article shows its body, the sidebar and Continue exploring', async ({ page }, testInfo) => {
    await gotoHydrated(page, '/blog');
    await page.getByRole('article').filter({ hasText: 'Demystifying x402' }).getByRole('link', { name: 'Read article' }).click();
    await expect(page).toHaveURL(/\/blog\/demystifying-x402$/);

    await expect(page.getByRole('heading', { level: 1, name: /^Demystifying x402/ })).toBeVisible();
    await expect(page.locator('main header time')).toHaveText('Sep 14, 2025');
    await expect(page.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['x402', 'Stablecoins', 'Base', 'Protocols']);

    const body = page.getByRole('article', { name: /^Demystifying x402/ });
    expect(await body.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(2);
    expect(await body.locator('p').count()).toBeGreaterThan(3);

    const details = page.getByRole('region', { name: 'About this article' });
    await expect(details.getByText('Published')).toBeVisible();
    await expect(details.getByText('Topics')).toBeVisible();
    await expect(details.getByText('Source')).toBeVisible();
    await expect(details.getByRole('link', { name: 'x402 on GitHub' })).toHaveAttribute('href', 'https://github.com/coinbase/x402');

    const more = page.getByRole('region', { name: 'Continue exploring' });
    await expect(more.getByRole('link', { name: 'Read the docs' })).toHaveAttribute('href', '/docs');
    await expect(more.getByRole('link', { name: 'Request sandbox access' })).toHaveAttribute('href', '/#start-building');

    await auditPage(page, testInfo, 'blog-post', async () => {
      await gotoHydrated(page, '/blog/demystifying-x402');
      await expect(page.getByRole('heading', { level: 1, name: /^Demystifying x402/ })).toBeVisible();
    });
  });

  test('bulleted and numbered lists of an article render as lists', async ({ page }) => {
    await gotoHydrated(page, '/blog/agentic-commerce-101');
    const body = page.getByRole('article', { name: /^Agentic Commerce 101/ });
    await expect(body.locator('ol > li').first()).toHaveText(/^Intent: a structured statement/);
    expect(await body.locator('ol > li').count()).toBeGreaterThanOrEqual(4);
    expect(await body.locator('ul > li').count()).toBeGreaterThanOrEqual(7);
  });

  test('an unknown article id goes back to the blog, replacing the history entry', async ({ page }) => {
    await gotoHydrated(page, '/');
    await gotoHydrated(page, '/blog/no-such-post');
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    // The bad URL was replaced, not pushed: Back leaves the blog for the page before.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });
});
