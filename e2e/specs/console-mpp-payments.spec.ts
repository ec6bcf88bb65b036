// The owner sees the protocol of each paid call (issue 40, MPP beside x402): an agent pays the
// sandbox's MPP-only headlines through /pay/fetch (and the x402-only weather through /x402/fetch);
// the payments list names each one's protocol and filters by it through the URL; the MPP
// payment's page names MPP in its header, its drawing's rail node and its panel, and shows the
// seller's challenge, the credential sent (decoded, never its signature) and the seller's
// Payment-Receipt, confirmed on chain. Money: the agent's ledger and wallet and the seller's
// wallet move by exactly the price, once. Both pages pass axe in both themes and are
// photographed at 1280 and 390 px.
import { randomUUID } from 'node:crypto';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createPublicClient, http, parseAbi, type Address } from 'viem';
import { AGENT_API, agentHeaders, agentLedgerUsdc, atomicUsdc, createFundedAgent, type TestAgent } from '../support/agents';
import { signUpOwner, type TestOwner } from '../support/owner';
import { auditPage } from '../support/page-checks';
import { openSettled } from '../support/session';

// Console pages read several queries and a live stream; on a loaded machine a round trip can take longer than 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });
const PAGE_LOAD = { timeout: 30_000 };

const USDC: Address = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const ERC20 = parseAbi(['function balanceOf(address owner) view returns (uint256)']);
/** The headlines' price, $0.01, in atomic units. */
const PRICE = 10_000n;

const rows = (page: Page) => page.getByTestId('payment-row');
const rowOf = (page: Page, intentId: string) => page.locator(`[data-testid="payment-row"][data-intent-id="${intentId}"]`);
const node = (page: Page, step: string) => page.getByTestId(`flow-node-${step}`);
const panel = (page: Page) => page.getByTestId('flow-step-panel');
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
/** An address wherever it is shown, checksummed or not. */
const anyCase = (address: string) => new RegExp(address, 'i');

interface PaidCall {
  status: number;
  payment: { intent_id: string; status: string; transaction_hash: string | null; protocol: string };
  mpp_receipt: { method: string; status: string; reference: string; timestamp: string; confirmed: boolean } | null;
}

/** The agent calls a paid sandbox resource through the agent API, allowing at most $1. */
async function payFor(request: APIRequestContext, agent: TestAgent, path: '/pay/fetch' | '/x402/fetch', url: string): Promise<PaidCall> {
  const response = await request.post(`${AGENT_API}${path}`, {
    headers: { ...agentHeaders(agent), 'Idempotency-Key': randomUUID() },
    data: { url, max_amount: 1 },
  });
  expect(response.status(), await response.text()).toBe(200);
  const answer = (await response.json()) as PaidCall;
  expect(answer.status).toBe(200);
  return answer;
}

/** Waits until the payment has settled: the seller's answer comes before the workflow captures it. */
async function settled(request: APIRequestContext, owner: TestOwner, intentId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/intents/${intentId}`, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
        return ((await response.json()) as { status?: string }).status;
      },
      { message: `payment ${intentId} settles`, timeout: 30_000 },
    )
    .toBe('settled');
}

/** Who an MPP seller asks to be paid: the recipient of the EVM charge in its 402's `WWW-Authenticate: Payment` challenge. */
async function mppRecipient(request: APIRequestContext, url: string): Promise<Address> {
  const response = await request.get(url);
  expect(response.status()).toBe(402);
  const challenge = response.headers()['www-authenticate'] ?? '';
  const encoded = /request="([A-Za-z0-9_-]+)"/.exec(challenge)?.[1];
  expect(encoded, `an MPP challenge with a request: ${challenge}`).toBeTruthy();
  return (JSON.parse(Buffer.from(encoded!, 'base64url').toString('utf8')) as { recipient: Address }).recipient;
}

/** The agent's USDC on chain, in atomic units, as the agent API reads it. */
async function agentWalletUsdc(request: APIRequestContext, agent: TestAgent): Promise<{ address: string; usdc: bigint }> {
  const response = await request.get(`${AGENT_API}/balance`, { headers: agentHeaders(agent) });
  expect(response.ok(), await response.text()).toBe(true);
  const body = (await response.json()) as { wallet_address: string; balances: { USDC: { on_chain_exact: string | null } } };
  expect(body.balances.USDC.on_chain_exact).not.toBeNull();
  return { address: body.wallet_address, usdc: atomicUsdc(body.balances.USDC.on_chain_exact!) };
}

/** The payment's page, drawn with the settled payment's rail answered, and the execute step's panel open. */
async function openExecuteStep(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(node(page, 'capture')).toHaveAttribute('data-state', 'completed', PAGE_LOAD);
  await node(page, 'execute').click();
  await expect(panel(page)).toHaveAttribute('data-step', 'execute');
  await expect(panel(page).getByTestId('mpp-receipt')).toBeVisible();
}

/** The step panel alone at `width`, in a window tall enough to hold it unscrolled (the top bar stays out of it). */
async function panelScreenshot(page: Page, path: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 3_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await panel(page).screenshot({ path, animations: 'disabled' });
  await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
}

test('the owner finds an agent’s MPP payment by its protocol and sees its challenge, decoded credential and confirmed receipt', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(300_000);
  const rpcUrl = process.env.E2E_CHAIN_RPC_URL;
  expect(rpcUrl, "E2E_CHAIN_RPC_URL names the product's sandbox chain (set by scripts/test.mjs)").toBeTruthy();
  const chain = createPublicClient({ transport: http(rpcUrl) });
  const owner = await signUpOwner(page.request);
  const agent = await createFundedAgent(page.request, owner, { name: `MPP buyer ${Date.now() % 100_000}`, ownerTopUp: 10, fund: 5, maxTransaction: 5, dailyLimit: 50 });
  const headlinesUrl = `${baseURL}/sandbox/paid/headlines`;

  // --- The agent pays the MPP-only headlines through /pay/fetch: exactly the price moves, once, on the ledger and on chain.
  const recipient = await mppRecipient(page.request, headlinesUrl);
  const sellerBefore = await chain.readContract({ address: USDC, abi: ERC20, functionName: 'balanceOf', args: [recipient] });
  const ledgerBefore = await agentLedgerUsdc(page.request, agent);
  const walletBefore = await agentWalletUsdc(page.request, agent);
  const mpp = await payFor(page.request, agent, '/pay/fetch', headlinesUrl);
  expect(mpp.payment.protocol).toBe('mpp');
  await settled(page.request, owner, mpp.payment.intent_id);
  expect(mpp.mpp_receipt).toMatchObject({ method: 'evm', confirmed: true, reference: mpp.payment.transaction_hash });
  const transactionHash = mpp.payment.transaction_hash!;
  expect(ledgerBefore - (await agentLedgerUsdc(page.request, agent))).toBe(PRICE);
  const walletAfter = await agentWalletUsdc(page.request, agent);
  expect(walletBefore.usdc - walletAfter.usdc).toBe(PRICE);
  expect((await chain.readContract({ address: USDC, abi: ERC20, functionName: 'balanceOf', args: [recipient] })) - sellerBefore).toBe(PRICE);

  // --- And the x402-only weather through /x402/fetch, to tell the two apart.
  const x402 = await payFor(page.request, agent, '/x402/fetch', `${baseURL}/sandbox/paid/weather`);
  expect(x402.payment.protocol).toBe('x402');
  await settled(page.request, owner, x402.payment.intent_id);
  expect(ledgerBefore - (await agentLedgerUsdc(page.request, agent))).toBe(2n * PRICE);

  // --- The payments list names each paid call's protocol, and filters by it through the URL.
  await openSettled(page, '/dashboard/payments');
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible(PAGE_LOAD);
  await expect(rows(page)).toHaveCount(2);
  await expect(rowOf(page, mpp.payment.intent_id).getByTestId('payment-protocol')).toHaveText('MPP');
  await expect(rowOf(page, x402.payment.intent_id).getByTestId('payment-protocol')).toHaveText('x402');
  await page.getByRole('combobox', { name: /^Protocol/ }).click();
  await page.getByRole('option', { name: 'MPP', exact: true }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toHaveAttribute('data-intent-id', mpp.payment.intent_id);
  expect(query(page)).toEqual({ protocol: 'mpp' });
  await page.reload();
  await expect(page.getByRole('combobox', { name: /^Protocol/ })).toHaveText('MPP', PAGE_LOAD);
  await expect(rows(page)).toHaveCount(1);
  await auditPage(page, testInfo, 'mpp-payments-list', async () => {
    await page.goto('/dashboard/payments?protocol=mpp');
    await expect(rows(page)).toHaveCount(1, PAGE_LOAD);
  });

  // --- Its page: the protocol in the header, in the drawing's rail node and beside the rail.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/payments?protocol=mpp');
  await rows(page).first().getByRole('link').click();
  const url = `/dashboard/payments/${mpp.payment.intent_id}`;
  await expect(page).toHaveURL(new RegExp(`${url}$`));
  await expect(node(page, 'capture')).toHaveAttribute('data-state', 'completed', PAGE_LOAD);
  await expect(page.getByTestId('payment-protocol')).toHaveText('Paid over MPP');
  await expect(node(page, 'rail_selection')).toContainText('MPP');
  await node(page, 'execute').click();
  await expect(panel(page)).toHaveAttribute('data-step', 'execute');
  await expect(panel(page).getByTestId('rail-protocol')).toHaveText('MPP (Machine Payments Protocol)');
  // The x402 authorisation's section is for x402 payments: over MPP, the credential says it.
  await expect(panel(page)).not.toContainText('Signed x402 authorisation');

  // The seller's challenge: who asks, for what, on which chain.
  const challenge = panel(page).getByTestId('mpp-challenge');
  await expect(challenge).toContainText('evm · charge');
  await expect(challenge).toContainText('0.01 USDC');
  await expect(challenge).toContainText(anyCase(recipient));
  await expect(challenge).toContainText(anyCase(USDC));
  await expect(challenge).toContainText('84532');
  // The credential answers that challenge, from the agent's wallet to the seller, for the price.
  const credential = panel(page).getByTestId('mpp-credential');
  await expect(challenge.locator('dd').last()).toHaveText(/^[A-Za-z0-9_-]{20,}$/);
  await expect(credential).toContainText('AnswersThe challenge above');
  await expect(credential).toContainText(anyCase(walletAfter.address));
  await expect(credential).toContainText(anyCase(recipient));
  await expect(credential).toContainText('0.01 USDC');
  // The seller's receipt names the transaction, which the chain confirmed.
  const receipt = panel(page).getByTestId('mpp-receipt');
  await expect(receipt.getByTestId('mpp-receipt-confirmed')).toHaveText('Confirmed on chain');
  await expect(receipt).toContainText(transactionHash);
  await expect(receipt).toContainText(mpp.mpp_receipt!.status);
  // Never the signature: the page holds no 65-byte hex string.
  expect(await page.locator('main').textContent()).not.toMatch(/0x[0-9a-fA-F]{130}/);

  // The details tab names the protocol too.
  await expect(page.getByRole('tabpanel', { name: 'Details' })).toContainText('ProtocolMPP');

  // The panel alone at both widths, to read its layout; then the whole page's checks with the step open.
  await panelScreenshot(page, testInfo.outputPath('mpp-execute-panel-1280.png'), 1280);
  await auditPage(page, testInfo, 'mpp-payment', () => openExecuteStep(page, url));
  await panelScreenshot(page, testInfo.outputPath('mpp-execute-panel-390.png'), 390);

  // --- The x402 payment's page says x402, with its authorisation as before and no MPP part.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/payments/${x402.payment.intent_id}`);
  await expect(node(page, 'capture')).toHaveAttribute('data-state', 'completed', PAGE_LOAD);
  await expect(page.getByTestId('payment-protocol')).toHaveText('Paid over x402');
  await expect(node(page, 'rail_selection')).not.toContainText('MPP');
  await node(page, 'execute').click();
  await expect(panel(page)).toContainText('Signed x402 authorisation');
  await expect(panel(page).getByTestId('rail-protocol')).toHaveText('x402');
  await expect(panel(page).getByTestId('mpp-challenge')).toHaveCount(0);
  await panelScreenshot(page, testInfo.outputPath('x402-execute-panel-1280.png'), 1280);
});
