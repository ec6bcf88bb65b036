// /docs: the grouped navigation, smooth scrolling to a section 96 px below the top with the
// URL hash updated, 'On this page' on wide screens only, deep links, quick links and the nine
// sections rendered from docs-content as markdown (headings, tables, code, links).
import { expect, test, type Page } from '@playwright/test';
import { auditPage } from '../support/page-checks';
import { gotoHydrated } from '../support/hydration';

const OFFSET = 96;

/** The section's distance from the top of the window once scrolling has stopped. */
async function settledTop(page: Page, id: string): Promise<number> {
  let previous = Number.NaN;
  await expect
    .poll(async () => {
      const now = await page.evaluate(() => window.scrollY);
      const settled = now === previous;
      previous = now;
      return settled;
    }, { intervals: [150] })
    .toBe(true);
  return page.evaluate((target) => document.getElementById(target)!.getBoundingClientRect().top, id);
}

test.describe('docs', () => {
  test('shows the header links, Last updated today and the quick links', async ({ page }) => {
    await gotoHydrated(page, '/docs');
    await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();
    const links = page.getByRole('navigation', { name: 'Page links' });
    await expect(links.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await expect(links.getByRole('link', { name: 'Go to dashboard' })).toHaveAttribute('href', '/dashboard');

    const today = await page.evaluate(() => new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }));
    await expect(page.getByText(`Last updated ${today}`)).toBeVisible();

    const quick = page.getByRole('list', { name: 'Quick links' });
    await expect(quick.getByRole('link', { name: /Sign in/ })).toHaveAttribute('href', '/auth');
    await expect(quick.getByRole('link', { name: /Dashboard/ })).toHaveAttribute('href', '/dashboard');
    const x402 = quick.getByRole('link', { name: /x402 specification/ });
    await expect(x402).toHaveAttribute('href', /^https:\/\//);
    await expect(x402).toHaveAttribute('target', '_blank');
    await expect(quick.getByRole('link', { name: /MCP specification/ })).toHaveAttribute('href', /^https:\/\/modelcontextprotocol\.io\//);
  });

  test('groups the navigation and renders the nine sections in order', async ({ page }) => {
    await gotoHydrated(page, '/docs');
    const nav = page.getByRole('navigation', { name: 'Documentation sections' });
    await expect(nav.getByRole('list', { name: 'Getting started' }).getByRole('link')).toHaveText(['Introduction', 'Quick start']);
    await expect(nav.getByRole('list', { name: 'Product tour' }).getByRole('link')).toHaveText(['Dashboard', 'Governance']);
    await expect(nav.getByRole('list', { name: 'Automation' }).getByRole('link')).toHaveText(['MCP API', 'x402 payments', 'TypeScript SDK', 'n8n', 'Workflow recipes']);

    const ids = await page.locator('main section[id]').evaluateAll((sections) => sections.map((section) => section.id));
    expect(ids).toEqual(['introduction', 'getting-started', 'dashboard', 'mcp-api', 'x402', 'sdk', 'n8n', 'governance', 'workflows']);
    await expect(page.getByRole('heading', { level: 2, name: 'Workflow recipes' })).toBeAttached();
  });

  test('renders markdown: heading ids, tables, code blocks, internal links, no raw markup', async ({ page }) => {
    await gotoHydrated(page, '/docs');
    const governance = page.locator('section#governance');
    await expect(governance.locator('h3#kya-tiers')).toHaveText('KYA tiers');
    const tiers = governance.locator('table').filter({ hasText: 'eIDAS level' });
    await expect(tiers.locator('thead th')).toHaveText(['tier', 'eIDAS level', 'per transaction', 'per rolling 24 hours']);
    await expect(tiers.locator('tbody tr')).toHaveCount(4);

    const mcp = page.locator('section#mcp-api');
    await expect(mcp.locator('h4#get-balance')).toHaveText('GET /balance');
    await expect(mcp.locator('pre code.language-bash').first()).toContainText('curl');
    expect(await page.locator('main pre').count()).toBeGreaterThan(10);
    // Emphasis and inline code became elements; no markdown syntax is left in the text.
    await expect(page.locator('section#introduction strong').first()).toBeVisible();
    expect(await page.locator('main').innerText()).not.toMatch(/\*\*\w|```|\]\(\//);

    // A link inside the content to another part of the page is followed by the router.
    const link = page.locator('section#governance a[href="/docs#kya-tiers"]').first();
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await expect(page).toHaveURL(/\/docs#kya-tiers$/);
    expect(Math.abs((await settledTop(page, 'kya-tiers')) - OFFSET)).toBeLessThanOrEqual(2);
  });

  test('a navigation click scrolls smoothly to the section, 96 px below the top, and sets the hash', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await gotoHydrated(page, '/docs');
    await page.evaluate(() => {
      const positions: number[] = [];
      (window as unknown as { scrollPositions: number[] }).scrollPositions = positions;
      window.addEventListener('scroll', () => positions.push(window.scrollY));
    });

    const nav = page.getByRole('navigation', { name: 'Documentation sections' });
    await nav.getByRole('link', { name: 'Governance' }).click();
    await expect(page).toHaveURL(/\/docs#governance$/);
    expect(Math.abs((await settledTop(page, 'governance')) - OFFSET)).toBeLessThanOrEqual(2);
    await expect(nav.getByRole('link', { name: 'Governance' })).toHaveAttribute('aria-current', 'location');

    // Smooth: the window passed through intermediate positions instead of jumping once.
    const positions = await page.evaluate(() => (window as unknown as { scrollPositions: number[] }).scrollPositions);
    expect(new Set(positions).size).toBeGreaterThan(3);

    // 'On this page' follows the section the reader is in.
    const onThisPage = page.getByRole('navigation', { name: 'On this page' });
    await expect(onThisPage).toBeVisible();
    await expect(onThisPage.getByRole('link', { name: 'Spending rules' })).toBeVisible();
    await onThisPage.getByRole('link', { name: 'The audit log' }).click();
    await expect(page).toHaveURL(/\/docs#the-audit-log$/);
    expect(Math.abs((await settledTop(page, 'the-audit-log')) - OFFSET)).toBeLessThanOrEqual(2);
  });

  test('a deep link lands on its section below the sticky header', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await gotoHydrated(page, '/docs#x402');
    await expect(page.getByRole('heading', { level: 2, name: 'x402 payments' })).toBeInViewport();
    expect(Math.abs((await settledTop(page, 'x402')) - OFFSET)).toBeLessThanOrEqual(2);
    const header = await page.getByRole('banner').boundingBox();
    expect(header!.y + header!.height).toBeLessThan(OFFSET);
    await expect(page.getByRole('navigation', { name: 'Documentation sections' }).getByRole('link', { name: 'x402 payments' })).toHaveAttribute('aria-current', 'location');
  });

  test('on a phone, On this page is hidden and the navigation folds behind Contents', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, '/docs');
    await expect(page.getByRole('navigation', { name: 'On this page' })).toBeHidden();

    const nav = page.getByRole('navigation', { name: 'Documentation sections' });
    await expect(nav.getByRole('link', { name: 'MCP API' })).toBeHidden();
    const contents = nav.getByRole('button', { name: 'Contents' });
    await contents.click();
    await expect(contents).toHaveAttribute('aria-expanded', 'true');
    await nav.getByRole('link', { name: 'MCP API' }).click();
    await expect(page).toHaveURL(/\/docs#mcp-api$/);
    expect(Math.abs((await settledTop(page, 'mcp-api')) - OFFSET)).toBeLessThanOrEqual(2);
    await expect(contents).toHaveAttribute('aria-expanded', 'false');
  });

  test('can be used with the keyboard alone', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await gotoHydrated(page, '/docs');
    await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();
    // The skip link is the first stop and leads past the top bar.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();

    const workflows = page.getByRole('navigation', { name: 'Documentation sections' }).getByRole('link', { name: 'Workflow recipes' });
    await workflows.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/docs#workflows$/);
    // Focus moved to the section, so the next Tab continues from there.
    await expect(page.locator('section#workflows')).toBeFocused();
  });

  test('passes the accessibility and layout checks', async ({ page }, testInfo) => {
    // Seven long sections: axe in two themes and four full-page screenshots take a while.
    test.setTimeout(180_000);
    await gotoHydrated(page, '/docs');
    await auditPage(page, testInfo, 'docs', async () => {
      await gotoHydrated(page, '/docs');
      await expect(page.getByRole('heading', { level: 2, name: 'Introduction' })).toBeVisible();
    });
  });
});
