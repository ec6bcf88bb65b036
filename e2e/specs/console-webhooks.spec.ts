// The webhooks page (/dashboard/webhooks) against a receiver this test runs on 127.0.0.1 (the
// sandbox's outbound policy lets webhooks reach loopback): add an endpoint, its signing secret
// shown once; an agent's payment delivers intent.created and settlement.completed, each
// verified with that secret as Standard Webhooks specifies; the delivery log shows them with
// their attempts; Redeliver sends one again with the same webhook-id; a rotated secret signs
// the next redelivery, the replaced one beside it for its overlap; a disabled endpoint receives
// nothing; delete leaves no endpoint.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { agentPay, createFundedAgent, type TestAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { auditPage, expectNoSeriousViolations } from '../support/page-checks';
import { openSettled } from '../support/session';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on a free loopback port that answers 204 and keeps what it got. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/purser/webhooks`,
    received,
    ofType: (type: string) => received.filter((item) => (JSON.parse(item.body) as { type: string }).type === type),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The Standard Webhooks check a receiver makes: throws unless the signature is the secret's. */
function verify(secret: string, item: Received): { id: string; type: string } {
  const header = (name: string) => String(item.headers[name] ?? '');
  const headers = { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') };
  return new Webhook(secret).verify(item.body, headers) as { id: string; type: string };
}

/** A payment through the agent API; it answers once settled. */
async function pay(request: APIRequestContext, agent: TestAgent, description: string): Promise<string> {
  const paid = await agentPay(request, agent, { amount: 1.25, description, idempotencyKey: randomUUID() });
  expect(paid.status(), await paid.text()).toBe(200);
  return ((await paid.json()) as { intent_id: string }).intent_id;
}

async function onlyEndpointId(request: APIRequestContext): Promise<string> {
  const listed = await request.get('/api/v1/webhooks');
  expect(listed.ok(), await listed.text()).toBe(true);
  const { endpoints } = (await listed.json()) as { endpoints: { id: string }[] };
  expect(endpoints).toHaveLength(1);
  return endpoints[0]!.id;
}

async function deliveryCount(request: APIRequestContext, endpointId: string): Promise<number> {
  const listed = await request.get(`/api/v1/webhooks/${endpointId}/deliveries?limit=100`);
  expect(listed.ok(), await listed.text()).toBe(true);
  return ((await listed.json()) as { deliveries: unknown[] }).deliveries.length;
}

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });

test('an owner adds an endpoint, sees its secret once, and follows, verifies and redelivers its deliveries', async ({ page, context }, testInfo) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const receiver = await startReceiver();
  try {
    const owner = await signUpOwner(page.request);
    await openSettled(page, '/dashboard/webhooks');
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No endpoints yet' })).toBeVisible();

    // --- Add the endpoint: the payment events are ticked, budget.threshold is offered too.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add endpoint' });
    for (const event of ['intent.created', 'intent.approved', 'settlement.completed', 'policy.violation']) {
      await expect(form.getByRole('checkbox', { name: new RegExp(`^${event.replace('.', '\\.')}`) })).toBeChecked();
    }
    await expect(form.getByRole('checkbox', { name: /^budget\.threshold/ })).not.toBeChecked();
    await form.getByLabel(/^Endpoint URL/).fill('ftp://example.com');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(form.getByText('Webhook URL must be an absolute http:// or https:// URL')).toBeVisible();
    await form.getByLabel(/^Endpoint URL/).fill(receiver.url);
    await form.getByLabel('Description').fill('E2E receiver');
    await form.getByRole('checkbox', { name: /^budget\.threshold/ }).check();
    await expectNoSeriousViolations(page, 'add endpoint dialog');
    await page.screenshot({ path: testInfo.outputPath('webhooks-add-dialog.png') });
    await form.getByRole('button', { name: 'Add endpoint' }).click();

    // --- The signing secret, this once.
    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(shown).toContainText('You will not see it again.');
    const secret = ((await shown.getByTestId('webhook-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^whsec_/);
    await expectNoSeriousViolations(page, 'signing secret dialog');
    await page.screenshot({ path: testInfo.outputPath('webhooks-secret-dialog.png') });
    await shown.getByRole('button', { name: 'Copy signing secret' }).click();
    await expect(toast(page, 'Signing secret copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole('button', { name: 'I have saved the secret' }).click();
    await expect(shown).toBeHidden();
    const endpoint = page.getByRole('listitem', { name: receiver.url });
    await expect(endpoint).toContainText('E2E receiver');
    await expect(endpoint).toContainText('Enabled');
    await expect(endpoint).toContainText('budget.threshold');
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await expect(endpoint).toBeVisible();
    expect(await page.content()).not.toContain(secret);
    await expect(page.getByText(/^No deliveries yet/)).toBeVisible();

    // --- An agent pays: intent.created and settlement.completed arrive, signed with the secret.
    const agent = await createFundedAgent(page.request, owner, { name: `Webhook bot ${Date.now() % 100_000}`, ownerTopUp: 100, fund: 40, maxTransaction: 50, dailyLimit: 200 });
    const intentId = await pay(page.request, agent, 'Webhook journey');
    await expect.poll(() => receiver.ofType('settlement.completed').length, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => receiver.ofType('intent.created').length, { timeout: 10_000 }).toBe(1);
    const settled = receiver.ofType('settlement.completed')[0]!;
    const settledEvent = verify(secret, settled);
    expect(settledEvent.type).toBe('settlement.completed');
    expect(settled.headers['webhook-id']).toBe(settledEvent.id);
    expect(JSON.stringify(settledEvent)).toContain(intentId);
    verify(secret, receiver.ofType('intent.created')[0]!);
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, settled)).toThrow();

    // --- The delivery log shows them after Refresh, each with its attempt.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const log = page.getByRole('region', { name: 'Deliveries' });
    const settledRow = log.getByRole('row').filter({ hasText: settledEvent.id });
    await expect(settledRow).toContainText('settlement.completed');
    await expect(settledRow).toContainText('Delivered');
    await expect(settledRow).toContainText('204');
    await expect(log.getByRole('row').filter({ hasText: 'intent.created' })).toContainText('Delivered');
    await settledRow.getByRole('button', { name: /^Show attempts of settlement\.completed/ }).click();
    const attempts = log.getByRole('table', { name: 'Attempts' });
    await expect(attempts.getByRole('row')).toHaveCount(2);
    await expect(attempts.getByRole('row').nth(1)).toContainText('Succeeded');
    await expect(log.getByRole('region', { name: 'Body sent' })).toContainText(intentId);
    await expectNoSeriousViolations(page, 'delivery attempts');
    await page.screenshot({ path: testInfo.outputPath('webhooks-attempts.png'), fullPage: true });

    await auditPage(page, testInfo, 'webhooks', async () => {
      await page.goto('/dashboard/webhooks');
      await expect(page.getByRole('region', { name: 'Deliveries' }).getByRole('row').filter({ hasText: settledEvent.id })).toBeVisible();
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    // --- Redeliver: the same event, the same webhook-id, a second attempt in the log.
    const row = page.getByRole('region', { name: 'Deliveries' }).getByRole('row').filter({ hasText: settledEvent.id });
    await row.getByRole('button', { name: /^Redeliver settlement\.completed/ }).click();
    await expect(toast(page, 'Redelivery of settlement.completed started')).toBeVisible();
    await expect.poll(() => receiver.ofType('settlement.completed').length, { timeout: 60_000 }).toBe(2);
    const again = receiver.ofType('settlement.completed')[1]!;
    expect(again.headers['webhook-id']).toBe(settledEvent.id);
    expect(verify(secret, again).id).toBe(settledEvent.id);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row.getByRole('cell').nth(4)).toHaveText('2');
    await row.getByRole('button', { name: /^Show attempts of settlement\.completed/ }).click();
    await expect(page.getByRole('table', { name: 'Attempts' }).getByRole('row')).toHaveCount(3);

    // --- Rotate the secret: shown once, and the next redelivery is signed with it and, for the
    // 24 hours of the overlap, with the replaced one too.
    await endpoint.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
    const confirmRotate = page.getByRole('dialog', { name: 'Rotate signing secret?' });
    await expectNoSeriousViolations(page, 'rotate secret dialog');
    await confirmRotate.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    await expect(rotated).toContainText('You will not see it again.');
    await expect(rotated).toContainText('The previous secret also signs every delivery until');
    const newSecret = ((await rotated.getByTestId('webhook-secret').textContent()) ?? '').trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole('button', { name: 'I have saved the secret' }).click();
    await expect(rotated).toBeHidden();
    await row.getByRole('button', { name: /^Redeliver settlement\.completed/ }).click();
    await expect.poll(() => receiver.ofType('settlement.completed').length, { timeout: 60_000 }).toBe(3);
    const third = receiver.ofType('settlement.completed')[2]!;
    expect(verify(newSecret, third).id).toBe(settledEvent.id);
    expect(verify(secret, third).id).toBe(settledEvent.id);

    // --- Disable: a payment now delivers nothing, and the log cannot redeliver.
    await endpoint.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await expect(toast(page, `${receiver.url} disabled`)).toBeVisible();
    await expect(endpoint).toContainText('Disabled');
    await expect(page.getByText('This endpoint is disabled')).toBeVisible();
    await expect(row.getByRole('button', { name: /^Redeliver settlement\.completed/ })).toBeDisabled();
    const endpointId = await onlyEndpointId(page.request);
    const deliveriesBefore = await deliveryCount(page.request, endpointId);
    const receivedBefore = receiver.received.length;
    // The agent API answers once the payment settled, so its events were recorded by then.
    await pay(page.request, agent, 'While disabled');
    expect(await deliveryCount(page.request, endpointId)).toBe(deliveriesBefore);
    expect(receiver.received.length).toBe(receivedBefore);

    // --- Edit: enable it again and narrow its events.
    await endpoint.getByRole('button', { name: `Edit ${receiver.url}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit endpoint' });
    await edit.getByRole('checkbox', { name: /^policy\.violation/ }).uncheck();
    await edit.getByLabel('Enabled').check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(endpoint).toContainText('Enabled');
    await expect(endpoint.getByText('policy.violation')).toHaveCount(0);

    // --- Delete, after confirming: no endpoint is left.
    await endpoint.getByRole('button', { name: `More actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Delete endpoint?' });
    await expect(confirmDelete).toContainText(receiver.url);
    await confirmDelete.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(toast(page, `Endpoint ${receiver.url} deleted`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No endpoints yet' })).toBeVisible();
    const listed = await page.request.get('/api/v1/webhooks');
    expect(listed.ok(), await listed.text()).toBe(true);
    expect(((await listed.json()) as { endpoints: unknown[] }).endpoints).toEqual([]);
  } finally {
    await receiver.close();
  }
});

test('the webhooks page shows its empty state to a new owner and passes the page checks', async ({ page }, testInfo) => {
  await signUpOwner(page.request);
  await openSettled(page, '/dashboard/webhooks');
  await auditPage(page, testInfo, 'webhooks-empty', async () => {
    await page.goto('/dashboard/webhooks');
    await expect(page.getByRole('heading', { name: 'No endpoints yet' })).toBeVisible();
  });
});
