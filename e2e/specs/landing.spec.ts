// The landing page ('/'): the sticky navigation and its mobile menu, the theme switch, the
// hero's same-page links, the protocol navigator (hover, keyboard, click and tap), the walls,
// pillars, use cases, Start building, FAQ and footer, the spec's section order, and the
// accessibility and layout audit in both themes.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { BOOKING_URL } from '@purser/docs-content';
import { FAQ, PROTOCOLS, type Protocol } from '@purser/web';
import { auditPage } from '../support/page-checks';
import { gotoHydrated, reloadHydrated } from '../support/hydration';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const section = (page: Page, id: string) => page.locator(`section#${id}`);
const chips = (page: Page) => page.getByRole('group', { name: 'Protocols' }).getByRole('button');
const chip = (page: Page, name: string) => page.getByRole('group', { name: 'Protocols' }).getByRole('button', { name, exact: true });
const detail = (page: Page) => page.locator('#protocol-detail');

function protocol(name: string): Protocol {
  const found = PROTOCOLS.find((entry) => entry.name === name);
  if (!found) throw new Error(`no protocol ${name}`);
  return found;
}

/** The detail panel shows `name`: its title, what it is, how Purser supports it and its status. */
async function expectDetailOf(page: Page, name: string, status: 'Supported' | 'Partial' | 'Planned') {
  const { summary, support } = protocol(name);
  await expect(detail(page).getByRole('heading', { level: 3 })).toHaveText(name);
  await expect(detail(page).getByTestId('protocol-summary')).toHaveText(summary);
  await expect(detail(page).getByTestId('protocol-support')).toHaveText(support);
  await expect(detail(page).getByTestId('protocol-status')).toHaveText(status);
  await expect(chip(page, name)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('group', { name: 'Protocols' }).locator('[aria-pressed="true"]')).toHaveCount(1);
}

async function expectTopInViewport(locator: Locator) {
  await expect(locator).toBeInViewport();
}

test.describe('landing page', () => {
  test('has a sticky navigation with the logo, the links and the Dashboard button', async ({ page }) => {
    await gotoHydrated(page, '/');
    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Purser home' })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog');
    await expect(nav.getByRole('link', { name: 'Flow' })).toHaveAttribute('href', '/#flow');
    await expect(nav.getByRole('link', { name: 'Start' })).toHaveAttribute('href', '/#start-building');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/auth');
    await expect(nav.getByRole('switch', { name: 'Dark mode' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();

    // Still at the top of the window with the footer in view.
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await expect(nav).toBeInViewport();
    expect((await nav.boundingBox())?.y).toBe(0);

    await nav.getByRole('link', { name: 'Start' }).click();
    await expect(page).toHaveURL(/\/#start-building$/);
    await expectTopInViewport(page.getByRole('heading', { level: 2, name: 'Start building today' }));
    await expect(section(page, 'start-building')).toBeFocused();

    await nav.getByRole('link', { name: 'Flow' }).click();
    await expect(page).toHaveURL(/\/#flow$/);
    await expectTopInViewport(page.getByRole('heading', { name: 'How an Agent Pays' }));

    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('starts light and remembers the dark theme across a reload', async ({ page }) => {
    await gotoHydrated(page, '/');
    const root = page.locator('html');
    await expect(root).toHaveAttribute('data-theme', 'light');

    await page.getByRole('switch', { name: 'Dark mode' }).check();
    await expect(root).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('purser-theme'))).toBe('dark');

    await reloadHydrated(page);
    await expect(root).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked();

    await page.getByRole('switch', { name: 'Dark mode' }).uncheck();
    await reloadHydrated(page);
    await expect(root).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => localStorage.getItem('purser-theme'))).toBe('light');
  });

  test('puts the links and the Dashboard button in a toggle menu at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, '/');
    const nav = mainNav(page);
    const menu = page.locator('#landing-mobile-menu');
    await expect(nav.getByRole('link', { name: 'Blog' })).toBeHidden();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeHidden();
    await expect(nav.getByRole('switch', { name: 'Dark mode' })).toBeVisible();

    // Open: the menu holds the same links and button, inside the main navigation.
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveAttribute('aria-controls', 'landing-mobile-menu');
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.locator('#landing-mobile-menu')).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog');
    await expect(menu.getByRole('link', { name: 'Flow' })).toHaveAttribute('href', '/#flow');
    await expect(menu.getByRole('link', { name: 'Start' })).toHaveAttribute('href', '/#start-building');
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/auth');

    // Escape closes it from inside the menu, and focus goes back to the burger button.
    await menu.getByRole('link', { name: 'Flow' }).focus();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

    // The keyboard opens it again; the close button closes it.
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();

    // A same-page link closes the menu, scrolls to its section and moves focus there.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Start' }).click();
    await expect(page).toHaveURL(/\/#start-building$/);
    await expect(menu).toBeHidden();
    await expectTopInViewport(page.getByRole('heading', { level: 2, name: 'Start building today' }));
    await expect(section(page, 'start-building')).toBeFocused();

    // Another page's link navigates there.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test('shows the hero, whose buttons scroll to the flow and to Start building', async ({ page }) => {
    await gotoHydrated(page, '/');
    await expect(page.getByRole('heading', { level: 1, name: /payment integration and identity wallets for the agentic economy/i })).toBeVisible();
    const highlights = page.getByRole('list', { name: 'Highlights' });
    for (const badge of ['Designed for developers', 'Safe for enterprises', 'Loved by agents']) {
      await expect(highlights.getByText(badge, { exact: true })).toBeVisible();
    }
    await expect(page.getByRole('figure', { name: 'A sample payment intent after the policy and KYA gate' })).toContainText('50.00');

    await expect(page.getByRole('link', { name: 'Get Sandbox Access' })).toHaveAttribute('href', '/#start-building');
    await expect(page.getByRole('link', { name: 'See the Flow' })).toHaveAttribute('href', '/#flow');

    await page.getByRole('link', { name: 'See the Flow' }).click();
    await expect(page).toHaveURL(/\/#flow$/);
    await expectTopInViewport(page.getByRole('heading', { name: 'How an Agent Pays' }));
    await expect(section(page, 'flow')).toBeFocused();

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Get Sandbox Access' }).click();
    await expect(page).toHaveURL(/\/#start-building$/);
    await expectTopInViewport(page.getByRole('heading', { level: 2, name: 'Start building today' }));
    await expect(section(page, 'start-building')).toBeFocused();
    // The next Tab continues inside the section.
    await page.keyboard.press('Tab');
    await expect(section(page, 'start-building').locator(':focus')).toHaveCount(1);
  });

  test('lays the sections out in the spec’s order', async ({ page }) => {
    await gotoHydrated(page, '/');
    const order = ['hero', 'protocols', 'walls', 'pillars', 'flow', 'integration', 'security', 'use-cases', 'start-building', 'faq'];
    await expect(page.getByRole('contentinfo')).toBeVisible();
    const ids = await page.locator('main > section').evaluateAll((sections) => sections.map((element) => element.id));
    expect(ids).toEqual(order);
    const tops: number[] = [];
    for (const id of order) tops.push((await section(page, id).boundingBox())?.y ?? Number.NaN);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    const footerTop = (await page.getByRole('contentinfo').boundingBox())?.y ?? 0;
    expect(footerTop).toBeGreaterThan(tops.at(-1) ?? Number.POSITIVE_INFINITY);
  });

  test('has a protocol navigator whose chips show their detail on hover, keyboard focus and click', async ({ page }) => {
    await gotoHydrated(page, '/');
    await expect(page.getByRole('heading', { level: 2, name: 'Protocol navigator' })).toBeVisible();
    await expect(chips(page)).toHaveText(['X402', 'AP2', 'A2A', 'ACP', 'MCP', 'DID', 'Solana', 'Base', 'EVM', 'USDC', 'eIDAS', 'SD-JWT VC']);
    for (const button of await chips(page).all()) await expect(button).toHaveAttribute('aria-controls', 'protocol-detail');
    await expect(detail(page)).toHaveAttribute('aria-live', 'polite');
    await expect(page.getByRole('region', { name: 'X402' })).toBeVisible();
    await expectDetailOf(page, 'X402', 'Supported');
    await expect(detail(page).getByTestId('protocol-support')).toContainText('v1 and v2 headers');

    // Hover: a protocol Purser does not support yet says so plainly.
    await chip(page, 'AP2').hover();
    await expectDetailOf(page, 'AP2', 'Planned');
    await expect(detail(page).getByTestId('protocol-support')).toHaveText(/^Not supported yet/);

    // Keyboard focus: Tab reaches the chips, arrow keys and End move between them.
    await chip(page, 'MCP').focus();
    await expectDetailOf(page, 'MCP', 'Supported');
    await page.keyboard.press('ArrowRight');
    await expect(chip(page, 'DID')).toBeFocused();
    await expectDetailOf(page, 'DID', 'Supported');
    await expect(detail(page).getByTestId('protocol-support')).toContainText('did:agnic');
    await page.keyboard.press('End');
    await expectDetailOf(page, 'SD-JWT VC', 'Supported');
    await page.keyboard.press('Shift+Tab');
    await expect(chip(page, 'eIDAS')).toBeFocused();
    await expectDetailOf(page, 'eIDAS', 'Partial');

    // Click: the detail stays on the chosen chip, with a link to read more.
    await chip(page, 'Solana').click();
    await expectDetailOf(page, 'Solana', 'Partial');
    await expect(detail(page).getByTestId('protocol-support')).toContainText('not connected to Solana devnet or mainnet');
    await chip(page, 'ACP').click();
    await expectDetailOf(page, 'ACP', 'Planned');
    await detail(page).getByRole('link', { name: 'Read: Behind ACP' }).click();
    await expect(page).toHaveURL(/\/blog\/behind-acp$/);
  });

  test.describe('on a touch screen', () => {
    test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

    test('a tap on a protocol chip shows its detail', async ({ page }) => {
      await gotoHydrated(page, '/');
      await chip(page, 'USDC').tap();
      await expectDetailOf(page, 'USDC', 'Supported');
      await chip(page, 'Base').tap();
      await expectDetailOf(page, 'Base', 'Supported');
      await expect(detail(page).getByTestId('protocol-support')).toContainText('Base Sepolia');
    });
  });

  test('shows the walls, the five pillars and the use cases', async ({ page }) => {
    await gotoHydrated(page, '/');
    const walls = section(page, 'walls');
    await expect(walls.getByRole('heading', { level: 2 })).toHaveText('Go through the walls');
    await expect(walls.getByRole('heading', { level: 3 })).toHaveText([
      'Robot blockers',
      'Payment rails not built for agents',
      'Identity too heavy or too weak',
      'Brittle integrations',
    ]);
    await expect(walls.getByText('How Purser goes through', { exact: true })).toHaveCount(4);
    await expect(walls.getByRole('article', { name: 'Robot blockers' })).toContainText('x402');

    const pillars = section(page, 'pillars');
    await expect(pillars.getByRole('listitem')).toHaveCount(5);
    await expect(pillars.getByRole('heading', { level: 3 })).toHaveCount(5);
    await expect(pillars.getByRole('heading', { level: 3, name: 'Spending rules that hold' })).toBeVisible();

    const useCases = section(page, 'use-cases');
    await expect(useCases.getByRole('heading', { level: 3, name: 'APIs and data, paid per call' })).toBeVisible();
    await expect(useCases.getByRole('heading', { level: 3, name: 'n8n and Make automations' })).toBeVisible();
    await expect(useCases.getByRole('heading', { level: 3, name: 'Team budgets for agent fleets' })).toBeVisible();
    await expect(useCases.getByRole('list', { name: 'An x402 payment, step by step' })).toContainText('402 Payment Required');
  });

  test('Start building opens the scheduling page in a new tab', async ({ page, context }) => {
    // The booking page is external: answer it locally so the test stays offline.
    await context.route(`${new URL(BOOKING_URL).origin}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>Book an intro call</title>' }));
    await gotoHydrated(page, '/#start-building');
    const startBuilding = section(page, 'start-building');
    await expect(startBuilding.getByRole('heading', { level: 2 })).toHaveText('Start building today');
    await expect(startBuilding).toContainText('invite-only');

    const request = startBuilding.getByRole('link', { name: /^Request Sandbox/ });
    await expect(request).toHaveAttribute('href', BOOKING_URL);
    await expect(request).toHaveAttribute('target', '_blank');
    await expect(request).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(request).toHaveAccessibleName('Request Sandbox (opens in a new tab)');

    const popupOpened = page.waitForEvent('popup');
    await request.click();
    const popup = await popupOpened;
    await expect(popup).toHaveURL(BOOKING_URL);
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await expect(page).toHaveURL(/\/#start-building$/);
  });

  test('answers four questions in an accordion that works with the keyboard', async ({ page }) => {
    await gotoHydrated(page, '/');
    const faq = section(page, 'faq');
    const questions = faq.getByRole('button');
    await expect(questions).toHaveText(FAQ.map((entry) => entry.question));
    for (const question of await questions.all()) await expect(question).toHaveAttribute('aria-expanded', 'false');

    // Click.
    const [first, second] = FAQ;
    if (!first || !second) throw new Error('the FAQ needs at least two entries');
    await faq.getByRole('button', { name: first.question }).click();
    await expect(faq.getByRole('button', { name: first.question })).toHaveAttribute('aria-expanded', 'true');
    const firstAnswer = faq.getByRole('region', { name: first.question });
    await expect(firstAnswer).toBeVisible();
    await expect(firstAnswer).toContainText(first.answer[0] ?? '');

    // Keyboard: Enter opens, Space closes.
    const secondQuestion = faq.getByRole('button', { name: second.question });
    await secondQuestion.focus();
    await page.keyboard.press('Enter');
    await expect(secondQuestion).toHaveAttribute('aria-expanded', 'true');
    await expect(faq.getByRole('region', { name: second.question })).toContainText('USDC and USDT');
    await expect(faq.getByRole('region', { name: second.question })).toContainText('Base Sepolia');
    await page.keyboard.press('Space');
    await expect(secondQuestion).toHaveAttribute('aria-expanded', 'false');
    await expect(faq.getByRole('region', { name: second.question })).toBeHidden();

    await faq.getByRole('button', { name: 'How do spending rules stop an agent?' }).click();
    await expect(faq.getByRole('region', { name: 'How do spending rules stop an agent?' })).toContainText('DAILY_LIMIT_EXCEEDED');
    await faq.getByRole('button', { name: 'How are keys and secrets kept?' }).click();
    await expect(faq.getByRole('region', { name: 'How are keys and secrets kept?' })).toContainText('shown once');
  });

  test('ends with a footer holding the address, the legal links and the resources', async ({ page }) => {
    await gotoHydrated(page, '/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.locator('address')).toContainText('Toronto');
    await expect(footer.getByText('© 2025 Purser')).toBeVisible();
    const legal = footer.getByRole('navigation', { name: 'Legal' });
    await expect(legal.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    await expect(legal.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    await expect(legal.getByRole('link', { name: 'Data Processing Addendum' })).toHaveAttribute('href', '/dpa');
    const resources = footer.getByRole('navigation', { name: 'Resources' });
    await expect(resources.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', '/docs');
    await expect(resources.getByRole('link', { name: 'Status' })).toHaveAttribute('href', '/status');
    await expect(resources.getByRole('link', { name: 'Responsible AI' })).toHaveAttribute('href', '/responsible-ai');

    await legal.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
  });

  test('passes the accessibility and layout audit in both themes', async ({ page }, testInfo) => {
    await gotoHydrated(page, '/');
    await auditPage(page, testInfo, 'landing', async () => {
      await gotoHydrated(page, '/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
  });
});
