// The policies page (/dashboard/policies): a shadow policy that would refuse a payment lets it
// through and lists it under 'Would have blocked' (linking to the payment); an enforced policy is
// created (the server schema's messages under the fields first, its preferred protocol chosen),
// edited into a new version, switched off and deleted. Accessibility and screenshots at 1280 and 390 px in both themes.
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { agentPay, createFundedAgent, PAYEE, type TestAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { auditPage, expectNoSeriousViolations } from '../support/page-checks';
import { openSettled } from '../support/session';

/** A signed-in owner (page.request shares the page's cookies) with a funded agent. */
async function ownerWithAgent(request: APIRequestContext): Promise<TestAgent> {
  const owner = await signUpOwner(request);
  return createFundedAgent(request, owner, { name: `Policy bot ${Date.now() % 100_000}`, ownerTopUp: 100, fund: 30, maxTransaction: 50, dailyLimit: 200 });
}

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });
const policyCard = (page: Page, name: string) => page.getByRole('article', { name });

async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('policies page', () => {
  test("a shadow policy lets a payment it would refuse through and lists it under 'Would have blocked'", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    const agent = await ownerWithAgent(page.request);
    await openSettled(page, '/dashboard/policies');
    await expect(page.getByRole('heading', { level: 1, name: 'Policies' })).toBeVisible();
    const empty = page.getByRole('region', { name: 'No policies yet' });
    await expect(empty).toBeVisible();

    await empty.getByRole('button', { name: 'Create policy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create policy' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Tight cap');
    await choose(page, dialog, 'Applies to', agent.name);
    await dialog.getByRole('switch', { name: /^Shadow mode/ }).check();
    await dialog.getByRole('textbox', { name: 'Max per payment' }).fill('5');
    await expectNoSeriousViolations(page, 'create policy dialog');
    await dialog.getByRole('button', { name: 'Create policy' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Policy "Tight cap" created')).toBeVisible();

    const card = policyCard(page, 'Tight cap');
    await expect(card.getByText('Shadow', { exact: true })).toBeVisible();
    await expect(card.getByText('v1', { exact: true })).toBeVisible();
    await expect(card).toContainText(`Applies to ${agent.name} · version 1`);
    await expect(card.getByRole('list', { name: 'Rules' })).toHaveText('Up to $5.00 per payment');

    // Above the shadow cap: the payment still settles.
    const paid = await agentPay(page.request, agent, { amount: 7.25, description: 'Shadow checked lookup', idempotencyKey: randomUUID() });
    expect(paid.status(), await paid.text()).toBe(200);
    const payment = (await paid.json()) as { intent_id: string; status: string };
    expect(payment.status).toBe('settled');

    await card.getByRole('button', { name: 'Would have blocked' }).click();
    const blocked = card.getByRole('list', { name: 'Payments Tight cap would have blocked' });
    const link = blocked.getByRole('link', { name: '$7.25 USDC · Shadow checked lookup' });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', `/dashboard/payments/${payment.intent_id}`);
    await expect(blocked).toContainText('settled');
    await expect(blocked).toContainText('version 1');
    await expect(blocked).toContainText('at most $5.00 per payment; this payment is $7.25.');
    await card.screenshot({ path: testInfo.outputPath('shadow-policy-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await card.screenshot({ path: testInfo.outputPath('shadow-policy-390.png') });
  });

  test('an owner creates, edits into a new version, switches off and deletes a policy', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await signUpOwner(page.request);
    await openSettled(page, '/dashboard/policies');
    await page.getByRole('button', { name: 'Create policy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create policy' });

    // Nothing set: the schema asks for a rule; malformed rules get its messages under their fields.
    await dialog.getByRole('button', { name: 'Create policy' }).click();
    await expect(dialog.getByText('Please enter a policy name')).toBeVisible();
    await expect(dialog.getByRole('alert')).toContainText('A policy must set at least one rule');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Weekday data');
    await dialog.getByRole('textbox', { name: 'Monthly budget' }).fill('-1');
    await dialog.getByRole('textbox', { name: 'Allowed countries' }).fill('US, UK');
    await dialog.getByRole('textbox', { name: 'Blocked merchants' }).fill('0x1234');
    await dialog.getByRole('button', { name: 'Add time window' }).click();
    const window = dialog.getByRole('group', { name: 'Time window 1', exact: true });
    await window.getByRole('textbox', { name: 'End' }).fill('25:00');
    await dialog.getByRole('textbox', { name: 'Approval time box' }).fill('3 months');
    await dialog.getByRole('button', { name: 'Create policy' }).click();
    await expect(dialog.getByText('monthlyBudget must not be negative')).toBeVisible();
    await expect(dialog.getByText(/"UK" is not an assigned ISO 3166-1 alpha-2 country code \(did you mean GB\?\)/)).toBeVisible();
    await expect(dialog.getByText(/"0x1234" is not an EVM address/)).toBeVisible();
    await expect(window).toContainText('Time window end must be a time HH:MM from 00:00 to 24:00');
    await expect(dialog.getByText('timeBox must be a duration such as 30m, 24h, 7d or 2w')).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Monthly budget' })).toBeFocused();
    await expectNoSeriousViolations(page, 'policy form with errors');
    await page.screenshot({ path: testInfo.outputPath('policy-form-errors-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath('policy-form-errors-390.png') });
    await page.setViewportSize({ width: 1280, height: 900 });

    await dialog.getByRole('textbox', { name: 'Monthly budget' }).fill('250');
    await dialog.getByRole('textbox', { name: 'Allowed countries' }).fill('US, GB');
    await dialog.getByRole('textbox', { name: 'Blocked merchants' }).fill(`bad.example\n${PAYEE.toLowerCase().replace('0x7', '0x8')}`);
    await window.getByRole('button', { name: 'Saturday' }).click();
    await window.getByRole('textbox', { name: 'End' }).fill('18:30');
    await dialog.getByRole('textbox', { name: 'Allowed categories' }).fill('data_api, compute');
    await dialog.getByRole('textbox', { name: 'Approval above' }).fill('20');
    await choose(page, dialog, 'KYA escalation', 'Up to moderate: your approval may stand in for the moderate tier');
    await dialog.getByRole('textbox', { name: 'Approval time box' }).fill('24h');
    await expect(dialog.getByRole('combobox', { name: 'Preferred protocol' })).toHaveText('No preference (cheaper, then x402)');
    await choose(page, dialog, 'Preferred protocol', 'MPP');
    await dialog.getByRole('button', { name: 'Create policy' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Policy "Weekday data" created')).toBeVisible();

    const card = policyCard(page, 'Weekday data');
    await expect(card.getByText('v1', { exact: true })).toBeVisible();
    await expect(card).toContainText('Applies to all agents · version 1');
    const rules = card.getByRole('list', { name: 'Rules' });
    for (const line of [
      '$250.00 per calendar month',
      'Owner approval above $20.00',
      'Only categories: data_api, compute',
      'Blocks merchants: bad.example, 0x8099…79c8',
      'Only countries: US, GB',
      'Only Mon–Sat 09:00–18:30 UTC',
      'Approval may stand in for KYA up to moderate',
      'Approvals wait up to 24h',
      'Pays in MPP when a seller offers x402 and MPP',
    ]) {
      await expect(rules.getByText(line, { exact: true })).toBeVisible();
    }

    // A second policy of the same name: the server's message, under the name.
    await page.getByRole('button', { name: 'Create policy' }).click();
    const duplicate = page.getByRole('dialog', { name: 'Create policy' });
    await duplicate.getByRole('textbox', { name: 'Name' }).fill('Weekday data');
    await duplicate.getByRole('textbox', { name: 'Max per payment' }).fill('1');
    await duplicate.getByRole('button', { name: 'Create policy' }).click();
    await expect(duplicate.getByText(/^A policy named "Weekday data" already exists/)).toBeVisible();
    await duplicate.getByRole('button', { name: 'Cancel' }).click();
    await expect(duplicate).toBeHidden();

    // Editing the rules writes version 2; the form starts from version 1's rules.
    await card.getByRole('button', { name: 'Edit Weekday data' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit policy Weekday data' });
    await expect(edit).toContainText('creates version 2');
    await expect(edit.getByRole('textbox', { name: 'Monthly budget' })).toHaveValue('250');
    await expect(edit.getByRole('textbox', { name: 'Allowed countries' })).toHaveValue('US, GB');
    await expect(edit.getByRole('group', { name: 'Time window 1', exact: true }).getByRole('button', { name: 'Saturday' })).toHaveAttribute('aria-pressed', 'true');
    await expect(edit.getByRole('combobox', { name: 'Preferred protocol' })).toHaveText('MPP');
    await edit.getByRole('textbox', { name: 'Max per payment' }).fill('15');
    await edit.getByRole('textbox', { name: 'Allowed categories' }).fill('');
    await choose(page, edit, 'Preferred protocol', 'x402');
    await edit.getByRole('button', { name: 'Save policy' }).click();
    await expect(edit).toBeHidden();
    await expect(toast(page, 'Policy "Weekday data" saved as version 2')).toBeVisible();
    await expect(card.getByText('v2', { exact: true })).toBeVisible();
    await expect(rules.getByText('Up to $15.00 per payment', { exact: true })).toBeVisible();
    await expect(rules.getByText(/^Only categories/)).toHaveCount(0);
    await expect(rules.getByText('Pays in x402 when a seller offers x402 and MPP', { exact: true })).toBeVisible();

    // Off and on again: the same version.
    await card.getByRole('switch', { name: 'Enabled' }).click();
    await expect(toast(page, 'Policy "Weekday data" disabled')).toBeVisible();
    await expect(card.getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
    await expect(card.getByText('Disabled', { exact: true })).toBeVisible();
    await expect(card.getByText('v2', { exact: true })).toBeVisible();
    const listed = await page.request.get('/api/v1/policies');
    expect(listed.ok(), await listed.text()).toBe(true);
    expect(await listed.json()).toEqual([
      expect.objectContaining({ name: 'Weekday data', version: 2, enabled: false, agentId: null, rules: expect.objectContaining({ preferredProtocol: 'x402' }) }),
    ]);

    await auditPage(page, testInfo, 'policies', async () => {
      await page.goto('/dashboard/policies');
      await expect(card.getByText('v2', { exact: true })).toBeVisible({ timeout: 30_000 });
    });

    await card.getByRole('button', { name: 'Delete Weekday data' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete policy Weekday data?' });
    await expect(confirm).toContainText('stops applying');
    await confirm.getByRole('button', { name: 'Delete policy' }).click();
    await expect(confirm).toBeHidden();
    await expect(toast(page, 'Policy "Weekday data" deleted')).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'No policies yet' })).toBeVisible();
  });
});
