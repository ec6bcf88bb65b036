// One payment in the console (/dashboard/payments/:intentId): an owner signed up over the API
// funds an agent that pays through the agent API; the payment's page draws its workflow with
// every settled step completed (approval and release skipped), shows its signed receipt and a
// step's detail on click and on Enter, lists the ledger entries the payment posted, and passes
// the page checks.
// Another owner's payment, like an unknown id, is "Payment not found".
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { AGENT_API, agentHeaders, agentPay, createFundedAgent, PAYEE } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { auditPage } from '../support/page-checks';
import { openSettled } from '../support/session';

interface Payment {
  intentId: string;
  agentId: string;
  agentName: string;
}

/** An owner (signed up with `request`'s cookie jar) whose funded agent paid `amount` once. */
async function ownerWithPayment(request: APIRequestContext, amount: number): Promise<Payment> {
  const owner = await signUpOwner(request);
  const agent = await createFundedAgent(request, owner, { name: `Flow bot ${Date.now() % 100_000}`, ownerTopUp: 100, fund: 20, maxTransaction: 50, dailyLimit: 200 });

  const paid = await agentPay(request, agent, {
    amount,
    description: 'Weather API call',
    idempotencyKey: `flow-${agent.id}`,
    metadata: { workflow: 'flow-weather', request_id: 'req-7' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const payment = (await paid.json()) as { intent_id: string; status: string };
  expect(payment.status).toBe('settled');
  return { intentId: payment.intent_id, agentId: agent.id, agentName: agent.name };
}

const node = (page: Page, step: string) => page.getByTestId(`flow-node-${step}`);
const panel = (page: Page) => page.getByTestId('flow-step-panel');

/** The page is drawn and the settled payment's steps are all in place. */
async function expectSettledFlow(page: Page): Promise<void> {
  // A dev server compiles the page on first request: room for that, once.
  await expect(node(page, 'webhooks')).toBeVisible({ timeout: 30_000 });
  for (const step of ['intent.created', 'policy_gate', 'intent.approved', 'rail_selection', 'reserve', 'execute', 'capture', 'settlement.completed', 'audit']) {
    await expect(node(page, step), step).toHaveAttribute('data-state', 'completed');
  }
  await expect(node(page, 'approval')).toHaveAttribute('data-state', 'skipped');
  await expect(node(page, 'release')).toHaveAttribute('data-state', 'skipped');
  // No endpoint is registered, so no delivery: the webhooks node says none.
  await expect(node(page, 'webhooks')).toHaveAttribute('data-state', 'skipped');
}

test.describe('a payment in the console', () => {
  test('draws a settled payment’s workflow, shows each step’s detail and its ledger entries, and passes the page checks', async ({ page, request }, testInfo) => {
    test.setTimeout(300_000);
    const foreign = await ownerWithPayment(request, 2);
    const payment = await ownerWithPayment(page.request, 1.5);
    const url = `/dashboard/payments/${payment.intentId}`;

    await openSettled(page, url);
    await expect(page.getByRole('heading', { level: 1, name: 'Weather API call' })).toBeVisible();
    await expect(page.getByTestId('payment-amount')).toHaveText('1.50 USDC');
    await expect(page.getByRole('application', { name: /Payment workflow/ })).toBeVisible();
    await expectSettledFlow(page);
    // In the header and in the details.
    await expect(page.getByRole('link', { name: payment.agentName })).toHaveCount(2);
    await expect(page.getByRole('link', { name: payment.agentName }).first()).toHaveAttribute('href', `/dashboard/agents/${payment.agentId}`);
    // A settled payment can no longer be decided on or cancelled.
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel payment' })).toHaveCount(0);

    // A settled payment has its signed receipt: a compact JWS to copy, and where its keys are.
    const receipt = page.getByRole('region', { name: 'Receipt' });
    await expect(receipt.getByRole('heading', { level: 2, name: 'Receipt' })).toBeVisible();
    await expect(receipt.getByTestId('payment-receipt-jws')).toHaveText(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await expect(receipt).toContainText('/.well-known/jwks.json');
    await expect(receipt.getByRole('button', { name: 'Copy receipt' })).toBeEnabled();

    // A click shows a step's detail; so does Enter on a focused step.
    await node(page, 'capture').click();
    await expect(panel(page)).toHaveAttribute('data-step', 'capture');
    await expect(panel(page).getByRole('heading', { name: 'Capture' })).toBeVisible();
    await expect(panel(page)).toContainText('1.50 USDC');
    await node(page, 'rail_selection').focus();
    await page.keyboard.press('Enter');
    await expect(panel(page)).toHaveAttribute('data-step', 'rail_selection');
    await expect(panel(page)).toContainText('Ledger');
    await node(page, 'policy_gate').click();
    await expect(panel(page)).toContainText('No rule fired');

    // The ledger: the hold, then its capture, each a balanced pair of entries.
    await page.getByRole('tab', { name: /Ledger/ }).click();
    const ledger = page.getByTestId('ledger-entries');
    const rows = ledger.locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThanOrEqual(4);
    await expect(ledger).toContainText('−1.50');
    await expect(ledger).toContainText('+1.50');
    await expect(ledger).toContainText('Payment hold');
    await expect(ledger).toContainText('Payment capture');

    // The intent's fields and metadata.
    await page.getByRole('tab', { name: 'Details' }).click();
    await expect(page.getByRole('tabpanel')).toContainText(PAYEE);
    await expect(page.getByRole('tabpanel')).toContainText('"request_id": "req-7"');
    await expect(page.getByRole('tabpanel')).toContainText(`flow-${payment.agentId}`);

    await auditPage(page, testInfo, 'payment', async () => {
      await page.goto(url);
      await expectSettledFlow(page);
    });

    // Another owner's payment is no different from one that does not exist.
    for (const id of [foreign.intentId, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      await page.goto(`/dashboard/payments/${id}`);
      await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
      await expect(page.getByText('Weather API call')).toHaveCount(0);
    }
    await page.getByRole('link', { name: 'Back to payments' }).click();
    await expect(page).toHaveURL(/\/dashboard\/payments$/);
  });

  test('shows a metered x402 payment: the signed maximum, what the seller settled, and the Permit2 authorisation', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: `Metered bot ${Date.now() % 100_000}`, ownerTopUp: 100, fund: 5, maxTransaction: 5, dailyLimit: 50 });
    // The sandbox's metered endpoint: at most $0.01 a call (upto), 370 tokens cost $0.0037.
    const paid = await page.request.post(`${AGENT_API}/x402/fetch`, {
      headers: { ...agentHeaders(agent), 'Idempotency-Key': `metered-${agent.id}` },
      data: { url: `${process.env.E2E_BASE_URL}/sandbox/paid/tokens?tokens=370`, description: 'Metered tokens' },
    });
    expect(paid.status(), await paid.text()).toBe(200);
    const { payment } = (await paid.json()) as { payment: { intent_id: string; status: string } };
    // Confirmed from the seller's transaction; the workflow captures right after (openSettled waits).
    expect(payment.status).toBe('processing');

    const url = `/dashboard/payments/${payment.intent_id}`;
    await openSettled(page, url);
    await expect(page.getByRole('heading', { level: 1, name: 'Metered tokens' })).toBeVisible();
    // The payment is what the seller settled, not the maximum it was allowed.
    await expect(page.getByTestId('payment-amount')).toHaveText('0.0037 USDC');
    await expectSettledFlow(page);
    await node(page, 'execute').click();
    await expect(panel(page)).toHaveAttribute('data-step', 'execute');
    await expect(panel(page)).toContainText('upto (the seller settles what was used, at most the maximum)');
    await expect(panel(page)).toContainText('Maximum');
    await expect(panel(page)).toContainText('0.01 USDC');
    await expect(panel(page)).toContainText('When signed');
    // The ledger: the hold of the maximum, then one capture paying $0.0037 and returning $0.0063.
    await page.getByRole('tab', { name: /Ledger/ }).click();
    const ledger = page.getByTestId('ledger-entries');
    await expect(ledger).toContainText('+0.0037');
    await expect(ledger).toContainText('+0.0063');

    await auditPage(page, testInfo, 'metered-payment', async () => {
      await page.goto(url);
      await expectSettledFlow(page);
      await node(page, 'execute').click();
      await expect(panel(page)).toContainText('Maximum');
    });
  });

  test('shows a payment channel: the deposit held, one voucher per paid call, and what the seller claimed', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: `Channel bot ${Date.now() % 100_000}`, ownerTopUp: 100, fund: 5, maxTransaction: 5, dailyLimit: 50 });
    // The sandbox's ticks: $0.001 a call through a batch-settlement channel, a $0.05 deposit.
    let intentId = '';
    for (const symbol of ['eth', 'btc', 'sol']) {
      const paid = await page.request.post(`${AGENT_API}/x402/fetch`, {
        headers: { ...agentHeaders(agent), 'Idempotency-Key': `tick-${symbol}-${agent.id}` },
        data: { url: `${process.env.E2E_BASE_URL}/sandbox/paid/ticks?symbol=${symbol}` },
      });
      expect(paid.status(), await paid.text()).toBe(200);
      intentId = ((await paid.json()) as { payment: { intent_id: string } }).payment.intent_id;
    }
    const closed = await page.request.post(`${AGENT_API}/x402/channels/${intentId}/close`, { headers: agentHeaders(agent) });
    expect(closed.status(), await closed.text()).toBe(200);

    const url = `/dashboard/payments/${intentId}`;
    await openSettled(page, url);
    await expect(node(page, 'execute')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1, name: /^Payment channel to 127\.0\.0\.1/ })).toBeVisible();
    // What the seller claimed: the three vouchers, not the deposit.
    await expect(page.getByTestId('payment-amount')).toHaveText('0.003 USDC');
    await node(page, 'execute').click();
    await expect(panel(page)).toContainText('Channel vouchers (3)');
    const vouchers = panel(page).getByTestId('channel-vouchers').locator('li');
    await expect(vouchers).toHaveCount(3);
    await expect(vouchers.first()).toContainText('0.001 USDC');
    await expect(vouchers.last()).toContainText('total 0.003');

    await auditPage(page, testInfo, 'channel-payment', async () => {
      await page.goto(url);
      await expect(node(page, 'execute')).toBeVisible({ timeout: 30_000 });
      await node(page, 'execute').click();
      await expect(panel(page)).toContainText('Channel vouchers (3)');
    });
  });
});
