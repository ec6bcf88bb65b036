// The one-time approval link of an agent's budget request (/approve/<token>, issue 43), driven as
// its owner would: the agent asks for $5 and hands over approval_url; the owner, signed out,
// opens it, signs in and comes back to the same page, which shows the agent, its reason and the
// terms; they lower the total to $3, set it aside and approve; the page says it is approved, the
// agent reads its budget open for $3 and the owner's view has the $3 set aside. Opening the link
// again says it was already used; a request that expired before anyone decided says it no longer
// waits. The page sends no
// Referer (the token is in its path) and asks nothing of another origin. Accessibility and
// screenshots at 1280 and 390 px in both themes; no CSP violation.
import { expect, test, type Page } from '@playwright/test';
import { AGENT_API, agentHeaders, createFundedAgent } from '../support/agents';
import { watchCspViolations } from '../support/csp-violations';
import { auditPage, expectNoSeriousViolations, WIDTHS } from '../support/page-checks';
import { signUpOwner } from '../support/owner';
import { openSettled } from '../support/session';

const PAGE_LOAD = { timeout: 30_000 };
const DAY = 86_400_000;

const approvalForm = (page: Page, agentName: string) => page.getByRole('form', { name: `${agentName} asks for a budget` });

test.describe('budget approval link', () => {
  test('a signed-out owner opens the link, signs in, lands back on it, grants less; the link then says it was used', async ({ page, baseURL }, testInfo) => {
    test.setTimeout(240_000);
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: `Research bot ${Date.now() % 100_000}`, fund: 5 });
    const asked = await page.request.post(`${AGENT_API}/budget/request`, {
      headers: agentHeaders(agent),
      data: { total: 5, per_payment_max: 2, expires_at: new Date(Date.now() + 2 * DAY).toISOString(), scope: { categories: ['datasets'] }, reason: 'Buy two datasets for the quarterly report' },
    });
    expect(asked.status(), await asked.text()).toBe(201);
    const { session_id: sessionId, approval_url: approvalUrl } = (await asked.json()) as { session_id: string; approval_url: string };
    const approvalPath = new URL(approvalUrl).pathname;
    expect(approvalPath).toMatch(/^\/approve\/[A-Za-z0-9_-]{43}$/);

    // Every request the page makes, to check none leaves this origin.
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    const violations = await watchCspViolations(page);

    // Signed out: sign-up over the API left the session cookies in this context.
    await page.context().clearCookies();
    const opened = await page.goto(approvalPath);
    // The token is in the path: the page tells the browser never to send it on as a Referer.
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(page).toHaveURL(/\/auth\?next=%2Fapprove%2F/, PAGE_LOAD);
    const signIn = page.getByRole('form', { name: 'Sign in' });
    await signIn.getByLabel(/^Email\b/).fill(owner.email);
    await signIn.getByLabel(/^Password\b/).fill(owner.password);
    await signIn.getByRole('button', { name: 'Sign In' }).click();

    // Back on the same link, which shows who asks, why and for what.
    await expect(page).toHaveURL(new RegExp(`${approvalPath}$`), PAGE_LOAD);
    const form = approvalForm(page, agent.name);
    await expect(form.getByRole('heading', { level: 1 })).toHaveText(`${agent.name} asks for a budget`, PAGE_LOAD);
    await expect(form).toContainText('Buy two datasets for the quarterly report');
    await expect(form.getByTestId('approval-asked-total')).toHaveText('$5.00');
    await expect(form).toContainText('At most $2.00');
    await expect(form).toContainText('Categories: datasets');
    await expect(form.getByLabel('Total to grant')).toHaveValue('5');

    await auditPage(page, testInfo, 'budget-approval', async () => {
      await page.goto(approvalPath);
      await expect(approvalForm(page, agent.name).getByRole('button', { name: 'Approve' })).toBeVisible(PAGE_LOAD);
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    // More than asked is refused beside the field, and nothing is sent.
    await form.getByLabel('Total to grant').fill('7');
    await form.getByRole('button', { name: 'Approve' }).click();
    await expect(form.getByLabel('Total to grant')).toHaveAccessibleDescription('You can grant at most the $5 asked for');
    await expect(form.getByLabel('Total to grant')).toBeFocused();

    // $3 instead of $5, with a note, set aside on the agent's balance.
    await form.getByLabel('Total to grant').fill('3');
    await form.getByLabel('Note to the agent').fill('Three is enough for two datasets');
    await form.getByRole('checkbox', { name: /Set the total aside now/ }).check();
    await form.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Budget approved' })).toBeVisible(PAGE_LOAD);
    await expect(page.getByRole('status')).toContainText(`${agent.name} may pay up to $3.00 until`);
    await expect(page.getByRole('status')).toContainText('$3.00 of its balance is set aside for it.');
    await expectNoSeriousViolations(page, 'budget approved');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await page.screenshot({ path: testInfo.outputPath(`budget-approval-approved-${width}.png`), fullPage: true, animations: 'disabled' });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // The agent reads its budget open for $3, with the note.
    const budget = await page.request.get(`${AGENT_API}/budget/${sessionId}`, { headers: agentHeaders(agent) });
    expect(await budget.json()).toMatchObject({ status: 'open', total: 3, decision_note: 'Three is enough for two datasets' });
    const ownersView = await page.request.get(`/api/v1/payment-sessions/${sessionId}`, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
    expect(await ownersView.json()).toMatchObject({ status: 'open', reserve: true, reservedExact: '3', allPayments: false });

    // A second use of the link: no form, a sentence that says why.
    await page.goto(approvalPath);
    await expect(page.getByRole('heading', { level: 1, name: 'This link was already used' })).toBeVisible(PAGE_LOAD);
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expectNoSeriousViolations(page, 'approval link already used');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await page.screenshot({ path: testInfo.outputPath(`budget-approval-used-${width}.png`), fullPage: true, animations: 'disabled' });
    }

    expect([...origins]).toEqual([new URL(baseURL!).origin]);
    expect(violations).toEqual([]);
  });

  test('a request that expired before anyone decided no longer waits: the link says so, with no form', async ({ page }) => {
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: `Late bot ${Date.now() % 100_000}`, fund: 0 });
    const asked = await page.request.post(`${AGENT_API}/budget/request`, {
      headers: agentHeaders(agent),
      data: { total: 2, expires_at: new Date(Date.now() + 2_000).toISOString(), reason: 'One dataset, today only' },
    });
    expect(asked.status(), await asked.text()).toBe(201);
    const { session_id: sessionId, approval_url: approvalUrl } = (await asked.json()) as { session_id: string; approval_url: string };
    await expect
      .poll(async () => ((await (await page.request.get(`${AGENT_API}/budget/${sessionId}`, { headers: agentHeaders(agent) })).json()) as { status: string }).status, PAGE_LOAD)
      .toBe('closed');
    await openSettled(page, new URL(approvalUrl).pathname);
    await expect(page.getByRole('heading', { level: 1, name: 'Request no longer waiting' })).toBeVisible(PAGE_LOAD);
    await expect(page.getByText('expired before anyone decided')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  });

  test('a link that is not valid says so, with no form', async ({ page }) => {
    await signUpOwner(page.request);
    await openSettled(page, '/approve/not-a-real-token');
    await expect(page.getByRole('heading', { level: 1, name: 'This link is not valid' })).toBeVisible(PAGE_LOAD);
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  });
});
