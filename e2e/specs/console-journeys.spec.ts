// The owner console's acceptance journeys (issue 23), each as an owner lives it in the browser
// while an agent calls the agent API: a payment waits for approval and is approved or rejected
// from the console while its drawing lights up; the kill switch stops every agent (and cancels
// on chain what one had signed) and Resume brings them back. Every journey that moves money
// checks the agent's ledger balance moved exactly once, or not at all.
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createPublicClient, http, parseAbi, type Address, type Hex } from 'viem';
import { AGENT_API, agentHeaders, agentLedgerUsdc, agentPay, atomicUsdc, createFundedAgent, type TestAgent } from '../support/agents';
import { signUpOwner, type TestOwner } from '../support/owner';
import { openSettled } from '../support/session';
import { startWebhookReceiver } from '../support/webhook-receiver';

const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]', { hasText: text });
const node = (page: Page, step: string) => page.getByTestId(`flow-node-${step}`);

interface PaymentDetail {
  intent: { status: string; amountExact: string };
  ledgerEntries: { type: string; account: string; amount: string }[];
  auditEntries: { action: string; data: unknown }[];
}

async function detailOf(request: APIRequestContext, owner: TestOwner, intentId: string): Promise<PaymentDetail> {
  const response = await request.get(`/api/v1/intents/${intentId}/detail`, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as PaymentDetail;
}

/** An agent whose payments above $5 wait for the owner, funded with $50. */
async function agentWithApproval(request: APIRequestContext, owner: TestOwner, name: string): Promise<TestAgent> {
  return createFundedAgent(request, owner, { name, fund: 50, approvalThreshold: 5 });
}

test.describe.configure({ mode: 'serial' });

test('a payment above the approval threshold is approved from the console while its drawing lights up; the ledger moves once', async ({ page }) => {
  test.setTimeout(120_000);
  const owner = await signUpOwner(page.request);
  const agent = await agentWithApproval(page.request, owner, 'Approval journey agent');
  const before = await agentLedgerUsdc(page.request, agent);
  await openSettled(page, '/dashboard');
  const badge = page.getByTestId('approvals-badge');

  // The agent pays $8: above the threshold, the call answers 202 and the payment waits.
  const key = randomUUID();
  const first = await agentPay(page.request, agent, { amount: 8, description: 'Approval journey dataset', idempotencyKey: key });
  expect(first.status(), await first.text()).toBe(202);
  const { intent_id: intentId, status } = (await first.json()) as { intent_id: string; status: string };
  expect(status).toBe('pending_approval');

  // The badge counts it without a reload; the inbox lists it with the time left.
  await expect(badge).toHaveText('1');
  await page.getByRole('link', { name: /^Approvals/ }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/approvals$/);
  const row = page.locator(`[data-testid="approval-row"][data-intent-id="${intentId}"]`);
  await expect(row).toContainText('8.00');
  await expect(row).toContainText(/expires in/i);

  // Open the payment: the drawing shows the approval step waiting.
  await page.goto(`/dashboard/payments/${intentId}`);
  await expect(node(page, 'approval')).toHaveAttribute('data-state', 'running');
  await expect(node(page, 'policy_gate')).toHaveAttribute('data-state', 'completed');
  await expect(node(page, 'reserve')).toHaveAttribute('data-state', 'waiting');

  // Approve: hold, execute, capture and settlement light up as the workflow reports them.
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(toast(page, /approved/i)).toBeVisible();
  for (const step of ['approval', 'reserve', 'execute', 'capture', 'settlement.completed']) {
    await expect(node(page, step), step).toHaveAttribute('data-state', 'completed', { timeout: 20_000 });
  }
  await expect(node(page, 'release')).toHaveAttribute('data-state', 'skipped');
  await expect(badge).toHaveText('0');

  // The agent's repeated call with the same key answers settled; the money moved exactly once.
  const again = await agentPay(page.request, agent, { amount: 8, description: 'Approval journey dataset', idempotencyKey: key });
  expect(again.status(), await again.text()).toBe(200);
  expect(((await again.json()) as { status: string; intent_id: string }).intent_id).toBe(intentId);
  expect(await agentLedgerUsdc(page.request, agent)).toBe(before - 8_000_000n);
  const detail = await detailOf(page.request, owner, intentId);
  expect(detail.intent.status).toBe('settled');
  expect(detail.ledgerEntries.filter((entry) => entry.account === 'agent').map((entry) => atomicUsdc(entry.amount.replace('-', '')))).toEqual([8_000_000n]);
});

test('a payment rejected from the console with a note is refused to the agent, nothing moves, and the note is in the audit entry', async ({ page }) => {
  test.setTimeout(120_000);
  const owner = await signUpOwner(page.request);
  const agent = await agentWithApproval(page.request, owner, 'Rejection journey agent');
  const before = await agentLedgerUsdc(page.request, agent);
  await openSettled(page, '/dashboard/approvals');

  const key = randomUUID();
  const first = await agentPay(page.request, agent, { amount: 9.5, description: 'Rejection journey purchase', idempotencyKey: key });
  expect(first.status(), await first.text()).toBe(202);
  const { intent_id: intentId } = (await first.json()) as { intent_id: string };

  const row = page.locator(`[data-testid="approval-row"][data-intent-id="${intentId}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Reject' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill('Not a vendor we use');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(toast(page, /rejected/i)).toBeVisible();
  await expect(row).toBeHidden();
  await expect(page.getByTestId('approvals-badge')).toHaveText('0');

  const again = await agentPay(page.request, agent, { amount: 9.5, description: 'Rejection journey purchase', idempotencyKey: key });
  expect(again.status(), await again.text()).toBe(422);
  expect(JSON.stringify(await again.json())).toMatch(/reject/i);
  expect(await agentLedgerUsdc(page.request, agent)).toBe(before);

  const detail = await detailOf(page.request, owner, intentId);
  expect(detail.intent.status).toBe('rejected');
  expect(detail.ledgerEntries).toEqual([]);
  expect(JSON.stringify(detail.auditEntries.filter((entry) => /reject/.test(entry.action)))).toContain('Not a vendor we use');

  // The payment page shows the same: the approval step ended, nothing held.
  await page.goto(`/dashboard/payments/${intentId}`);
  await expect(node(page, 'approval')).toHaveAttribute('data-state', 'skipped');
  // Ended before the hold: the steps it never reached are drawn as skipped.
  await expect(node(page, 'reserve')).toHaveAttribute('data-state', 'skipped');
});

const FIAT_TOKEN = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);
const USDC: Address = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';

test('pause all stops every agent and cancels an outstanding x402 authorisation on chain; resume brings them back', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const rpcUrl = process.env.E2E_CHAIN_RPC_URL;
  expect(rpcUrl, 'E2E_CHAIN_RPC_URL names the product\'s sandbox chain (set by scripts/test.mjs)').toBeTruthy();
  const chain = createPublicClient({ transport: http(rpcUrl) });
  const owner = await signUpOwner(page.request);
  const payer = await createFundedAgent(page.request, owner, { name: 'Kill switch x402 agent', fund: 5 });
  const other = await createFundedAgent(page.request, owner, { name: 'Kill switch ledger agent', fund: 5 });

  // The x402 agent signs a payment for the sandbox's paid API and never sends it on.
  const requirements = await page.request.post(`${AGENT_API}/x402/requirements`, { headers: agentHeaders(payer), data: { url: `${baseURL}/sandbox/paid/weather` } });
  expect(requirements.status(), await requirements.text()).toBe(200);
  const { recommended } = (await requirements.json()) as { recommended: unknown };
  const signed = await page.request.post(`${AGENT_API}/x402/sign-payment`, { headers: agentHeaders(payer), data: { requirement: recommended, x402_version: 2 } });
  expect(signed.status(), await signed.text()).toBe(200);
  const { x_payment_header: header, intent_id: x402IntentId } = (await signed.json()) as { x_payment_header: string; intent_id: string };
  const { authorization } = (JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { payload: { authorization: { from: Address; nonce: Hex } } }).payload;
  expect(await chain.readContract({ address: USDC, abi: FIAT_TOKEN, functionName: 'authorizationState', args: [authorization.from, authorization.nonce] })).toBe(false);
  // The signed payment holds its price.
  expect(await agentLedgerUsdc(page.request, payer)).toBeLessThan(5_000_000n);

  // Pause all, with one confirmation.
  await openSettled(page, '/dashboard');
  await page.getByRole('button', { name: 'Pause all agents' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('2');
  await confirm.getByRole('button', { name: /^Pause/ }).click();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();

  // Every agent is refused; the signed authorisation is cancelled on chain and its hold released.
  for (const agent of [payer, other]) {
    const refused = await agentPay(page.request, agent, { amount: 1, description: 'While paused', idempotencyKey: randomUUID() });
    expect(refused.status(), await refused.text()).toBe(403);
  }
  await expect
    .poll(() => chain.readContract({ address: USDC, abi: FIAT_TOKEN, functionName: 'authorizationState', args: [authorization.from, authorization.nonce] }), {
      message: 'the authorisation is spent on chain by its cancellation',
      timeout: 20_000,
    })
    .toBe(true);
  await expect.poll(async () => (await detailOf(page.request, owner, x402IntentId)).intent.status, { timeout: 20_000 }).toBe('failed');
  const x402Detail = (await detailOf(page.request, owner, x402IntentId)) as PaymentDetail & { rail: { declineCode: string | null } };
  expect(x402Detail.rail.declineCode).toBe('authorization_cancelled');

  // Resume: the cancelled authorisation's hold came back in full, and both agents pay again.
  await page.getByRole('button', { name: 'Resume' }).click();
  const resume = page.getByRole('dialog');
  if (await resume.isVisible()) await resume.getByRole('button', { name: /^Resume/ }).click();
  await expect(page.getByRole('button', { name: 'Pause all agents' })).toBeVisible();
  expect(await agentLedgerUsdc(page.request, payer)).toBe(5_000_000n);
  for (const agent of [payer, other]) {
    const before = await agentLedgerUsdc(page.request, agent);
    const paid = await agentPay(page.request, agent, { amount: 1, description: 'After resume', idempotencyKey: randomUUID() });
    expect(paid.status(), await paid.text()).toBe(200);
    expect(await agentLedgerUsdc(page.request, agent)).toBe(before - 1_000_000n);
  }
});

type BudgetAlertEvent = { id: string; type: string; data: { alert: { threshold: number; scope: string } } };

test('crossing 80 % then 100 % of a daily limit delivers one signed budget.threshold each; a redelivery from the console arrives too', async ({ page }) => {
  test.setTimeout(210_000);
  const receiver = await startWebhookReceiver<BudgetAlertEvent>('/hooks/budget');
  try {
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: 'Budget journey agent', fund: 20, dailyLimit: 10 });

    // The endpoint is made in the console; its signing secret is shown there once.
    await openSettled(page, '/dashboard/webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const create = page.getByRole('dialog', { name: 'Add endpoint' });
    await create.getByLabel(/^Endpoint URL/).fill(receiver.url);
    const checked = create.getByRole('checkbox', { checked: true });
    while ((await checked.count()) > 0) await checked.first().uncheck();
    await create.getByRole('checkbox', { name: /^budget\.threshold/ }).check();
    await create.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = ((await shown.getByTestId('webhook-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^whsec_/);
    receiver.secret.value = secret;
    await shown.getByRole('button', { name: 'I have saved the secret' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveCount(0);

    const before = await agentLedgerUsdc(page.request, agent);
    for (const [amount, description] of [[8, 'Budget journey: 80 %'], [2, 'Budget journey: 100 %']] as const) {
      const paid = await agentPay(page.request, agent, { amount, description, idempotencyKey: randomUUID() });
      expect(paid.status(), await paid.text()).toBe(200);
    }
    expect(await agentLedgerUsdc(page.request, agent)).toBe(before - 10_000_000n);
    // Over the limit now: refused, and no third alert.
    const refused = await agentPay(page.request, agent, { amount: 0.5, description: 'Budget journey: over', idempotencyKey: randomUUID() });
    expect(refused.status(), await refused.text()).toBe(422);

    // Delivered by the product's worker: on a loaded machine a workflow can take a while to start.
    await expect.poll(() => receiver.received.map((event) => event.body.data.alert.threshold).sort((a, b) => a - b), { timeout: 60_000 }).toEqual([80, 100]);
    expect(receiver.received.every((event) => event.body.type === 'budget.threshold' && event.body.data.alert.scope === 'daily_limit')).toBe(true);
    expect(receiver.forged).toBe(0);
    const first = receiver.received.find((event) => event.body.data.alert.threshold === 80)!;

    // The console's delivery log redelivers the 80 % event: the same webhook-id arrives again.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const delivery = page.getByRole('region', { name: 'Deliveries' }).getByRole('row').filter({ hasText: first.id });
    await delivery.getByRole('button', { name: /^Redeliver budget\.threshold/ }).click();
    await expect.poll(() => receiver.received.filter((event) => event.id === first.id).length, { timeout: 60_000 }).toBe(2);
    expect(receiver.received).toHaveLength(3);

    // The console shows the notices on the agent's page.
    await page.goto(`/dashboard/agents/${agent.id}`);
    await expect(page.getByText(/80\s?%/).first()).toBeVisible();
    await expect(page.getByText(/100\s?%/).first()).toBeVisible();
  } finally {
    await receiver.close();
  }
});
