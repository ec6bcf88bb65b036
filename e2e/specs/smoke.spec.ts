// Smoke test of the web app: the public pages render, the landing navigation works,
// the theme choice persists, and the guard and not-found routes behave.
import { expect, test } from '@playwright/test';

test.describe('landing page', () => {
  test('shows the sticky navigation and the hero', async ({ page }) => {
    await page.goto('/');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Purser home' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog');
    await expect(nav.getByRole('link', { name: 'Flow' })).toHaveAttribute('href', '/#flow');
    await expect(nav.getByRole('link', { name: 'Start' })).toHaveAttribute('href', '/#start-building');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/auth');

    await expect(
      page.getByRole('heading', { level: 1, name: /payment integration and identity wallets/i }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get Sandbox Access' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'See the Flow' })).toBeVisible();
    await expect(page.locator('section#flow')).toBeAttached();
    await expect(page.locator('section#start-building')).toBeAttached();
  });

  test('scrolls to the section a hash link names', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'See the Flow' }).click();
    await expect(page).toHaveURL(/\/#flow$/);
    await expect(page.getByRole('heading', { name: 'How an Agent Pays' })).toBeInViewport();
  });

  test('starts light and remembers the dark theme across a reload', async ({ page }) => {
    await page.goto('/');
    const root = page.locator('html');
    const themeSwitch = page.getByRole('switch', { name: 'Dark mode' });
    await expect(root).toHaveAttribute('data-theme', 'light');

    await themeSwitch.check();
    await expect(root).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('purser-theme'))).toBe('dark');

    await page.reload();
    await expect(root).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked();
  });

  test('puts the links and the Dashboard button in a toggle menu on small screens', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Blog' })).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#landing-mobile-menu');
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();

    await menu.getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });
});

test.describe('public pages', () => {
  test('the blog lists articles with a way back home', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Explore docs' })).toHaveAttribute('href', '/docs');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unknown article goes back to the blog', async ({ page }) => {
    await page.goto('/blog/no-such-post');
    await expect(page).toHaveURL(/\/blog$/);
  });

  for (const [path, title] of [
    ['/terms', 'Terms of Service'],
    ['/privacy', 'Privacy Policy'],
    ['/dpa', 'Data Processing Agreement'],
  ] as const) {
    test(`${path} shows ${title} with a Back to home link`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    });
  }

  for (const [path, title] of [
    ['/docs', 'Documentation'],
    ['/status', 'System status'],
    ['/responsible-ai', 'Responsible AI'],
  ] as const) {
    test(`${path} shows ${title}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    });
  }
});

test.describe('routing', () => {
  test('the dashboard sends visitors without a session to sign in', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Wallets for You and Your AI Agents' })).toBeVisible();
  });

  test('a new page starts at the top when the URL has no hash', async ({ page }) => {
    // A short window, so the blog page is scrollable and a kept offset would show.
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.goto('/');
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('an unknown path shows the not-found page and logs the path', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    await page.goto('/no/such/page');
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await expect.poll(() => errors.some((text) => text.includes('/no/such/page'))).toBe(true);

    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
