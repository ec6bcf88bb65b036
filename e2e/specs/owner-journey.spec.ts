// The owner's whole journey, as one test (the acceptance journey): sign up in the browser with an
// invitation code, create an agent (its API key shown once), top up, fund the agent from its card,
// see balances and lists follow live (also a top-up made through the owner REST API meanwhile),
// copy the agent's DID on its connect page, find a payment the agent made through the agent API
// on its transactions page through every filter, the search and Reset Filters, then sign out
// and be kept out of the dashboard. The balances are checked to add up at every step.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { invitationCode, newOwnerDetails } from '../support/owner';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const AGENT_API = '/functions/v1/mcp-server';
const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const amount = (cents: number) => (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
// Not through the 'Notifications' region: while a dialog is open, MUI hides the rest of the page
// (the toasts' region included) from the accessibility tree.
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });
const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });

/** What the dashboard must show, in cents. */
interface Expected {
  usdc: number;
  usdt: number;
  agent: number;
  activeAgents: number;
}

async function expectDashboard(page: Page, card: Locator, expected: Expected) {
  // The wallet's total is its two currencies; the summary's total is every agent's balance.
  await expect(page.getByTestId('wallet-usdc')).toHaveText(amount(expected.usdc));
  await expect(page.getByTestId('wallet-usdt')).toHaveText(amount(expected.usdt));
  await expect(page.getByTestId('wallet-total')).toHaveText(dollars(expected.usdc + expected.usdt));
  await expect(card.getByTestId('agent-balance')).toHaveText(dollars(expected.agent));
  await expect(page.getByTestId('summary-agent-balance')).toHaveText(dollars(expected.agent));
  await expect(page.getByTestId('summary-active-agents')).toHaveText(String(expected.activeAgents));
}

test('an owner signs up, creates and funds an agent, connects it, sees its payment, and signs out', async ({ page }) => {
  test.setTimeout(120_000);
  const owner = newOwnerDetails();
  const agentName = `Journey agent ${Date.now() % 100_000}`;

  // --- Sign up in the browser with an invitation code.
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const signUp = page.getByRole('form', { name: 'Sign up' });
  await signUp.getByLabel(/^Invitation Code/).fill(invitationCode());
  await signUp.getByLabel(/^Full Name/).fill(owner.fullName);
  await signUp.getByLabel(/^Email/).fill(owner.email);
  await signUp.getByLabel(/^Password/).fill(owner.password);
  await signUp.getByLabel(/^Confirm Password/).fill(owner.password);
  await signUp.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, 'Account created successfully!')).toBeVisible();
  await expect(page.getByTestId('wallet-total')).toHaveText('$0.00');
  await expect(page.getByTestId('summary-active-agents')).toHaveText('0');
  await expect(page.getByTestId('summary-agent-balance')).toHaveText('$0.00');

  // --- Create an agent: its API key is shown once, then nowhere.
  await page.getByRole('button', { name: 'Create Agent' }).click();
  const create = dialog(page, 'Create New AI Agent');
  await create.getByLabel('Agent Name').fill(agentName);
  await create.getByLabel('Description').fill('Buys weather data for the journey');
  await create.getByRole('button', { name: 'Create Agent' }).click();
  await expect(toast(page, `Agent "${agentName}" created with DID!`)).toBeVisible();
  const keyDialog = dialog(page, `API key for ${agentName}`);
  await expect(keyDialog.getByText('It will not be shown again.')).toBeVisible();
  const apiKey = ((await keyDialog.getByTestId('api-key').textContent()) ?? '').trim();
  expect(apiKey.length).toBeGreaterThan(20);
  await keyDialog.getByRole('button', { name: 'I have saved the key' }).click();
  await expect(keyDialog).toBeHidden();
  await expect(page.getByText(apiKey)).toHaveCount(0);
  expect(await page.content()).not.toContain(apiKey);

  const card = page.getByRole('article', { name: agentName });
  await expect(card).toContainText(/did:agnic:/);
  const expected: Expected = { usdc: 0, usdt: 0, agent: 0, activeAgents: 1 };
  await expectDashboard(page, card, expected);

  // --- Top up the wallet.
  await page.getByRole('region', { name: 'Your Wallet' }).getByRole('button', { name: 'Top Up' }).click();
  const topUp = dialog(page, 'Top Up Wallet');
  await topUp.getByRole('spinbutton', { name: 'Amount' }).fill('300');
  await topUp.getByRole('button', { name: 'Top Up' }).click();
  await expect(toast(page, 'Successfully added 300 USDC to your wallet')).toBeVisible();
  await expect(topUp).toBeHidden();
  expected.usdc += 300_00;
  await expectDashboard(page, card, expected);
  const recent = page.getByRole('region', { name: 'Recent Transactions' });
  await expect(recent.getByRole('listitem')).toHaveCount(1);
  await expect(recent).toContainText('+300.00 USDC');

  // --- Fund the agent from its card.
  await card.getByRole('button', { name: 'Fund Agent' }).click();
  const fund = dialog(page, 'Fund Agent');
  await expect(fund.getByRole('combobox', { name: 'Agent' })).toHaveText(agentName);
  await fund.getByRole('spinbutton', { name: 'Amount' }).fill('120');
  await fund.getByRole('button', { name: 'Send' }).click();
  await expect(toast(page, `Successfully sent 120 USDC to ${agentName}`)).toBeVisible();
  await expect(fund).toBeHidden();
  expected.usdc -= 120_00;
  expected.agent += 120_00;
  await expectDashboard(page, card, expected);
  await expect(recent.getByRole('listitem')).toHaveCount(2);
  await expect(recent.getByRole('listitem').first()).toContainText('-120.00 USDC');

  // --- A top-up made elsewhere (the owner REST API, with this browser's session) shows live.
  // Sent as a script on the page would send it: a write with the session cookie names its origin.
  const background = await page.request.post('/api/v1/wallet/top-up', { headers: { origin: new URL(page.url()).origin }, data: { amount: 25, currency: 'USDT' } });
  expect(background.ok(), await background.text()).toBe(true);
  expected.usdt += 25_00;
  await expectDashboard(page, card, expected);
  await expect(recent.getByRole('listitem')).toHaveCount(3);
  await expect(recent.getByRole('listitem').first()).toContainText('+25.00 USDT');

  // --- The connect page: copy the DID.
  await card.getByRole('link', { name: `Connect ${agentName}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents\/[0-9a-f-]{36}\/connect$/);
  const agentId = /agents\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
  await expect(page.getByRole('heading', { level: 1, name: 'Agent MCP Setup' })).toBeVisible();
  const didCard = page.getByRole('region', { name: 'Agent DID' });
  const did = ((await didCard.locator('code').first().textContent()) ?? '').trim();
  expect(did).toMatch(/^did:agnic:/);
  await expect(page.getByRole('region', { name: 'Agent Wallet' })).toContainText(amount(expected.agent));
  await expect(page.getByRole('region', { name: 'MCP Base URL' })).toContainText(`${AGENT_API}`);
  await didCard.getByRole('button', { name: 'Copy Agent DID' }).click();
  await expect(toast(page, 'Agent DID copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(did);
  expect(await page.content()).not.toContain(apiKey);

  // --- The agent pays through the agent API with its key.
  const paid = await page.request.post(`${AGENT_API}/payment`, {
    headers: { 'X-Agent-DID': did, Authorization: `Bearer ${apiKey}` },
    data: {
      amount: 7.25,
      currency: 'USDC',
      to_address: PAYEE,
      description: 'Journey weather lookup',
      category: 'data_api',
      metadata: { workflow: 'journey-weather', request_id: 'journey-req-7' },
    },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  expected.agent -= 7_25;

  // --- Its transactions page lists the payment through each filter, the search and reset.
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectDashboard(page, card, expected);
  await card.getByRole('link', { name: `Transactions of ${agentName}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/agents/${agentId}/transactions$`));
  await expect(page.getByRole('heading', { level: 1, name: agentName })).toBeVisible();
  await expect(page.getByText(did)).toBeVisible();
  const table = page.getByRole('table');
  const paymentRow = table.getByRole('row').filter({ hasText: 'Journey weather lookup' });
  const fundingRow = table.getByRole('row').filter({ hasText: 'Funding from owner wallet' });
  await expect(paymentRow).toContainText('7.25');
  await expect(paymentRow).toContainText('data_api');
  await expect(paymentRow).toContainText('completed');
  await expect(fundingRow).toBeVisible();

  const choose = async (label: string, option: string) => {
    await page.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect(page.getByRole('combobox', { name: new RegExp(`^${label}`) })).toHaveText(option);
  };
  await choose('Type', 'payment');
  await expect(paymentRow).toBeVisible();
  await expect(fundingRow).toBeHidden();
  await choose('Currency', 'USDC');
  await expect(paymentRow).toBeVisible();
  await choose('Status', 'completed');
  await expect(paymentRow).toBeVisible();
  await choose('Category', 'data_api');
  await expect(paymentRow).toBeVisible();
  const search = page.getByPlaceholder('Search description, address or metadata');
  for (const term of ['journey weather', PAYEE.toLowerCase(), 'JOURNEY-REQ-7']) {
    await search.fill(term);
    await expect(paymentRow).toBeVisible();
  }
  await search.fill('no such transaction');
  await expect(paymentRow).toBeHidden();
  await expect(page.getByText('No transactions match the selected filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Reset Filters' }).click();
  await expect(search).toHaveValue('');
  for (const label of ['Type', 'Currency', 'Status', 'Category']) {
    await expect(page.getByRole('combobox', { name: new RegExp(`^${label}`) })).toHaveText('All');
  }
  await expect(paymentRow).toBeVisible();
  await expect(fundingRow).toBeVisible();

  // --- Sign out: the dashboard is closed to this browser.
  await page.goto('/dashboard');
  await expectDashboard(page, card, expected);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  const after = await page.request.get('/api/v1/wallet');
  expect(after.status()).toBe(401);
});
