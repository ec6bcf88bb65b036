// Payment sessions in the owner console (issue 43), driven as the owner and the agent would:
// the owner waits on the approvals page; the agent asks for a $5 budget over the agent API and
// the badge counts it without a reload; the owner grants $3 in the dialog; the agent pays $1
// three times naming the session and a fourth is refused (422, the session's code); the agent
// page follows the session live to $3 spent / $0 left; a payment's page names its session; the
// owner opens another session in the dialog, its total set aside, and revokes it (the money
// comes back). axe-core in both themes and
// screenshots at 1280 and 390 px of the approvals page (a request waiting) and the agent page.
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { AGENT_API, PAYEE, agentHeaders, agentLedgerUsdc, createFundedAgent, type TestAgent } from '../support/agents';
import { auditPage, expectNoSeriousViolations } from '../support/page-checks';
import { signUpOwner } from '../support/owner';
import { openSettled } from '../support/session';

const PAGE_LOAD = { timeout: 30_000 };
const LIVE = { timeout: 15_000 };
const DAY = 86_400_000;

const approvalsLink = (page: Page, name: string) => page.getByRole('link', { name, exact: true });
const sessionsCard = (page: Page) => page.getByRole('region', { name: 'Payment sessions' });

function payFromSession(page: Page, agent: TestAgent, sessionId: string, attempt: number): Promise<APIResponse> {
  return page.request.post(`${AGENT_API}/payment`, {
    headers: { ...agentHeaders(agent), 'Idempotency-Key': `session-${sessionId}-${attempt}` },
    data: { amount: 1, currency: 'USDC', to_address: PAYEE, description: `Dataset part ${attempt}`, category: 'data_api', session_id: sessionId },
  });
}

test.describe('payment sessions in the console', () => {
  test('a budget request is counted live, granted for less, spent by three payments and followed on the agent page', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: `Dataset bot ${Date.now() % 100_000}`, fund: 20 });

    await openSettled(page, '/dashboard/approvals');
    await expect(page.getByText('Nothing waiting for your approval')).toBeVisible(PAGE_LOAD);
    await expect(approvalsLink(page, 'Approvals')).toBeVisible();

    // The agent asks; the open page shows it and the badge counts it, with no reload.
    const asked = await page.request.post(`${AGENT_API}/budget/request`, {
      headers: agentHeaders(agent),
      data: { total: 5, per_payment_max: 2, expires_at: new Date(Date.now() + 2 * DAY).toISOString(), scope: { sellers: [PAYEE] }, reason: 'Buy three dataset parts for the report' },
    });
    expect(asked.status(), await asked.text()).toBe(201);
    const { session_id: sessionId } = (await asked.json()) as { session_id: string };
    await expect(approvalsLink(page, 'Approvals, 1 waiting')).toBeVisible(LIVE);
    const request = page.getByRole('article', { name: `Budget for ${agent.name}` });
    await expect(request).toBeVisible(LIVE);
    await expect(request).toContainText('Buy three dataset parts for the report');
    await expect(request).toContainText('5.00 USDC');
    await expect(request).toContainText('2.00 USDC');
    await expect(request).toContainText(`Sellers ${PAYEE.toLowerCase()}`);
    await expect(page.getByText('No payments wait for your approval.')).toBeVisible();

    await auditPage(page, testInfo, 'approvals-budget-request', async () => {
      await page.goto('/dashboard/approvals');
      await expect(page.getByRole('article', { name: `Budget for ${agent.name}` })).toBeVisible(PAGE_LOAD);
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The overview's notice counts it too.
    await page.goto('/dashboard');
    await expect(page.getByRole('alert').filter({ hasText: '1 budget request waits for your decision.' })).toBeVisible(PAGE_LOAD);
    await page.getByRole('link', { name: 'Review approvals' }).click();

    // Approve for $3 instead of $5: more than asked is refused beside the field first.
    await page.getByRole('article', { name: `Budget for ${agent.name}` }).getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: `Approve budget for ${agent.name}` });
    await expect(dialog.getByLabel('Total (USD)')).toHaveValue('5');
    await dialog.getByLabel('Total (USD)').fill('7');
    await dialog.getByRole('button', { name: 'Approve budget' }).click();
    await expect(dialog.getByLabel('Total (USD)')).toHaveAccessibleDescription('At most the $5 asked for');
    await dialog.getByLabel('Total (USD)').fill('3');
    await dialog.getByLabel('Note (optional)').fill('Three parts are enough');
    await dialog.getByRole('button', { name: 'Approve budget' }).click();
    await expect(dialog).toBeHidden(LIVE);
    await expect(page.getByRole('article', { name: `Budget for ${agent.name}` })).toHaveCount(0, LIVE);
    await expect(approvalsLink(page, 'Approvals')).toBeVisible(LIVE);
    const budget = await page.request.get(`${AGENT_API}/budget/${sessionId}`, { headers: agentHeaders(agent) });
    expect(await budget.json()).toMatchObject({ status: 'open', total: 3, per_payment_max: 2, decision_note: 'Three parts are enough' });

    // The agent page follows the session while the agent pays.
    await page.goto(`/dashboard/agents/${agent.id}`);
    const session = sessionsCard(page).locator(`[data-session-id="${sessionId}"]`);
    await expect(session).toContainText('Open', PAGE_LOAD);
    await expect(session.getByTestId('session-spent')).toHaveText('Spent $0.00');
    await expect(session.getByTestId('session-remaining')).toHaveText('Remaining $3.00');
    await expect(session).toContainText('Asked by the agent');
    await expect(session).toContainText('Buy three dataset parts for the report');

    for (const attempt of [1, 2, 3]) {
      const paid = await payFromSession(page, agent, sessionId, attempt);
      expect(paid.status(), await paid.text()).toBe(200);
    }
    const refused = await payFromSession(page, agent, sessionId, 4);
    expect(refused.status(), await refused.text()).toBe(422);
    const refusal = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(refusal.code).toBe('POLICY_VIOLATION');
    expect(refusal.message).toMatch(/SESSION_NOT_OPEN|SESSION_BUDGET_EXCEEDED/);

    await expect(session.getByTestId('session-spent')).toHaveText('Spent $3.00', LIVE);
    await expect(session.getByTestId('session-remaining')).toHaveText('Remaining $0.00');
    await expect(session).toContainText('Closed: all spent', LIVE);
    await expect(session.getByRole('progressbar', { name: 'Spent $3.00 of $3.00' })).toBeVisible();
    await expect(page.getByTestId('spend-summary')).toContainText('$3.00 of it from payment sessions', LIVE);

    // The session's payments, and a payment's page naming its session.
    await session.getByRole('link', { name: 'Payments of this session' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments\\?session=${sessionId}$`));
    await expect(page.getByText(/Payments paid from session/)).toBeVisible(PAGE_LOAD);
    // The refused fourth named the session too: it is listed, refused, beside the three paid.
    const rows = page.getByRole('row').filter({ hasText: 'Dataset part' });
    await expect(rows).toHaveCount(4, PAGE_LOAD);
    await rows.filter({ hasText: 'Dataset part 1' }).getByRole('link').first().click();
    const line = page.getByTestId('payment-session-line');
    await expect(line).toContainText(`Paid from payment session ${sessionId.slice(0, 8)}`, PAGE_LOAD);
    await expect(line).toContainText('$3.00 total, $0.00 left; closed: all spent');
    await expectNoSeriousViolations(page, 'payment paid from a session');
    await line.getByRole('link', { name: 'its payments' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments\\?session=${sessionId}$`));

    // The owner opens another session in the dialog, then revokes it.
    await page.goto(`/dashboard/agents/${agent.id}`);
    await sessionsCard(page).getByRole('button', { name: 'Open session' }).click();
    const open = page.getByRole('dialog', { name: `Open a payment session for ${agent.name}` });
    await open.getByLabel('Total (USD)').fill('0');
    await open.getByLabel('Sellers').fill('not a host!');
    await open.getByRole('button', { name: 'Open session' }).click();
    await expect(open.getByLabel('Total (USD)')).toHaveAccessibleDescription(/^The total must be a positive number of dollars/);
    await expect(open.getByLabel('Sellers')).toHaveAccessibleDescription(/^Each seller must be a host name/);
    await open.getByLabel('Total (USD)').fill('10');
    await open.getByLabel('Sellers').fill('');
    await open.getByLabel('Reason (optional)').fill('Weekend crawl');
    // Set aside: the $10 leaves the agent's spendable balance until the session closes.
    const spendable = await agentLedgerUsdc(page.request, agent);
    await open.getByRole('checkbox', { name: /^Set the total aside now/ }).check();
    await open.getByRole('button', { name: 'Open session' }).click();
    await expect(open).toBeHidden(LIVE);
    const opened = sessionsCard(page).getByRole('listitem').filter({ hasText: 'Weekend crawl' });
    await expect(opened).toContainText('Open', LIVE);
    await expect(opened).toContainText('Opened by you');
    await expect(opened.getByTestId('session-remaining')).toHaveText('Remaining $10.00');
    await expect(opened).toContainText('Set aside$10.00');
    expect(await agentLedgerUsdc(page.request, agent)).toBe(spendable - 10_000_000n);

    await auditPage(page, testInfo, 'agent-payment-sessions', async () => {
      await page.goto(`/dashboard/agents/${agent.id}`);
      await expect(sessionsCard(page).getByRole('listitem').filter({ hasText: 'Weekend crawl' })).toBeVisible(PAGE_LOAD);
      // Every card has loaded (their placeholders are named 'Loading ...').
      await expect(page.locator('[aria-label^="Loading"]')).toHaveCount(0, PAGE_LOAD);
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    const again = sessionsCard(page).getByRole('listitem').filter({ hasText: 'Weekend crawl' });
    await again.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke payment session?' });
    await expect(confirm).toContainText(`${agent.name} can no longer pay from the $10.00 left`);
    await confirm.getByRole('button', { name: 'Revoke session' }).click();
    await expect(confirm).toBeHidden(LIVE);
    await expect(again).toContainText('Closed: revoked', LIVE);
    await expect(again).toContainText('Set aside$0.00');
    expect(await agentLedgerUsdc(page.request, agent)).toBe(spendable);
    await expect(again.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
    // The first session is as it was.
    await expect(sessionsCard(page).locator(`[data-session-id="${sessionId}"]`)).toContainText('Closed: all spent');
  });
});
