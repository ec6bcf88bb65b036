// The audit page (/dashboard/audit): the owner's chain verified ("Verified through entry N"),
// entries newest first with links to the payment and filters kept in the address, and the JSON
// Lines export, downloaded by the browser with its session cookie, passing
// `npm run audit:verify -- --file`. An entry altered in the database reads "Broken at entry N".
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signUpOwner } from '../support/owner';
import { auditPage } from '../support/page-checks';
import { openSettled } from '../support/session';
import { tamperOwnerAuditEntry } from '../support/tamper-audit';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const AGENT_API = '/functions/v1/mcp-server';
const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** An owner whose agent paid once: agent, wallet and payment entries in the owner's chain. */
async function ownerWithPayment(request: APIRequestContext): Promise<{ intentId: string }> {
  const owner = await signUpOwner(request);
  const headers = { Authorization: `Bearer ${owner.accessToken}` };
  const topUp = await request.post('/api/v1/wallet/top-up', { headers, data: { amount: 50 } });
  expect(topUp.ok(), await topUp.text()).toBe(true);
  const created = await request.post('/api/v1/agents', { headers, data: { name: `Audit bot ${Date.now() % 100_000}`, max_transaction_amount: 20, max_daily_limit: 100 } });
  expect(created.ok(), await created.text()).toBe(true);
  const { agent, api_key } = (await created.json()) as { agent: { id: string; did: string }; api_key: { key: string } };
  const funded = await request.post('/api/v1/wallet/fund-agent', { headers, data: { agent_id: agent.id, amount: 20 } });
  expect(funded.ok(), await funded.text()).toBe(true);
  const paid = await request.post(`${AGENT_API}/payment`, {
    headers: { 'X-Agent-DID': agent.did, Authorization: `Bearer ${api_key.key}` },
    data: { amount: 2.5, description: 'Audit journey', to_address: PAYEE, category: 'data_api' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  return { intentId: ((await paid.json()) as { intent_id: string }).intent_id };
}

const verification = (page: Page) => page.getByTestId('audit-verification');
const entries = (page: Page) => page.getByRole('region', { name: 'Audit entries' });

test('the audit page verifies the chain, lists and filters entries, and exports a file audit:verify accepts', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const { intentId } = await ownerWithPayment(page.request);
  await openSettled(page, '/dashboard/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const verified = verification(page).getByText(/^Verified through entry \d+$/);
  await expect(verified).toBeVisible();
  const through = Number(/(\d+)$/.exec((await verified.textContent()) ?? '')![1]);
  expect(through).toBeGreaterThan(1);

  // --- Newest first, numbered by the chain; the payment's subject leads to its page.
  const rows = entries(page).getByRole('button', { name: /^Show data of entry/ });
  await expect(rows.first()).toHaveAccessibleName(`Show data of entry ${through}`);
  const paymentLink = entries(page).getByRole('link', { name: `payment_intent:${intentId}` }).first();
  await expect(paymentLink).toHaveAttribute('href', `/dashboard/payments/${intentId}`);

  // --- Opened, an entry shows its data and the hashes chaining it.
  await rows.first().click();
  await expect(entries(page).getByRole('region', { name: `Data of entry ${through}` })).toBeVisible();
  await expect(entries(page).getByText('Previous hash')).toBeVisible();

  // --- Filters: only this payment's entries; then one action; kept in the address.
  const paymentRow = entries(page).getByRole('row').filter({ has: page.getByRole('link', { name: `payment_intent:${intentId}` }) }).first();
  await paymentRow.getByRole('button', { name: `Show only entries of payment_intent:${intentId}` }).click();
  await expect(page).toHaveURL(new RegExp(`subject=payment_intent%3A${intentId}`));
  await expect(page.getByRole('search').getByLabel('Subject')).toHaveValue(`payment_intent:${intentId}`);
  const subjects = entries(page).getByRole('link', { name: /^payment_intent:/ });
  await expect(subjects.first()).toBeVisible();
  for (const name of await subjects.allTextContents()) expect(name).toBe(`payment_intent:${intentId}`);
  const action = ((await entries(page).getByRole('row').nth(1).getByRole('cell').nth(2).textContent()) ?? '').trim();
  expect(action).not.toBe('');
  await page.getByRole('search').getByLabel('Action').fill(action);
  await page.getByRole('search').getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`action=${encodeURIComponent(action)}`));
  await expect(entries(page).getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText(action);
  await page.getByRole('search').getByLabel('Action').fill('no.such.action');
  await page.getByRole('search').getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText('No entries match these filters.')).toBeVisible();
  await page.getByRole('search').getByRole('button', { name: 'Clear' }).click();
  await expect(page).toHaveURL(/\/dashboard\/audit$/);
  await expect(rows.first()).toHaveAccessibleName(`Show data of entry ${through}`);

  // --- The export: a plain link the browser downloads with its session cookie.
  const exportLink = page.getByRole('link', { name: 'Download export (JSON Lines)' });
  await expect(exportLink).toHaveAttribute('href', '/api/v1/audit-entries/export');
  const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^purser-audit-.*\.jsonl$/);
  const file = testInfo.outputPath('audit-export.jsonl');
  await download.saveAs(file);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  expect(lines.length).toBeGreaterThanOrEqual(through);
  const output = execFileSync(process.execPath, ['scripts/run-ts.mjs', 'server/src/cli/audit-verify.ts', '--file', file], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  expect(output).toContain('audit chains ok');

  await auditPage(page, testInfo, 'audit', async () => {
    await page.goto('/dashboard/audit');
    await expect(verification(page)).toContainText('Verified through entry');
    await expect(rows.first()).toBeVisible();
  });
});

test('one stored entry altered in the database reads "Broken at entry N" with the reason, and the export fails audit:verify there', async ({ page }) => {
  test.setTimeout(90_000);
  await ownerWithPayment(page.request);
  await openSettled(page, '/dashboard/audit');
  await expect(verification(page)).toContainText('Verified through entry');
  const user = await page.request.get('/auth/v1/user');
  expect(user.ok(), await user.text()).toBe(true);
  const { id: ownerId } = (await user.json()) as { id: string };

  // Someone with database access rewrites entry 3 of the owner's chain in place.
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the e2e suite through `npm test -- e2e`');
  await tamperOwnerAuditEntry(dataDir, ownerId, 3);
  await page.getByRole('button', { name: 'Verify again' }).click();
  await expect(verification(page)).toContainText('Broken at entry 3: hash mismatch');
  await expect(verification(page)).toContainText('Entries 1 to 2 are sound');

  // The export carries the altered entry as stored, and the CLI finds it too.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: /Download export/ }).click();
  const file = await (await download).path();
  const verify = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'server/src/cli/audit-verify.ts', '--file', file], { cwd: ROOT, encoding: 'utf8' });
  expect(verify.status, verify.stdout + verify.stderr).toBe(1);
  expect(verify.stdout).toMatch(/broken at chain_seq 3\b.*hash mismatch/);
});

test('a new owner’s audit page says there are no entries yet', async ({ page }) => {
  await signUpOwner(page.request);
  await openSettled(page, '/dashboard/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(verification(page)).toContainText('No entries yet');
  await expect(page.getByText('No audit entries yet.')).toBeVisible();
});
