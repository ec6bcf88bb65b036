// Checks every page gets: axe-core finds no serious or critical violation in the light and
// dark themes, nothing overflows sideways, nothing is left under the assistant's button at the
// end of the page, and full-page screenshots at desktop and phone widths are written as test
// artifacts (e2e/test-results/<test>/<name>-<theme>-<width>.png).
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

/**
 * Waits until every transition and finite animation on the page has ended. A dialog fading in
 * is half transparent, and axe would measure the contrast of its text against what shows
 * through; a spinner's endless animation is not waited for. One that starts while others end (a
 * button's colour easing in once the data it waited for arrived) is waited for too: the page is
 * looked at again until two frames pass with none running.
 */
export async function waitForAnimationsToEnd(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let round = 0; round < 20; round++) {
      // A transition starts on the frame after the element is shown.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const finite = document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity);
      if (finite.length === 0) return;
      await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/** axe-core on the page once its animations have ended; `what` names it in the failure message. */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  await waitForAnimationsToEnd(page);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.target)]))}`).toEqual([]);
}

const assistantButton = (page: Page) => page.getByRole('button', { name: 'Open AI Assistant' });

/**
 * Scrolled to its end, the page shows nothing under the assistant's round button, which is
 * fixed at the bottom right: no text, control or image of the page is covered by it.
 */
export async function expectNothingUnderAssistantButton(page: Page, what: string): Promise<void> {
  const button = assistantButton(page);
  await expect(button).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const covered = await button.evaluate((fab) => {
    const area = fab.getBoundingClientRect();
    // The part of a box that shows: a scrolling block (a long code block) clips what it holds.
    const shown = (rect: DOMRect, from: Element | null) => {
      let { left, top, right, bottom } = rect;
      for (let parent = from; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        left = Math.max(left, clip.left);
        top = Math.max(top, clip.top);
        right = Math.min(right, clip.right);
        bottom = Math.min(bottom, clip.bottom);
      }
      return { left, top, right, bottom };
    };
    const overlaps = (rect: DOMRect, from: Element | null) => {
      const part = shown(rect, from);
      return part.left < part.right && part.top < part.bottom && part.left < area.right && part.right > area.left && part.top < area.bottom && part.bottom > area.top;
    };
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      if (!text || fab.contains(node)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      if (Array.from(range.getClientRects()).some((rect) => overlaps(rect, node.parentElement))) found.push(`text "${text.slice(0, 40)}"`);
    }
    for (const element of Array.from(document.body.querySelectorAll('a, button, input, select, textarea, img, svg, [role="button"]'))) {
      if (fab.contains(element) || element.contains(fab) || element.closest('[data-sonner-toaster]')) continue;
      if (overlaps(element.getBoundingClientRect(), element.parentElement)) found.push(`<${element.tagName.toLowerCase()}> ${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? ''}`);
    }
    return found;
  });
  expect(covered, `${what}: under the assistant button at the end of the page`).toEqual([]);
}

/**
 * For each theme: open the page (`open` navigates and waits until it is ready), run axe, then
 * at each width check there is no horizontal overflow and nothing under the assistant button at
 * the end of the page, and write a full-page screenshot.
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
      // Pages audited with the assistant's panel open have no button to check.
      if (await assistantButton(page).count()) {
        await expectNothingUnderAssistantButton(page, `${name} (${theme}) at ${width}px`);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: testInfo.outputPath(`${name}-${theme}-${width}.png`), fullPage: true, animations: 'disabled' });
    }
  }
}
