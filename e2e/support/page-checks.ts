// Checks every page gets: axe-core finds no serious or critical violation in the light and
// dark themes, nothing overflows sideways, and full-page screenshots at desktop and phone
// widths are written as test artifacts (e2e/test-results/<test>/<name>-<theme>-<width>.png).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

export const THEMES = ['light', 'dark'] as const;
export const WIDTHS = [1280, 390] as const;
type Theme = (typeof THEMES)[number];

const THEME_STORAGE_KEY = 'purser-theme';

/** Saves the theme choice the app reads on load, then opens the page again in it. */
export async function openInTheme(page: Page, theme: Theme, open: () => Promise<unknown>): Promise<void> {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [THEME_STORAGE_KEY, theme] as const);
  await open();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** axe-core on the page as it is now; `what` names it in the failure message. */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.target)]))}`).toEqual([]);
}

/**
 * For each theme: open the page (`open` navigates and waits until it is ready), run axe, then
 * at each width check there is no horizontal overflow and write a full-page screenshot.
 */
export async function auditPage(page: Page, testInfo: TestInfo, name: string, open: () => Promise<unknown>): Promise<void> {
  for (const theme of THEMES) {
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await openInTheme(page, theme, open);
    await expectNoSeriousViolations(page, `${name} (${theme})`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} (${theme}) overflows sideways at ${width}px`).toBeLessThanOrEqual(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: testInfo.outputPath(`${name}-${theme}-${width}.png`), fullPage: true, animations: 'disabled' });
    }
  }
}
