// Every route of the web app (web/src/app/router.tsx) and the API reference load under the
// server's Content-Security-Policy without a single violation: nothing inline that the policy
// refuses, nothing from another origin. Signed out, the dashboard routes show the sign-in page.
import { expect, test, type Page } from '@playwright/test';
import { watchCspViolations } from '../support/csp-violations';

const SOME_AGENT = '00000000-0000-4000-8000-000000000000';

const ROUTES: Array<{ path: string; ready: (page: Page) => Promise<void> }> = [
  { path: '/', ready: heading(/payment integration and identity wallets/i) },
  { path: '/auth', ready: heading('Wallets for You and Your AI Agents') },
  { path: '/dashboard', ready: heading('Wallets for You and Your AI Agents') },
  { path: `/dashboard/agents/${SOME_AGENT}/connect`, ready: heading('Wallets for You and Your AI Agents') },
  { path: `/dashboard/agents/${SOME_AGENT}/transactions`, ready: heading('Wallets for You and Your AI Agents') },
  { path: '/blog', ready: heading('Blog') },
  { path: '/blog/agentic-commerce-101', ready: heading('Agentic Commerce 101') },
  { path: '/blog/no-such-post', ready: heading('Blog') },
  { path: '/docs', ready: heading('Documentation') },
  { path: '/status', ready: heading('System status') },
  { path: '/responsible-ai', ready: heading('Responsible AI') },
  { path: '/terms', ready: heading('Terms of Service') },
  { path: '/privacy', ready: heading('Privacy Policy') },
  { path: '/dpa', ready: heading('Data Processing Addendum') },
  { path: '/no/such/page', ready: (page) => expect(page.getByText('Oops! Page not found')).toBeVisible() },
  { path: '/docs/api', ready: (page) => expect(page.getByText('Purser owner API').first()).toBeVisible({ timeout: 15_000 }) },
];

function heading(name: string | RegExp) {
  return (page: Page) => expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

for (const route of ROUTES) {
  test(`${route.path} loads under the Content-Security-Policy with no violation`, async ({ page }) => {
    const violations = await watchCspViolations(page);
    const response = await page.goto(route.path);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await route.ready(page);
    await page.waitForFunction(() => document.readyState === 'complete');
    // Waiting for the absence of an event: late work (lazy chunks, queries, fonts) would show
    // a violation within moments. ('networkidle' never comes on /docs/api.)
    await page.waitForTimeout(1_000);
    expect(violations).toEqual([]);
  });
}
