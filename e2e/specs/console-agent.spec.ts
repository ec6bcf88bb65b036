// The agent page (/dashboard/agents/:agentId): an owner signed up over the API, with a funded
// agent that paid once through the agent API, edits its spending rules and sees them saved,
// sees its spend chart and budget notice, suspends it (the agent API then refuses it) and
// reactivates it, verifies its credential in both states, raises its KYA tier, and deletes it.
// Accessibility and screenshots at 1280 and 390 px in both themes.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { AGENT_API, agentHeaders, agentPay, createFundedAgent, type TestAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { auditPage, expectNoSeriousViolations } from '../support/page-checks';
import { openSettled } from '../support/session';

/** A signed-in owner (page.request shares the page's cookies) with a funded agent. */
async function ownerWithAgent(request: APIRequestContext, limits: { maxTransaction: number; dailyLimit: number }): Promise<TestAgent> {
  const owner = await signUpOwner(request);
  return createFundedAgent(request, owner, { name: `Controls bot ${Date.now() % 100_000}`, ownerTopUp: 100, fund: 50, ...limits });
}

/** The agent API's balance, asked as the agent: refused while it is suspended or once it is deleted. */
const agentBalance = (request: APIRequestContext, agent: TestAgent) => request.get(`${AGENT_API}/balance`, { headers: agentHeaders(agent) });

/** The first check after a navigation: the Vite dev server on a busy machine loads pages slowly. */
const PAGE_LOAD = { timeout: 30_000 };

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });

test.describe('agent page', () => {
  test('the owner edits the spending rules, suspends and reactivates the agent and verifies its credential', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    const agent = await ownerWithAgent(page.request, { maxTransaction: 50, dailyLimit: 10 });
    // 85% of the $10 daily limit: one budget notice (80%).
    const paid = await agentPay(page.request, agent, { amount: 8.5, description: 'Budget crossing lookup', idempotencyKey: crypto.randomUUID() });
    expect(paid.status(), await paid.text()).toBe(200);

    // The notice is written once the payment is captured, which may trail its answer a little.
    await expect
      .poll(async () => ((await (await page.request.get(`/api/v1/budget-alerts?agentId=${agent.id}`)).json()) as { alerts?: unknown[] }).alerts?.length ?? 0, {
        message: 'the 80% budget alert is recorded',
        timeout: 30_000,
      })
      .toBe(1);

    const url = `/dashboard/agents/${agent.id}`;
    await openSettled(page, url);
    await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible();
    await expect(page.getByText(agent.did, { exact: true })).toBeVisible();
    await expect(page.getByTestId('agent-status')).toHaveText('Active');
    await expect(page.getByTestId('agent-kya-tier')).toHaveText('KYA Basic · eIDAS low');
    await expect(page.getByRole('link', { name: 'Connect' })).toHaveAttribute('href', `${url}/connect`);
    await expect(page.getByRole('link', { name: 'Transactions' })).toHaveAttribute('href', `${url}/transactions`);

    // --- Budget: the chart has a name and the figures behind it; the 80% notice is listed.
    const budget = page.getByRole('region', { name: 'Budget', exact: true });
    await expect(budget.getByRole('img', { name: 'Spend per UTC day over the last 30 days' })).toBeVisible();
    await expect(budget.getByTestId('spend-summary')).toContainText('$8.50 spent over the last 30 days');
    await expect(budget.getByTestId('spend-summary')).toContainText('The daily limit is $10.00.');
    await expect(budget.getByRole('table', { name: 'Spend per UTC day over the last 30 days' }).getByRole('row')).toHaveCount(31);
    const notices = page.getByRole('region', { name: 'Budget notices' });
    await expect(notices.getByRole('alert')).toHaveText(/^Spent 80% of the daily limit \(\$8\.50 of \$10\.00\) on [A-Z][a-z]{2} \d{1,2}$/);

    // --- Spending rules: a wrong figure is refused with the server schema's message, then saved.
    const rules = page.getByRole('form', { name: 'Spending rules' });
    const dailyLimit = rules.getByRole('textbox', { name: 'Daily limit' });
    const threshold = rules.getByRole('textbox', { name: 'Approval threshold' });
    await expect(dailyLimit).toHaveValue('10');
    await expect(threshold).toHaveValue('');
    await dailyLimit.fill('-5');
    await threshold.fill('12.5');
    await rules.getByRole('button', { name: 'Save spending rules' }).click();
    await expect(rules.getByText('Max daily limit must not be negative')).toBeVisible();
    await expect(dailyLimit).toBeFocused();
    await dailyLimit.fill('150');
    await rules.getByRole('button', { name: 'Save spending rules' }).click();
    await expect(toast(page, 'Spending rules saved')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('form', { name: 'Spending rules' }).getByRole('textbox', { name: 'Daily limit' })).toHaveValue('150', PAGE_LOAD);
    await expect(page.getByRole('form', { name: 'Spending rules' }).getByRole('textbox', { name: 'Approval threshold' })).toHaveValue('12.5');
    const saved = await page.request.get(`/api/v1/agents/${agent.id}`);
    expect(saved.ok(), await saved.text()).toBe(true);
    expect(((await saved.json()) as { spending_rules: unknown }).spending_rules).toMatchObject({ max_daily_limit: 150, approval_threshold: 12.5 });
    await expect(budget.getByTestId('spend-summary')).toContainText('The daily limit is $150.00.');

    // --- Credential of an active agent verifies.
    const credential = page.getByRole('region', { name: 'Credential' });
    await expect(credential.getByTestId('credential-status')).toHaveText('Active');
    await credential.getByRole('button', { name: 'Verify credential' }).click();
    await expect(credential.getByTestId('credential-verification')).toContainText('Valid');

    // --- Suspend: the agent API refuses the agent; its credential no longer verifies.
    expect((await agentBalance(page.request, agent)).status()).toBe(200);
    await page.getByRole('button', { name: 'Suspend agent' }).click();
    const suspend = page.getByRole('dialog', { name: `Suspend ${agent.name}?` });
    await expect(suspend).toContainText('Outstanding x402 authorisations');
    await expectNoSeriousViolations(page, 'suspend dialog');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await expect(suspend).toBeHidden();
    await expect(page.getByTestId('agent-status')).toHaveText('Suspended');
    await expect(toast(page, `${agent.name} is suspended`)).toBeVisible();
    expect((await agentBalance(page.request, agent)).status()).toBe(403);
    await expect(credential.getByTestId('credential-status')).toHaveText('Suspended');
    await expect(credential.getByTestId('credential-verification')).toHaveCount(0);
    await credential.getByRole('button', { name: 'Verify credential' }).click();
    await expect(credential.getByTestId('credential-verification')).toContainText('Invalid');
    await expect(credential.getByTestId('credential-verification')).toContainText('Credential has been revoked');

    // --- Reactivate: the agent API answers again and the credential verifies again.
    await page.getByRole('button', { name: 'Reactivate agent' }).click();
    const reactivate = page.getByRole('dialog', { name: `Reactivate ${agent.name}?` });
    await reactivate.getByRole('button', { name: 'Reactivate' }).click();
    await expect(reactivate).toBeHidden();
    await expect(page.getByTestId('agent-status')).toHaveText('Active');
    expect((await agentBalance(page.request, agent)).status()).toBe(200);
    await credential.getByRole('button', { name: 'Verify credential' }).click();
    await expect(credential.getByTestId('credential-verification')).toContainText('Valid');

    await auditPage(page, testInfo, 'agent', async () => {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible(PAGE_LOAD);
      await expect(budget.getByRole('img', { name: 'Spend per UTC day over the last 30 days' })).toBeVisible(PAGE_LOAD);
      await expect(notices.getByRole('alert')).toBeVisible(PAGE_LOAD);
      await expect(page.getByText('No KYA verifications yet.')).toBeVisible(PAGE_LOAD);
    });
    // The chart alone at phone width (auditPage ends there), legible when looked at.
    await budget.screenshot({ path: testInfo.outputPath('agent-budget-390.png') });
  });

  test('the owner raises the KYA tier with evidence, and a rejected request is recorded too', async ({ page }) => {
    test.setTimeout(120_000);
    const agent = await ownerWithAgent(page.request, { maxTransaction: 50, dailyLimit: 200 });
    await openSettled(page, `/dashboard/agents/${agent.id}`);
    const kya = page.getByRole('region', { name: 'Know Your Agent (KYA)' });
    await expect(kya.getByText('No KYA verifications yet.')).toBeVisible();
    const form = kya.getByRole('form', { name: 'Request a higher tier' });
    await expect(form.getByRole('combobox', { name: 'Tier' })).toHaveText('Moderate');

    // Missing and malformed evidence: the contract's messages under the fields.
    await form.getByRole('textbox', { name: 'Legal name' }).fill('Acme Research GmbH');
    await form.getByRole('textbox', { name: 'Contact email' }).fill('not an email');
    await form.getByRole('textbox', { name: 'Country' }).fill('UK');
    await form.getByRole('button', { name: 'Request escalation' }).click();
    await expect(form.getByText(/evidence\.contact_email must be an email address/)).toBeVisible();
    await expect(form.getByText(/did you mean GB\?/)).toBeVisible();
    await expect(form.getByText(/evidence\.registration_number is required for the moderate tier/)).toBeVisible();

    // The sandbox register's rejection trigger: recorded, tier unchanged.
    await form.getByRole('textbox', { name: 'Contact email' }).fill('ops@acme.test');
    await form.getByRole('textbox', { name: 'Country' }).fill('DE');
    await form.getByRole('textbox', { name: 'Registration number' }).fill('SANDBOX-REJECT');
    await form.getByRole('button', { name: 'Request escalation' }).click();
    await expect(form.getByText(/^Rejected: Sandbox register/)).toBeVisible();
    await expect(page.getByTestId('agent-kya-tier')).toHaveText('KYA Basic · eIDAS low');

    await form.getByRole('textbox', { name: 'Registration number' }).fill('HRB 123456');
    await form.getByRole('button', { name: 'Request escalation' }).click();
    await expect(form.getByText('Verified: the agent now holds the moderate tier.')).toBeVisible();
    await expect(page.getByTestId('agent-kya-tier')).toHaveText('KYA Moderate · eIDAS substantial');
    await expect(form.getByRole('combobox', { name: 'Tier' })).toHaveText('High');

    const history = kya.getByRole('region', { name: 'KYA verification history' });
    await expect(history.getByRole('row')).toHaveCount(3);
    await expect(history.getByRole('row').nth(1)).toContainText('Basic → Moderate');
    await expect(history.getByRole('row').filter({ hasText: 'Rejected' })).toContainText('Sandbox register');
    await expect(history.getByRole('row').filter({ hasText: 'Verified' })).toHaveCount(1);
  });

  test('deleting the agent asks for its name, then leads to the dashboard and its page says it is gone', async ({ page }) => {
    test.setTimeout(120_000);
    const agent = await ownerWithAgent(page.request, { maxTransaction: 50, dailyLimit: 200 });
    const url = `/dashboard/agents/${agent.id}`;
    await openSettled(page, url);
    await page.getByRole('button', { name: 'Delete agent' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${agent.name}?` });
    await expect(dialog).toContainText('This cannot be undone.');
    const confirm = dialog.getByRole('button', { name: 'Delete agent' });
    await expect(confirm).toBeDisabled();
    await dialog.getByRole('textbox', { name: `Type ${agent.name} to confirm` }).fill(agent.name.toUpperCase());
    await expect(confirm).toBeDisabled();
    await dialog.getByRole('textbox', { name: `Type ${agent.name} to confirm` }).fill(agent.name);
    await confirm.click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toast(page, `Agent "${agent.name}" deleted`)).toBeVisible(PAGE_LOAD);
    expect((await agentBalance(page.request, agent)).status()).toBeGreaterThanOrEqual(401);

    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent not found' })).toBeVisible(PAGE_LOAD);
  });

  test("an id that is not one of the owner's agents shows 'Agent not found'", async ({ page, request }) => {
    test.setTimeout(120_000);
    const other = await signUpOwner(request);
    const othersAgent = (await createFundedAgent(request, other, { name: 'Not yours', fund: 0 })).id;

    await signUpOwner(page.request);
    await openSettled(page, '/dashboard');
    for (const id of ['not-an-agent', crypto.randomUUID(), othersAgent]) {
      await page.goto(`/dashboard/agents/${id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Agent not found' }), id).toBeVisible(PAGE_LOAD);
      await expect(page.getByText('Not yours')).toHaveCount(0);
    }
    await page.getByRole('link', { name: 'Return to dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
