// The owner console's payments and approvals pages: every payment of the owner newest first,
// filtered and searched through the URL (so a filtered view survives a reload), paged with
// 'Load more', live as agents pay, each row leading to its payment's page; the approvals inbox
// with its live badge, the rules that asked, the time left, approve and reject with a note.
// Both pages pass axe in both themes and are photographed at 1280 and 390 px.
import { randomUUID } from 'node:crypto';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { agentPay, createFundedAgent, type TestAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { auditPage } from '../support/page-checks';
import { openSettled } from '../support/session';

// Console pages read several queries and a live stream; on a loaded machine (or a dev server)
// a filter's round trip can take longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]', { hasText: text });
const rows = (page: Page) => page.getByTestId('payment-row');
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });
const approvalRow = (page: Page, intentId: string) => page.locator(`[data-testid="approval-row"][data-intent-id="${intentId}"]`);

async function pay(page: Page, agent: TestAgent, amount: number, description: string, metadata?: Record<string, unknown>): Promise<string> {
  const response = await agentPay(page.request, agent, { amount, description, idempotencyKey: randomUUID(), metadata });
  expect([200, 202], `${description}: ${await response.text()}`).toContain(response.status());
  return ((await response.json()) as { intent_id: string }).intent_id;
}

/** Opens (or, without a path, reloads) a console page and waits until it has drawn its heading. */
async function open(page: Page, path?: string): Promise<void> {
  if (path) await page.goto(path);
  else await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
}

/** The search params of the page's URL, as an object. */
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** Today in the browser's time zone, as a date input writes it. */
const browserToday = (page: Page, addDays = 0) =>
  page.evaluate((days) => {
    const date = new Date();
    date.setDate(date.getDate() + days);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  }, addDays);

test.describe('console payments and approvals', () => {
  test('the payments page lists, filters, searches and pages the payments, keeps the filters in the URL, stays live and leads to each payment', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    const owner = await signUpOwner(page.request);
    const weather = await createFundedAgent(page.request, owner, { name: 'Weather buyer', fund: 60 });
    const compute = await createFundedAgent(page.request, owner, { name: 'Compute buyer', fund: 60, approvalThreshold: 5 });

    const weatherId = await pay(page, weather, 1.25, 'Weather lookup', { request_id: 'wx-123' });
    await pay(page, weather, 2.5, 'Forecast bundle');
    const microId = await pay(page, weather, 0.000125, 'Tiny ping');
    await pay(page, compute, 3, 'GPU minute');
    const pendingId = await pay(page, compute, 8, 'Dataset purchase');

    await openSettled(page, '/dashboard/payments');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
    await expect(rows(page)).toHaveCount(5);
    // Newest first, with the agent, the amount in two decimals and the status.
    await expect(rows(page).first()).toHaveAttribute('data-intent-id', pendingId);
    await expect(rows(page).first()).toContainText('Compute buyer');
    await expect(rows(page).first()).toContainText('8.00');
    await expect(rows(page).first()).toContainText('Pending approval');
    await expect(row(page, 'Weather lookup')).toContainText('Settled');
    // A micro-payment shows two decimals, and its full amount on hover.
    const micro = page.locator(`[data-testid="payment-row"][data-intent-id="${microId}"]`);
    await expect(micro).toContainText('0.00');
    await expect(micro.locator('[title="0.000125"]')).toBeVisible();
    // The Payments section is the current one in the top bar.
    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payments' })).toHaveAttribute('aria-current', 'page');

    // Live: a payment made now appears at the top without a reload.
    const liveId = await pay(page, weather, 0.75, 'Live arrival');
    await expect(rows(page).first()).toHaveAttribute('data-intent-id', liveId);
    await expect(rows(page)).toHaveCount(6);

    // Status (several can be chosen): the choice goes into the URL.
    await page.getByRole('combobox', { name: /^Status/ }).click();
    await page.getByRole('option', { name: 'Pending approval' }).click();
    await page.keyboard.press('Escape');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toHaveAttribute('data-intent-id', pendingId);
    expect(query(page)).toEqual({ status: 'pending_approval' });
    await page.getByRole('combobox', { name: /^Status/ }).click();
    await page.getByRole('option', { name: 'Settled' }).click();
    await page.keyboard.press('Escape');
    await expect(rows(page)).toHaveCount(6);
    expect(query(page)).toEqual({ status: 'pending_approval,settled' });

    // Agent.
    await page.getByRole('combobox', { name: /^Agent/ }).click();
    await page.getByRole('option', { name: 'Compute buyer' }).click();
    await expect(rows(page)).toHaveCount(2);
    expect(query(page)).toMatchObject({ agent: compute.id });

    // Search (purpose, merchant and metadata), applied once typing pauses; a reload keeps it all.
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect(rows(page)).toHaveCount(6);
    expect(query(page)).toEqual({});
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('WX-123');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toHaveAttribute('data-intent-id', weatherId);
    expect(query(page)).toEqual({ q: 'WX-123' });
    await open(page);
    await expect(search).toHaveValue('WX-123');
    await expect(rows(page)).toHaveCount(1);

    // No match: said so, with a way back to everything.
    await search.fill('nothing like this anywhere');
    await expect(page.getByText('No payments match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Show all payments' }).click();
    await expect(rows(page)).toHaveCount(6);
    await expect(search).toHaveValue('');

    // Amount range (inclusive) and date range (days in the viewer's time zone).
    await page.getByLabel('Min amount').fill('2.5');
    await page.getByLabel('Max amount').fill('3');
    await expect(rows(page)).toHaveCount(2);
    await expect(row(page, 'Forecast bundle')).toBeVisible();
    await expect(row(page, 'GPU minute')).toBeVisible();
    await page.getByLabel('Max amount').fill('1');
    // A backwards range is said on the field, and left open at that end meanwhile.
    await expect(page.getByText('Must not be less than Min')).toBeVisible();
    await expect(rows(page)).toHaveCount(3);
    await page.getByRole('button', { name: 'Reset filters' }).click();
    const today = await browserToday(page);
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To', { exact: true }).fill(today);
    await expect(rows(page)).toHaveCount(6);
    await page.getByLabel('From').fill(await browserToday(page, 1));
    await page.getByLabel('To', { exact: true }).fill(await browserToday(page, 1));
    await expect(page.getByText('No payments match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Reset filters' }).click();

    // Rail: these agents paid on the ledger; none on the sandbox bank rail.
    await page.getByRole('combobox', { name: /^Rail/ }).click();
    await page.getByRole('option', { name: 'Bank transfer (sandbox)' }).click();
    await expect(page.getByText('No payments match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect(rows(page)).toHaveCount(6);

    // A smaller page: 'Load more' follows the server's cursor, then goes when nothing is left.
    for (let index = 1; index <= 6; index += 1) await pay(page, weather, 0.1, `Batch call ${index}`);
    await expect(rows(page)).toHaveCount(12);
    await page.getByRole('combobox', { name: /^Per page/ }).click();
    await page.getByRole('option', { name: '10', exact: true }).click();
    expect(query(page)).toEqual({ limit: '10' });
    await expect(rows(page)).toHaveCount(10);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(rows(page)).toHaveCount(12);
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    await expect(rows(page).last()).toHaveAttribute('data-intent-id', weatherId);

    await auditPage(page, testInfo, 'payments', async () => {
      await open(page, '/dashboard/payments');
      await expect(rows(page)).toHaveCount(12);
    });

    // Each row is a link to its payment's page, followed with the keyboard.
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, '/dashboard/payments?q=Weather+lookup');
    await expect(rows(page)).toHaveCount(1);
    const link = rows(page).first().getByRole('link', { name: 'Weather lookup' });
    await expect(link).toHaveAttribute('href', `/dashboard/payments/${weatherId}`);
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${weatherId}$`));

    // On a phone the rows stack, and each is still a link; the filters besides the search fold
    // away behind a button, which says how many are set (and starts open when any are).
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, '/dashboard/payments?status=settled');
    const filtersButton = page.getByRole('button', { name: 'Filters, 1 set' });
    await expect(filtersButton).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('combobox', { name: /^Status/ })).toContainText('Settled');
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect(page.getByRole('button', { name: 'Filters', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Filters', exact: true })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('combobox', { name: /^Status/ })).toBeHidden();
    await page.getByRole('searchbox', { name: 'Search' }).fill('Tiny ping');
    await expect(rows(page)).toHaveCount(1);
    await rows(page).first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${microId}$`));
  });

  test('the approvals inbox lists what waits with its rules and time left, counts it live in the top bar, and approves or rejects with a note', async ({ page }, testInfo) => {
    test.setTimeout(150_000);
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: 'Approval inbox agent', fund: 60, approvalThreshold: 5 });

    await openSettled(page, '/dashboard/approvals');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Nothing waiting for your approval')).toBeVisible();
    const badge = page.getByTestId('approvals-badge');
    await expect(badge).toHaveText('0');
    await expect(badge).toBeHidden();

    // Two payments above the threshold arrive while the page is open.
    const first = await pay(page, agent, 8, 'Inbox dataset');
    const second = await pay(page, agent, 12.5, 'Inbox compute hour');
    await expect(badge).toHaveText('2');
    await expect(page.getByRole('link', { name: 'Approvals, 2 waiting' })).toHaveAttribute('aria-current', 'page');
    const firstRow = approvalRow(page, first);
    const secondRow = approvalRow(page, second);
    await expect(secondRow).toContainText('12.50 USDC');
    await expect(secondRow).toContainText('Approval inbox agent');
    await expect(secondRow).toContainText('to the owner for approval; this payment is $12.50');
    await expect(secondRow.getByTestId('approval-expiry')).toHaveText(/^expires in 23 h \d+ min$/);
    await expect(secondRow.getByRole('link', { name: 'View payment' })).toHaveAttribute('href', `/dashboard/payments/${second}`);
    await expect(page.getByTestId('approval-row').first()).toHaveAttribute('data-intent-id', second);

    await auditPage(page, testInfo, 'approvals', async () => {
      await open(page, '/dashboard/approvals');
      await expect(page.getByTestId('approval-row')).toHaveCount(2);
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Reject with a note: the dialog names the payment; the row goes, the badge follows.
    await secondRow.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject payment' });
    await expect(dialog).toContainText('12.50 USDC');
    await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Too expensive for a test');
    await dialog.getByRole('button', { name: 'Reject payment' }).click();
    await expect(toast(page, 'Payment rejected')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(secondRow).toBeHidden();
    await expect(badge).toHaveText('1');

    // Approve: the payment settles and leaves the inbox.
    await firstRow.getByRole('button', { name: 'Approve' }).click();
    await expect(toast(page, 'Payment approved')).toBeVisible();
    await expect(firstRow).toBeHidden();
    await expect(page.getByText('Nothing waiting for your approval')).toBeVisible();
    await expect(badge).toHaveText('0');
    await expect(page.getByRole('link', { name: 'Approvals', exact: true })).toBeVisible();

    // The payments page agrees.
    await open(page, '/dashboard/payments');
    await expect(page.locator(`[data-testid="payment-row"][data-intent-id="${first}"]`)).toContainText(/Settled|Processing|Approved/);
    await expect(page.locator(`[data-testid="payment-row"][data-intent-id="${second}"]`)).toContainText('Rejected');
  });
});
