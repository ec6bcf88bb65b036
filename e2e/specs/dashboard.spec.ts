// The owner dashboard: skeleton then content, creating an agent (its API key shown once),
// topping up and funding it, live updates from changes made elsewhere, the dialogs'
// validation toasts, accessibility in both themes and the layout at desktop and phone widths.
import { expect, test, type Page } from '@playwright/test';
import { signUpOwner, type TestOwner } from '../support/owner';
import { expectNoSeriousViolations } from '../support/page-checks';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });
const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });
const walletTotal = (page: Page) => page.getByTestId('wallet-total');

/** Holds tRPC calls of `procedure` back until the returned function is called. */
async function holdBack(page: Page, procedure: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route((url) => url.pathname.startsWith('/trpc/') && url.pathname.split(',').some((name) => name.endsWith(procedure)), async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function openDashboard(page: Page): Promise<TestOwner> {
  const owner = await signUpOwner(page.request);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(walletTotal(page)).toBeVisible();
  return owner;
}

async function createAgent(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'Create Agent' }).click();
  const create = dialog(page, 'Create New AI Agent');
  await create.getByLabel('Agent Name').fill(name);
  await create.getByRole('button', { name: 'Create Agent' }).click();
  await expect(toast(page, `Agent "${name}" created with DID!`)).toBeVisible();
  const keyDialog = dialog(page, `API key for ${name}`);
  const key = (await keyDialog.getByTestId('api-key').textContent()) ?? '';
  await keyDialog.getByRole('button', { name: 'I have saved the key' }).click();
  await expect(keyDialog).toBeHidden();
  return key;
}

async function topUp(page: Page, amount: string) {
  await page.getByRole('button', { name: 'Top Up' }).click();
  const form = dialog(page, 'Top Up Wallet');
  await form.getByRole('spinbutton', { name: 'Amount' }).fill(amount);
  await form.getByRole('button', { name: 'Top Up' }).click();
  await expect(form).toBeHidden();
}

test.describe('dashboard', () => {
  test('shows a loading skeleton first, then the wallet, summary, agents and transactions', async ({ page }) => {
    await signUpOwner(page.request);
    // Hold the first reads back so the skeleton is seen for certain.
    const release = await holdBack(page, 'wallet.get');

    await page.goto('/dashboard');
    await expect(page.getByTestId('dashboard-skeleton')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your Wallet' })).toBeHidden();
    release();

    await expect(page.getByTestId('dashboard-skeleton')).toBeHidden();
    await expect(page.getByRole('link', { name: 'Purser home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Docs' })).toHaveAttribute('href', '/docs');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    const wallet = page.getByRole('region', { name: 'Your Wallet' });
    await expect(walletTotal(page)).toHaveText('$0.00');
    await expect(page.getByTestId('wallet-usdc')).toHaveText('0.00');
    await expect(page.getByTestId('wallet-usdt')).toHaveText('0.00');
    await expect(wallet.getByRole('button', { name: 'Top Up' })).toBeVisible();
    await expect(wallet.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect(page.getByTestId('summary-active-agents')).toHaveText('0');
    await expect(page.getByTestId('summary-agent-balance')).toHaveText('$0.00');
    await expect(page.getByRole('heading', { name: 'Your AI Agents' })).toBeVisible();
    await expect(page.getByText('No agents yet.', { exact: false })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Recent Transactions' })).toContainText('No transactions yet.');
  });

  test('creates an agent and shows its API key once, then tops up and funds it from its card', async ({ page }) => {
    await openDashboard(page);

    // Create: defaults, busy label, success toast, the key shown once with a copy button.
    await page.getByRole('button', { name: 'Create Agent' }).click();
    const create = dialog(page, 'Create New AI Agent');
    await expect(create.getByLabel('Max Transaction Amount ($)')).toHaveValue('100');
    await expect(create.getByLabel('Max Daily Limit ($)')).toHaveValue('1000');
    await create.getByLabel('Agent Name').fill('Research Bot');
    await create.getByLabel('Description').fill('Buys datasets');
    await create.getByLabel('Max Transaction Amount ($)').fill('50');
    const releaseCreate = await holdBack(page, 'agents.create');
    await create.getByRole('button', { name: 'Create Agent' }).click();
    await expect(create.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    releaseCreate();
    await expect(toast(page, 'Agent "Research Bot" created with DID!')).toBeVisible();
    await expect(create).toBeHidden();

    const keyDialog = dialog(page, 'API key for Research Bot');
    await expect(keyDialog.getByText('It will not be shown again.')).toBeVisible();
    const key = (await keyDialog.getByTestId('api-key').textContent()) ?? '';
    expect(key.length).toBeGreaterThan(20);
    await keyDialog.getByRole('button', { name: 'Copy API key' }).click();
    await expect(toast(page, 'API key copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await keyDialog.getByRole('button', { name: 'I have saved the key' }).click();
    await expect(keyDialog).toBeHidden();
    await expect(page.getByText(key)).toHaveCount(0);

    // The create form is back to its defaults.
    await page.getByRole('button', { name: 'Create Agent' }).click();
    await expect(create.getByLabel('Agent Name')).toHaveValue('');
    await expect(create.getByLabel('Max Transaction Amount ($)')).toHaveValue('100');
    await create.getByRole('button', { name: 'Cancel' }).click();

    const card = page.getByRole('article', { name: 'Research Bot' });
    await expect(card).toContainText(/did:agnic:/);
    await expect(card).toContainText('Max/Tx');
    await expect(card).toContainText('$50.00');
    await expect(card).toContainText('$1,000.00');
    await expect(card.getByTestId('agent-balance')).toHaveText('$0.00');
    const agentPath = /\/dashboard\/agents\/[0-9a-f-]{36}\/(transactions|connect)$/;
    await expect(card.getByRole('link', { name: 'Transactions of Research Bot' })).toHaveAttribute('href', agentPath);
    await expect(card.getByRole('link', { name: 'Connect Research Bot' })).toHaveAttribute('href', agentPath);
    await expect(page.getByTestId('summary-active-agents')).toHaveText('1');

    // Top up: USDC by default, success toast, the wallet and its transactions reload.
    await page.getByRole('button', { name: 'Top Up' }).click();
    const topUpForm = dialog(page, 'Top Up Wallet');
    await expect(topUpForm.getByRole('combobox', { name: 'Currency' })).toHaveText('USDC');
    await topUpForm.getByRole('spinbutton', { name: 'Amount' }).fill('250');
    const releaseTopUp = await holdBack(page, 'wallet.topUp');
    await topUpForm.getByRole('button', { name: 'Top Up' }).click();
    await expect(topUpForm.getByRole('button', { name: 'Processing...' })).toBeDisabled();
    releaseTopUp();
    await expect(toast(page, 'Successfully added 250 USDC to your wallet')).toBeVisible();
    await expect(topUpForm).toBeHidden();
    await expect(walletTotal(page)).toHaveText('$250.00');
    await expect(page.getByTestId('wallet-usdc')).toHaveText('250.00');
    const recent = page.getByRole('region', { name: 'Recent Transactions' });
    await expect(recent.getByRole('listitem')).toHaveCount(1);
    await expect(recent).toContainText('+250.00 USDC');
    await expect(recent).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4} at \d{2}:\d{2}/);

    // The top-up form was cleared.
    await page.getByRole('button', { name: 'Top Up' }).click();
    await expect(topUpForm.getByRole('spinbutton', { name: 'Amount' })).toHaveValue('');
    await topUpForm.getByRole('button', { name: 'Cancel' }).click();

    // Fund from the card: the agent is preselected.
    await card.getByRole('button', { name: 'Fund Agent' }).click();
    const fund = dialog(page, 'Fund Agent');
    await expect(fund.getByRole('combobox', { name: 'Agent' })).toHaveText('Research Bot');
    await expect(fund.getByRole('combobox', { name: 'Currency' })).toHaveText('USDC');
    await fund.getByRole('spinbutton', { name: 'Amount' }).fill('40');
    await fund.getByRole('button', { name: 'Send' }).click();
    await expect(toast(page, 'Successfully sent 40 USDC to Research Bot')).toBeVisible();
    await expect(fund).toBeHidden();
    await expect(walletTotal(page)).toHaveText('$210.00');
    await expect(card.getByTestId('agent-balance')).toHaveText('$40.00');
    await expect(page.getByTestId('summary-agent-balance')).toHaveText('$40.00');
    await expect(recent.getByRole('listitem')).toHaveCount(2);
    await expect(recent.getByRole('listitem').first()).toContainText('-40.00 USDC');

    // Send opens the same dialog with no agent chosen.
    await page.getByRole('region', { name: 'Your Wallet' }).getByRole('button', { name: 'Send' }).click();
    await expect(fund.getByRole('combobox', { name: 'Agent' })).not.toContainText('Research Bot');
    await expect(fund.getByRole('spinbutton', { name: 'Amount' })).toHaveValue('');
    await fund.getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: 'Research Bot' }).click();
    await fund.getByRole('combobox', { name: 'Currency' }).click();
    await page.getByRole('option', { name: 'USDT' }).click();
    await fund.getByRole('spinbutton', { name: 'Amount' }).fill('5');
    await fund.getByRole('button', { name: 'Send' }).click();
    // The wallet holds no USDT: the server's message is shown.
    await expect(page.locator('[data-sonner-toast][data-type="error"]')).toBeVisible();
    await expect(fund).toBeVisible();
    await fund.getByRole('button', { name: 'Cancel' }).click();
  });

  test('shows top-ups, new agents and fundings made elsewhere without a reload', async ({ page }) => {
    const owner = await openDashboard(page);
    await expect(walletTotal(page)).toHaveText('$0.00');
    const api = (path: string, data: object) =>
      page.request.post(`/api/v1${path}`, { data, headers: { authorization: `Bearer ${owner.accessToken}` } });

    expect((await api('/wallet/top-up', { amount: 5 })).ok()).toBe(true);
    await expect(walletTotal(page)).toHaveText('$5.00');
    const recent = page.getByRole('region', { name: 'Recent Transactions' });
    await expect(recent.getByRole('listitem')).toHaveCount(1);
    await expect(recent).toContainText('+5.00 USDC');

    const created = await api('/agents', { name: 'Remote Agent' });
    expect(created.ok()).toBe(true);
    const { agent } = (await created.json()) as { agent: { id: string } };
    const card = page.getByRole('article', { name: 'Remote Agent' });
    await expect(card).toBeVisible();
    await expect(page.getByTestId('summary-active-agents')).toHaveText('1');

    expect((await api('/wallet/fund-agent', { agent_id: agent.id, amount: 2 })).ok()).toBe(true);
    await expect(card.getByTestId('agent-balance')).toHaveText('$2.00');
    await expect(walletTotal(page)).toHaveText('$3.00');
    await expect(recent.getByRole('listitem')).toHaveCount(2);
  });

  test("each dialog says what is wrong with its input", async ({ page }) => {
    await openDashboard(page);

    await page.getByRole('button', { name: 'Create Agent' }).click();
    const create = dialog(page, 'Create New AI Agent');
    await create.getByLabel('Agent Name').fill('   ');
    await create.getByRole('button', { name: 'Create Agent' }).click();
    await expect(toast(page, 'Please enter an agent name')).toBeVisible();
    await expect(create).toBeVisible();
    await create.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Top Up' }).click();
    const topUpForm = dialog(page, 'Top Up Wallet');
    await topUpForm.getByRole('button', { name: 'Top Up' }).click();
    await expect(toast(page, 'Please enter a valid amount')).toBeVisible();
    await topUpForm.getByRole('spinbutton', { name: 'Amount' }).fill('0');
    await topUpForm.getByRole('button', { name: 'Top Up' }).click();
    await expect(toast(page, 'Please enter a valid amount')).toHaveCount(2);
    await expect(topUpForm).toBeVisible();
    await topUpForm.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Send' }).click();
    const fund = dialog(page, 'Fund Agent');
    await fund.getByRole('spinbutton', { name: 'Amount' }).fill('10');
    await fund.getByRole('button', { name: 'Send' }).click();
    await expect(toast(page, 'Please select an agent and enter a valid amount')).toBeVisible();
    await expect(fund).toBeVisible();
  });

  test('has no serious accessibility violations in the light and dark themes', async ({ page }) => {
    await openDashboard(page);
    await createAgent(page, 'Axe Agent');
    await topUp(page, '12.5');
    await expect(walletTotal(page)).toHaveText('$12.50');

    for (const mode of ['light', 'dark'] as const) {
      const themeSwitch = page.getByRole('switch', { name: 'Dark mode' });
      if (mode === 'dark') await themeSwitch.check();
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      // Toasts fade out; let them go so the scan sees the page at rest.
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
      await expectNoSeriousViolations(page, `${mode} page`);

      await page.getByRole('article', { name: 'Axe Agent' }).getByRole('button', { name: 'Fund Agent' }).click();
      await expect(dialog(page, 'Fund Agent')).toBeVisible();
      await expectNoSeriousViolations(page, `${mode} dialog`);
      await dialog(page, 'Fund Agent').getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog(page, 'Fund Agent')).toBeHidden();
    }
  });

  test('lays out at desktop and phone widths, in both themes', async ({ page }, testInfo) => {
    await openDashboard(page);
    await createAgent(page, 'Layout Agent With A Rather Long Name');
    await createAgent(page, 'Second Agent');
    await topUp(page, '1000');
    await expect(walletTotal(page)).toHaveText('$1,000.00');
    await page.getByRole('article', { name: 'Second Agent' }).getByRole('button', { name: 'Fund Agent' }).click();
    await dialog(page, 'Fund Agent').getByRole('spinbutton', { name: 'Amount' }).fill('75.5');
    await dialog(page, 'Fund Agent').getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('summary-agent-balance')).toHaveText('$75.50');
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });

    // Whole page from the top (the sticky bar would otherwise be drawn mid-page); dialogs as seen.
    const shot = async (name: string, fullPage = true) => {
      if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage, animations: 'disabled' });
    };
    for (const mode of ['light', 'dark'] as const) {
      if (mode === 'dark') await page.getByRole('switch', { name: 'Dark mode' }).check();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
        await shot(`dashboard-${mode}-${width}`);
      }
    }

    // The dialogs at phone width.
    await page.getByRole('button', { name: 'Create Agent' }).click();
    await expect(dialog(page, 'Create New AI Agent')).toBeVisible();
    await shot('create-agent-390', false);
    await dialog(page, 'Create New AI Agent').getByLabel('Agent Name').fill('Key Agent');
    await dialog(page, 'Create New AI Agent').getByRole('button', { name: 'Create Agent' }).click();
    await expect(dialog(page, 'API key for Key Agent')).toBeVisible();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await shot('api-key-390', false);
    await dialog(page, 'API key for Key Agent').getByRole('button', { name: 'I have saved the key' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(dialog(page, 'Fund Agent')).toBeVisible();
    await shot('fund-agent-390', false);
  });
});
