// The owner console's top bar on every page under /dashboard: the sections with the current one
// marked, the approvals badge counting live, the menu that replaces the sections on phones (used
// with the keyboard), and the kill switch: one confirmation naming what it does, a banner while
// agents are paused, and Resume.
import { randomUUID } from 'node:crypto';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { agentPay, createFundedAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { THEMES, expectNoSeriousViolations, openInTheme } from '../support/page-checks';
import { openSettled } from '../support/session';

// Console pages read several queries and a live stream; on a loaded machine (or a dev server)
// a filter's round trip can take longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });
const consoleNav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

test.describe('console top bar', () => {
  test('marks the current section, counts approvals live on every page, and folds into a keyboard menu on phones', async ({ page }) => {
    test.setTimeout(120_000);
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: 'Top bar agent', fund: 20, approvalThreshold: 5 });

    await openSettled(page, '/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('link', { name: 'Purser home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Docs' })).toHaveAttribute('href', '/docs');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    const labels = ['Overview', 'Payments', 'Approvals', 'Policies', 'Webhooks', 'API keys', 'Audit'];
    await expect(consoleNav(page).getByRole('list').getByRole('link')).toHaveText(labels.map((label) => new RegExp(`^${label}`)));
    await expect(consoleNav(page).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await expect(consoleNav(page).locator('[aria-current]')).toHaveCount(1);

    await consoleNav(page).getByRole('link', { name: 'Payments' }).click();
    await expect(page).toHaveURL(/\/dashboard\/payments$/);
    await expect(consoleNav(page).getByRole('link', { name: 'Payments' })).toHaveAttribute('aria-current', 'page');
    await expect(consoleNav(page).getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', /.*/);

    // A payment waiting for approval: the badge counts it without a reload, and the overview says so.
    const badge = page.getByTestId('approvals-badge');
    await expect(badge).toHaveText('0');
    const response = await agentPay(page.request, agent, { amount: 8, description: 'Top bar approval', idempotencyKey: randomUUID() });
    expect(response.status(), await response.text()).toBe(202);
    await expect(badge).toHaveText('1');
    await expect(badge).toBeVisible();
    await expect(consoleNav(page).getByRole('link', { name: 'Approvals, 1 waiting' })).toBeVisible();
    await consoleNav(page).getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByRole('alert').filter({ hasText: '1 payment waits for your approval.' })).toBeVisible();
    await page.getByRole('link', { name: 'Review approvals' }).click();
    await expect(page).toHaveURL(/\/dashboard\/approvals$/);
    await expect(page.getByTestId('approval-row')).toHaveCount(1);

    // An agent's page belongs to Overview, where the agents are listed.
    await page.goto(`/dashboard/agents/${agent.id}/connect`);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent MCP Setup' })).toBeVisible({ timeout: 30_000 });
    await expect(consoleNav(page).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'true');

    // On a phone the sections move into a menu, opened, walked and closed with the keyboard.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(consoleNav(page)).toHaveCount(0);
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await expect(consoleNav(page).getByRole('list').getByRole('link')).toHaveCount(7);
    await expect(consoleNav(page).getByRole('button', { name: 'Pause all agents' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(consoleNav(page).getByRole('link', { name: 'Overview' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(consoleNav(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    await page.keyboard.press('Enter');
    await consoleNav(page).getByRole('link', { name: 'Payments' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/payments$/);
    await expect(consoleNav(page)).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'the top bar overflows sideways at 390 px').toBeLessThanOrEqual(0);
  });

  test('pause all agents asks once, naming how many agents and the cancelled authorisations, shows a banner while paused, and Resume restores them', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const owner = await signUpOwner(page.request);
    await createFundedAgent(page.request, owner, { name: 'Paused agent one', fund: 0 });
    await createFundedAgent(page.request, owner, { name: 'Paused agent two', fund: 0 });

    await openSettled(page, '/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('article', { name: 'Paused agent two' })).toContainText('active');
    await page.getByRole('button', { name: 'Pause all agents' }).click();
    const confirm = page.getByRole('dialog', { name: 'Pause all agents?' });
    await expect(confirm).toContainText('2 active agents will be suspended.');
    await expect(confirm).toContainText('outstanding x402 authorisations are cancelled');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('kill-switch-banner')).toHaveCount(0);

    await page.getByRole('button', { name: 'Pause all agents' }).click();
    await confirm.getByRole('button', { name: 'Pause 2 active agents' }).click();
    await expect(toast(page, 'Paused 2 agents')).toBeVisible();
    const banner = page.getByTestId('kill-switch-banner');
    await expect(banner).toContainText('All agents paused. 2 agents are suspended since');
    await expect(page.getByTestId('kill-switch-paused')).toHaveText('Agents paused');
    await expect(page.getByRole('button', { name: 'Pause all agents' })).toHaveCount(0);
    await expect(page.getByRole('article', { name: 'Paused agent one' })).toContainText('suspended');

    // The paused bar in both themes and at both widths, banner and all.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    for (const theme of THEMES) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await openInTheme(page, theme, () => page.reload());
      await expect(banner).toBeVisible({ timeout: 30_000 });
      await expectNoSeriousViolations(page, `paused top bar (${theme})`);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
        await expect(banner.getByRole('button', { name: 'Resume' })).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`paused-${theme}-${width}.png`), animations: 'disabled' });
      }
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(toast(page, 'Resumed 2 agents')).toBeVisible();
    await expect(banner).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Pause all agents' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Paused agent one' })).toContainText('active');
  });
});
