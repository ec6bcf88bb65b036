// Keys from the console. The API keys page (/dashboard/api-keys): an owner API key is created
// with its scopes (at least one) and lifetime and shown once; the list shows its scopes and
// expiry; a read-only key reads the owner API and is refused (403 API_KEY_SCOPE_MISSING) an
// approval, which changes nothing; the list shows when it was last used, and once revoked it
// gets 401. The agent's key: rotated from its connect page, the old key gets 401 on the agent
// API and the new one, shown once, works.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { agentLedgerUsdc, agentPay, createFundedAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { auditPage, expectNoSeriousViolations } from '../support/page-checks';
import { openSettled } from '../support/session';

const AGENT_API = '/functions/v1/mcp-server';

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });

/** GET /api/v1/wallet with only the key (the `request` fixture has no browser cookies). */
async function walletStatus(request: APIRequestContext, key: string): Promise<number> {
  return (await request.get('/api/v1/wallet', { headers: { Authorization: `Bearer ${key}` } })).status();
}

test('an owner creates a read-only API key, sees it once, reads with it, is refused an approval with it, and revokes it', async ({ page, context, request }, testInfo) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await signUpOwner(page.request);
  // A payment waiting for the owner's approval, for the key to try to approve.
  const agent = await createFundedAgent(page.request, owner, { name: 'Scoped key agent', fund: 50, approvalThreshold: 5 });
  const paid = await agentPay(page.request, agent, { amount: 8, description: 'Waits for the owner', idempotencyKey: `scoped-key-${Date.now()}` });
  expect(paid.status(), await paid.text()).toBe(202);
  const { intent_id: intentId } = (await paid.json()) as { intent_id: string };
  const balance = await agentLedgerUsdc(page.request, agent);
  await openSettled(page, '/dashboard/api-keys');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  await expect(page.getByText('0 of 25 active')).toBeVisible();
  // The API reference is the server's page: a plain link, not a route of the app.
  await expect(page.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs/api');

  // --- Create: the whole key, this once.
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('Billing sync');
  // No scope chosen: the dialog says so and creates nothing.
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form.getByText('Choose at least one scope')).toBeVisible();
  await expect(form).toBeVisible();
  await expectNoSeriousViolations(page, 'create API key dialog, no scope chosen');
  const read = form.getByRole('checkbox', { name: 'read', exact: true });
  await expect(read).toHaveAccessibleDescription(/Read everything/);
  await read.check();
  await expect(form.getByText('Choose at least one scope')).toBeHidden();
  // 90 days unless chosen otherwise; this key lives 30.
  await expect(form.getByRole('radio', { name: '90 days' })).toBeChecked();
  await form.getByRole('radio', { name: '30 days' }).check();
  await expect(form).toContainText('Every key expires');
  await expectNoSeriousViolations(page, 'create API key dialog');
  await form.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'API key Billing sync' });
  await expect(shown).toContainText('You will not see it again.');
  const key = ((await shown.getByTestId('owner-api-key-secret').textContent()) ?? '').trim();
  expect(key).toMatch(/^psk_/);
  await expectNoSeriousViolations(page, 'new API key dialog');
  await shown.getByRole('button', { name: 'Copy API key' }).click();
  await expect(toast(page, 'API key copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await shown.getByRole('button', { name: 'I have saved the key' }).click();
  await expect(shown).toBeHidden();
  expect(await page.content()).not.toContain(key);

  const row = page.getByRole('row').filter({ hasText: 'Billing sync' });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');
  await expect(row).toContainText(key.slice(0, 16));
  await expect(row).toContainText('read');
  await expect(row).not.toContainText('payments:approve');
  // It expires in 30 days: one of the row's times is then, give or take the minutes this test took.
  const times = await row.locator('time').evaluateAll((elements) => elements.map((element) => Date.parse(element.getAttribute('datetime') ?? '')));
  expect(times.some((time) => Math.abs(time - (Date.now() + 30 * 86_400_000)) < 10 * 60_000), JSON.stringify(times)).toBe(true);
  await expect(page.getByText('1 of 25 active')).toBeVisible();

  // --- It reads the owner API, is refused an approval (nothing changes), and the list shows it was used.
  expect(await walletStatus(request, key)).toBe(200);
  const auth = { Authorization: `Bearer ${key}` };
  const approve = await request.post(`/api/v1/intents/${intentId}/approve`, { headers: auth, data: { reason: 'by a read-only key' } });
  expect(approve.status()).toBe(403);
  const refusal = ((await approve.json()) as { error: { code: string; message: string } }).error;
  expect(refusal.code).toBe('API_KEY_SCOPE_MISSING');
  expect(refusal.message).toContain('payments:approve');
  const intent = await request.get(`/api/v1/intents/${intentId}`, { headers: auth });
  expect(((await intent.json()) as { status: string }).status).toBe('pending_approval');
  expect(await agentLedgerUsdc(page.request, agent)).toBe(balance);
  await page.reload();
  await expect(row).toContainText('Active');
  await expect(row).not.toContainText('Never');
  expect(await page.content()).not.toContain(key);

  await auditPage(page, testInfo, 'api-keys', async () => {
    await page.goto('/dashboard/api-keys');
    await expect(page.getByRole('row').filter({ hasText: 'Billing sync' })).toBeVisible();
  });
  await auditPage(page, testInfo, 'api-keys-create', async () => {
    await page.goto('/dashboard/api-keys');
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Create API key' }).getByRole('checkbox', { name: 'webhooks:admin', exact: true })).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Create API key' })).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 900 });

  // --- Revoke, after confirming: the key is refused from then on.
  await row.getByRole('button', { name: 'Revoke Billing sync' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key?' });
  await expect(confirm).toContainText('stops working immediately');
  await expectNoSeriousViolations(page, 'revoke API key dialog');
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(toast(page, 'API key Billing sync revoked')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: 'Revoke Billing sync' })).toHaveCount(0);
  await expect(page.getByText('0 of 25 active')).toBeVisible();
  expect(await walletStatus(request, key)).toBe(401);
});

test("rotating an agent's key from the console retires the old key on the agent API and shows the new one once", async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = await signUpOwner(page.request);
  const headers = { Authorization: `Bearer ${owner.accessToken}` };
  const created = await page.request.post('/api/v1/agents', { headers, data: { name: `Key rotation bot ${Date.now() % 100_000}`, max_transaction_amount: 10, max_daily_limit: 50 } });
  expect(created.ok(), await created.text()).toBe(true);
  const { agent, api_key } = (await created.json()) as { agent: { id: string; did: string }; api_key: { key: string } };
  const balance = async (key: string) => (await request.get(`${AGENT_API}/balance`, { headers: { 'X-Agent-DID': agent.did, Authorization: `Bearer ${key}` } })).status();
  expect(await balance(api_key.key)).toBe(200);

  await openSettled(page, `/dashboard/agents/${agent.id}/connect`);
  await page.getByRole('button', { name: 'Rotate API key' }).click();
  const confirm = page.getByRole('dialog', { name: 'Rotate API key?' });
  await expect(confirm).toContainText('stops working immediately');
  await confirm.getByRole('button', { name: 'Rotate key' }).click();

  const shown = page.getByRole('dialog', { name: 'New API key' });
  await expect(shown).toContainText('It will not be shown again.');
  const newKey = ((await shown.locator('code').textContent()) ?? '').trim();
  expect(newKey).not.toBe('');
  expect(newKey).not.toBe(api_key.key);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  expect(await page.content()).not.toContain(newKey);

  expect(await balance(api_key.key)).toBe(401);
  expect(await balance(newKey)).toBe(200);
});
