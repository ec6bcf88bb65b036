// The landing page's 'How an Agent Pays', 'Quick integration' and 'Security and compliance'
// sections: the five steps, the diagram (loaded only near #flow, its modules on hover and on
// keyboard focus, readable on a phone, under the Content-Security-Policy), the three snippets
// and their copy button, the whitepaper's static files, axe in both themes, and screenshots.
import { expect, test, type Page } from '@playwright/test';
import { watchCspViolations } from '../support/csp-violations';
import { expectNoSeriousViolations, openInTheme, THEMES, WIDTHS } from '../support/page-checks';
import { gotoHydrated } from '../support/hydration';

/** A string of React Flow's own code, in no other file of the web app. */
const XYFLOW_MARKER = 'react-flow__pane';
const PRELOAD_MARGIN_PX = 300;

const details = (page: Page) => page.getByTestId('flow-details');
const part = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

/** Scrolls to the diagram and waits until React Flow has drawn its parts. */
async function showDiagram(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Where the money goes' }).scrollIntoViewIfNeeded();
  await page.getByTestId('flow-diagram').scrollIntoViewIfNeeded();
  await expect(part(page, 'Agent wallets')).toBeVisible();
}

test.describe('How an Agent Pays', () => {
  test('lists the five steps in order', async ({ page }) => {
    await gotoHydrated(page, '/');
    const steps = page.locator('#flow ol > li');
    await expect(steps).toHaveCount(5);
    const titles = ['Payment Intent', 'Policy and KYA Gate', 'Rail Orchestrator', 'Execute and Settle', 'Audit and Telemetry'];
    for (const [index, title] of titles.entries()) await expect(steps.nth(index)).toContainText(title);
    await expect(steps.nth(3)).toContainText('hold');
  });

  test('downloads React Flow only once #flow nears the viewport', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.js')) scripts.push(request.url());
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await gotoHydrated(page, '/');
    await page.waitForLoadState('networkidle');

    const flowTop = await page.locator('#flow').evaluate((element) => element.getBoundingClientRect().top);
    expect(flowTop, 'the flow section starts below the preload margin').toBeGreaterThan(900 + PRELOAD_MARGIN_PX);
    await expect(page.getByTestId('flow-diagram-placeholder')).toBeAttached();
    const firstLoad = [...scripts];
    expect(firstLoad.length).toBeGreaterThan(0);
    expect(firstLoad.filter((url) => /xyflow|flow-diagram/.test(url))).toEqual([]);
    for (const url of firstLoad) {
      const body = await (await page.request.get(url)).text();
      expect(body.includes(XYFLOW_MARKER), `${url} holds React Flow`).toBe(false);
    }

    await showDiagram(page);
    const lazy = scripts.filter((url) => !firstLoad.includes(url));
    expect(lazy.some((url) => /xyflow/.test(url)), `scripts fetched for the diagram: ${lazy.join(', ')}`).toBe(true);
    const bodies = await Promise.all(lazy.map(async (url) => (await page.request.get(url)).text()));
    expect(bodies.some((body) => body.includes(XYFLOW_MARKER))).toBe(true);
  });

  test('shows a part’s modules when the pointer hovers it', async ({ page }) => {
    await gotoHydrated(page, '/');
    await showDiagram(page);
    await expect(details(page)).toContainText('Hover over a part of the diagram');

    await part(page, 'Agent wallets').hover();
    await expect(details(page)).toContainText('Agent wallets');
    for (const module of ['Balance in USDC and USDT', 'Holds: funds reserved for payments in flight', 'Spending rules'])
      await expect(details(page)).toContainText(module);

    await part(page, 'x402 facilitator').hover();
    await expect(details(page)).toContainText('Verify: signature, amount, payee, validity window');
    await expect(details(page)).toContainText('Settle: transferWithAuthorization on chain');

    await part(page, 'Card rail (sandbox)').hover();
    await expect(details(page).getByText('sandbox', { exact: true })).toBeVisible();
  });

  test('shows a part’s modules when it gets keyboard focus, and announces them', async ({ page }) => {
    await gotoHydrated(page, '/');
    await showDiagram(page);
    // Start the tab sequence just before the diagram.
    await page.getByRole('heading', { name: 'Where the money goes' }).click();

    await page.keyboard.press('Tab');
    await expect(part(page, 'Owner wallet')).toBeFocused();
    await expect(details(page)).toContainText('USDC and USDT balances');

    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const orchestrator = part(page, 'Rail orchestrator');
    await expect(orchestrator).toBeFocused();
    for (const module of ['Policy gate', 'KYA tier', 'Rail choice']) await expect(details(page)).toContainText(module);
    // A screen reader hears the modules with the part's name.
    await expect(orchestrator).toHaveAccessibleDescription(/Policy gate.*KYA tier.*Rail choice/);

    await page.keyboard.press('Tab');
    await expect(part(page, 'Ledger rail')).toBeFocused();
    await expect(details(page)).toContainText('Instant settlement');
  });

  test('stays readable at 390 px and lets the page scroll over it', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, '/');
    await showDiagram(page);

    const diagram = await page.getByTestId('flow-diagram').boundingBox();
    expect(diagram).not.toBeNull();
    for (const name of ['Owner wallet', 'Agent wallets', 'Rail orchestrator', 'x402 on Base rail', 'Seller / paid API', 'x402 facilitator']) {
      const box = await part(page, name).boundingBox();
      expect(box, name).not.toBeNull();
      // Inside the diagram, and drawn near full size rather than shrunk to fit.
      expect(box!.x, name).toBeGreaterThanOrEqual(diagram!.x);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(diagram!.x + diagram!.width);
      expect(box!.width, name).toBeGreaterThanOrEqual(140);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The wheel scrolls the page, not the diagram, and touch gestures may pan the page.
    await page.mouse.move(diagram!.x + diagram!.width / 2, Math.max(diagram!.y, 0) + 100);
    const before = await page.evaluate(() => window.scrollY);
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before + 100);
    const touchAction = await page.locator('.react-flow__pane').evaluate((element) => getComputedStyle(element).touchAction);
    expect(touchAction).toBe('pan-y');

    await part(page, 'Bank rail (sandbox)').click();
    await expect(details(page)).toContainText('ACH return codes');
  });

  test('draws the diagram under the Content-Security-Policy without a violation', async ({ page }) => {
    const violations = await watchCspViolations(page);
    const response = await gotoHydrated(page, '/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await showDiagram(page);
    await part(page, 'Agent wallets').hover();
    await page.waitForTimeout(1_000);
    expect(violations).toEqual([]);
  });
});

test.describe('Quick integration', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('switches between the three workflows and copies the snippet shown', async ({ page }) => {
    await gotoHydrated(page, '/');
    const section = page.locator('#integration');
    await section.scrollIntoViewIfNeeded();
    const tabs = section.getByRole('tab');
    await expect(tabs).toHaveText(['Create a payment intent', 'Attach a policy', 'Listen to webhooks']);

    const panel = section.getByRole('tabpanel');
    await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
    await expect(panel).toContainText('const intent = await purser.intents.create(');
    await expect(panel).toContainText('{ idempotencyKey: `market-data-');
    await expect(panel).toContainText('amount: 50,');
    await expect(panel).toContainText('maxRetries: 3,');

    await tabs.nth(1).click();
    await expect(panel).toContainText('await purser.intents.attachPolicy(INTENT_ID, {');
    await expect(panel).toContainText('dailyCap: 100,');
    await expect(panel).toContainText("timeBox: '24h',");

    // Arrow keys move between the tabs.
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(2)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true');
    await expect(panel).toContainText('event = verifyWebhook({ payload: Buffer.concat(chunks), headers: request.headers, secret });');
    await expect(panel).toContainText('if (seen.has(event.id)) return;');

    await panel.getByRole('button', { name: 'Copy code' }).click();
    await expect(page.getByText('Snippet copied to clipboard')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await panel.locator('pre').textContent());
    expect(copied).toContain("import { PurserOwnerClient, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@purser/sdk';");
  });
});

test.describe('Security and compliance', () => {
  test('offers the whitepaper as markdown and as PDF, both static files', async ({ page }) => {
    await gotoHydrated(page, '/');
    const section = page.locator('#security');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toContainText('API keys shown once');
    await expect(section).toContainText('Hash-chained audit log');

    const markdownLink = section.getByRole('link', { name: 'Whitepaper (Markdown)' });
    const markdownUrl = await markdownLink.getAttribute('href');
    expect(markdownUrl).toBe('/security-whitepaper.md');
    const markdown = await page.request.get(markdownUrl!);
    expect(markdown.status()).toBe(200);
    expect(markdown.headers()['content-type']).toMatch(/^text\/markdown/);
    expect((await markdown.text()).split('\n')[0]).toBe('# Purser Security Whitepaper');
    const [download] = await Promise.all([page.waitForEvent('download'), markdownLink.click()]);
    expect(download.suggestedFilename()).toBe('purser-security-whitepaper.md');

    const pdfUrl = await section.getByRole('link', { name: 'Whitepaper (PDF)' }).getAttribute('href');
    expect(pdfUrl).toBe('/security-whitepaper.pdf');
    const pdf = await page.request.get(pdfUrl!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toMatch(/^application\/pdf/);
    const bytes = await pdf.body();
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(bytes.length).toBeGreaterThan(30_000);
  });
});

test('the three sections pass axe with the diagram drawn, in both themes, with screenshots', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  for (const theme of THEMES) {
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await gotoHydrated(page, '/');
    await openInTheme(page, theme, () => page.reload());
    await showDiagram(page);
    await part(page, 'Agent wallets').hover();
    await expectNoSeriousViolations(page, `landing with the flow diagram (${theme})`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await showDiagram(page);
      for (const id of ['flow', 'integration', 'security']) {
        await page.locator(`#${id}`).screenshot({
          path: testInfo.outputPath(`${id}-${theme}-${width}.png`),
          animations: 'disabled',
          // The sticky navigation would cover the top of a section taller than the viewport.
          style: 'header { visibility: hidden !important; }',
        });
      }
    }
  }
});
