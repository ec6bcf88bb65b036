// The dashboard and the agent pages on a 360 px phone (nothing runs off the side, the search's
// placeholder is readable whole), and the dashboard used with the keyboard alone: Tab, Enter,
// Space and Escape to move and act, typing for the values, never the mouse.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { signUpOwner } from '../support/owner';
import { auditPage } from '../support/page-checks';
import { openSettled } from '../support/session';

const AGENT_API = '/functions/v1/mcp-server';

/** An owner (signed in on `request`'s cookies) with a funded agent that paid once. */
async function ownerWithPaidAgent(request: APIRequestContext): Promise<{ id: string; name: string }> {
  const owner = await signUpOwner(request);
  const headers = { Authorization: `Bearer ${owner.accessToken}` };
  expect((await request.post('/api/v1/wallet/top-up', { headers, data: { amount: 100 } })).ok()).toBe(true);
  const name = 'A phone-sized agent with a long name that must wrap';
  const created = await request.post('/api/v1/agents', { headers, data: { name, description: 'Pays for a weather API from a workflow on a phone-sized screen' } });
  expect(created.ok(), await created.text()).toBe(true);
  const { agent, api_key } = (await created.json()) as { agent: { id: string; did: string }; api_key: { key: string } };
  expect((await request.post('/api/v1/wallet/fund-agent', { headers, data: { agent_id: agent.id, amount: 20 } })).ok()).toBe(true);
  const paid = await request.post(`${AGENT_API}/payment`, {
    headers: { 'X-Agent-DID': agent.did, Authorization: `Bearer ${api_key.key}` },
    data: { amount: 1.5, description: 'Weather API call', to_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', category: 'data_api', metadata: { request_id: 'req-360' } },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  return { id: agent.id, name };
}

async function expectNoSidewaysOverflow(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} overflows sideways`).toBeLessThanOrEqual(0);
}

/**
 * Presses Tab until `target` has the focus (at most `limit` times). The console's top bar has
 * about ten stops before the page, and a toast that is showing takes focus back to the
 * assistant's button until it expires: the limit leaves room for both.
 */
async function tabTo(page: Page, target: Locator, limit = 70) {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('dashboard at 360 px and by keyboard', () => {
  test('the dashboard, connect and transactions pages fit a 360 px screen, and the search placeholder is readable whole', async ({ page }, testInfo) => {
    const agent = await ownerWithPaidAgent(page.request);
    await page.setViewportSize({ width: 360, height: 780 });
    const pages = [
      { name: 'dashboard', path: '/dashboard', ready: page.getByRole('article', { name: agent.name }) },
      { name: 'connect', path: `/dashboard/agents/${agent.id}/connect`, ready: page.getByRole('region', { name: 'Workflow Checklist' }) },
      { name: 'transactions', path: `/dashboard/agents/${agent.id}/transactions`, ready: page.getByRole('table') },
    ];
    await openSettled(page, '/dashboard');
    for (const { name, path, ready } of pages) {
      await page.goto(path);
      await expect(ready).toBeVisible();
      await expectNoSidewaysOverflow(page, `${name} at 360 px`);
      await page.screenshot({ path: testInfo.outputPath(`${name}-360.png`), fullPage: true });
    }

    // The placeholder is drawn in the field's own box and font: the same words as the value
    // must fit without being cut (no hidden overflow either way), at 360 and at 390 px.
    const placeholder = 'Search description, address or metadata';
    const search = page.getByPlaceholder(placeholder);
    for (const width of [360, 390]) {
      await page.setViewportSize({ width, height: 780 });
      await expect(search).toHaveValue('');
      await page.getByRole('search', { name: 'Filter transactions' }).screenshot({ path: testInfo.outputPath(`search-${width}.png`) });
      await search.fill(placeholder);
      const box = await search.evaluate((element: HTMLTextAreaElement | HTMLInputElement) => ({
        sideways: element.scrollWidth - element.clientWidth,
        downwards: element.scrollHeight - element.clientHeight,
      }));
      expect(box.sideways, `the search text runs off the side at ${width}px`).toBeLessThanOrEqual(0);
      expect(box.downwards, `the search text is cut at the bottom at ${width}px`).toBeLessThanOrEqual(1);
      await expectNoSidewaysOverflow(page, `transactions with the search filled at ${width} px`);
      await search.fill('');
    }
  });

  test('the dashboard and the agent pages pass axe in both themes and fit 1280 and 390 px', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const agent = await ownerWithPaidAgent(page.request);
    await openSettled(page, '/dashboard');
    await auditPage(page, testInfo, 'dashboard', async () => {
      await page.goto('/dashboard');
      await expect(page.getByRole('article', { name: agent.name })).toBeVisible();
    });
    await auditPage(page, testInfo, 'transactions', async () => {
      await page.goto(`/dashboard/agents/${agent.id}/transactions`);
      await expect(page.getByRole('table')).toBeVisible();
    });
    await auditPage(page, testInfo, 'connect', async () => {
      await page.goto(`/dashboard/agents/${agent.id}/connect`);
      await expect(page.getByRole('region', { name: 'Workflow Checklist' })).toBeVisible();
    });
    await auditPage(page, testInfo, 'agent-not-found', async () => {
      await page.goto('/dashboard/agents/not-an-agent/transactions');
      await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible();
    });
  });

  test('an owner creates an agent and tops up the wallet with the keyboard alone', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpOwner(page.request);
    await openSettled(page, '/dashboard');
    await expect(page.getByTestId('wallet-total')).toHaveText('$0.00');

    // Create Agent: Enter opens the dialog with the name field focused; Enter submits the form.
    await tabTo(page, page.getByRole('button', { name: 'Create Agent' }));
    await page.keyboard.press('Enter');
    const create = page.getByRole('dialog', { name: 'Create New AI Agent' });
    await expect(create.getByLabel('Agent Name')).toBeFocused();
    await page.keyboard.type('Keyboard Agent');
    await page.keyboard.press('Enter');
    await expect(create).toBeHidden();

    // The API key dialog takes the focus; Space presses its buttons; Escape does not dismiss it.
    const keyDialog = page.getByRole('dialog', { name: 'API key for Keyboard Agent' });
    await expect(keyDialog).toBeVisible();
    const key = ((await keyDialog.getByTestId('api-key').textContent()) ?? '').trim();
    await page.keyboard.press('Escape');
    await expect(keyDialog).toBeVisible();
    await tabTo(page, keyDialog.getByRole('button', { name: 'Copy API key' }), 5);
    await page.keyboard.press('Space');
    await expect(page.locator('[data-sonner-toast]', { hasText: 'API key copied to clipboard' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await tabTo(page, keyDialog.getByRole('button', { name: 'I have saved the key' }), 5);
    await page.keyboard.press('Space');
    await expect(keyDialog).toBeHidden();
    await expect(page.getByText(key)).toHaveCount(0);
    const card = page.getByRole('article', { name: 'Keyboard Agent' });
    await expect(card).toBeVisible();
    await expect(page.getByTestId('summary-active-agents')).toHaveText('1');

    // Top Up in USDT: the amount field has the focus, Space opens the currency list, typing picks.
    await tabTo(page, page.getByRole('region', { name: 'Your Wallet' }).getByRole('button', { name: 'Top Up' }));
    await page.keyboard.press('Enter');
    const topUp = page.getByRole('dialog', { name: 'Top Up Wallet' });
    const amount = topUp.getByRole('spinbutton', { name: 'Amount' });
    await expect(amount).toBeFocused();
    await page.keyboard.type('55');
    await page.keyboard.press('Tab');
    const currency = topUp.getByRole('combobox', { name: 'Currency' });
    await expect(currency).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByRole('option', { name: 'USDC' })).toBeFocused();
    await page.keyboard.type('usdt');
    await expect(page.getByRole('option', { name: 'USDT' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(currency).toHaveText('USDT');
    await expect(currency).toBeFocused();
    await tabTo(page, topUp.getByRole('button', { name: 'Top Up' }), 5);
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-sonner-toast]', { hasText: 'Successfully added 55 USDT to your wallet' })).toBeVisible();
    await expect(topUp).toBeHidden();
    // The toasts sit at the bottom right, in a 'Notifications' region that Alt+T reaches.
    const toaster = page.locator('[data-sonner-toaster]');
    await expect(toaster).toHaveAttribute('data-y-position', 'bottom');
    await expect(toaster).toHaveAttribute('data-x-position', 'right');
    await expect(page.getByRole('region', { name: /^Notifications/ })).toBeAttached();
    await page.keyboard.press('Alt+KeyT');
    await expect(toaster).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('wallet-usdt')).toHaveText('55.00');
    await expect(page.getByTestId('wallet-total')).toHaveText('$55.00');

    // Escape closes a dialog and gives the focus back to the button that opened it.
    const send = page.getByRole('region', { name: 'Your Wallet' }).getByRole('button', { name: 'Send' });
    await tabTo(page, send);
    await page.keyboard.press('Enter');
    const fund = page.getByRole('dialog', { name: 'Fund Agent' });
    await expect(fund).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(fund).toBeHidden();
    await expect(send).toBeFocused();

    // The agent's links are reachable and followed with Enter.
    await tabTo(page, card.getByRole('link', { name: 'Connect Keyboard Agent' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Agent MCP Setup' })).toBeVisible();
  });
});
