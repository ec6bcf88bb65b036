// Money-moving dialogs send an idempotency key: when the server did the work but its answer was
// lost on the way back (the connection dropped), the owner's retry is answered with the first
// result instead of moving the money a second time. Balances are read from the owner REST API.
import { expect, test, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { signUpOwner } from '../support/owner';

const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });

/** The idempotency_key a tRPC mutation request carried (its batch body is { "0": input }). */
function idempotencyKeyOf(request: Request): string | undefined {
  const body = request.postDataJSON() as Record<string, { idempotency_key?: string }> | null;
  return body?.['0']?.idempotency_key;
}

/**
 * Lets the first call of `procedure` reach the server and be processed, then drops its answer
 * as a failed connection would; later calls pass. Returns every request of the procedure sent.
 */
async function loseFirstAnswer(page: Page, procedure: string): Promise<Request[]> {
  const sent: Request[] = [];
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.split(',').some((name) => name.endsWith(procedure)),
    async (route) => {
      sent.push(route.request());
      if (sent.length > 1) return route.continue();
      const processed = await route.fetch();
      expect(processed.ok(), 'the server processed the first request').toBe(true);
      await route.abort('connectionreset');
    },
  );
  return sent;
}

async function walletBalances(request: APIRequestContext, token: string): Promise<{ usdc: number; usdt: number }> {
  const response = await request.get('/api/v1/wallet', { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), await response.text()).toBe(true);
  const wallet = (await response.json()) as { balance_usdc: number; balance_usdt: number };
  return { usdc: wallet.balance_usdc, usdt: wallet.balance_usdt };
}

test.describe('retrying a money movement whose answer was lost', () => {
  test('a top-up retried after its answer was lost credits the wallet once', async ({ page }) => {
    const owner = await signUpOwner(page.request);
    await page.goto('/dashboard');
    await expect(page.getByTestId('wallet-total')).toHaveText('$0.00');
    const sent = await loseFirstAnswer(page, 'wallet.topUp');

    await page.getByRole('button', { name: 'Top Up' }).click();
    const form = dialog(page, 'Top Up Wallet');
    await form.getByRole('spinbutton', { name: 'Amount' }).fill('40');
    await form.getByRole('button', { name: 'Top Up' }).click();
    // No answer came back: the spec's fallback message, the dialog stays with its amount.
    await expect(toast(page, 'Failed to top up wallet')).toBeVisible();
    await expect(form).toBeVisible();
    await expect(form.getByRole('spinbutton', { name: 'Amount' })).toHaveValue('40');
    // The server did credit the wallet the first time.
    expect(await walletBalances(page.request, owner.accessToken)).toEqual({ usdc: 40, usdt: 0 });

    await form.getByRole('button', { name: 'Top Up' }).click();
    await expect(toast(page, 'Successfully added 40 USDC to your wallet')).toBeVisible();
    await expect(form).toBeHidden();
    expect(sent).toHaveLength(2);
    expect(idempotencyKeyOf(sent[0]!)).toBeTruthy();
    expect(idempotencyKeyOf(sent[1]!)).toBe(idempotencyKeyOf(sent[0]!));
    expect(await walletBalances(page.request, owner.accessToken)).toEqual({ usdc: 40, usdt: 0 });
    await expect(page.getByTestId('wallet-total')).toHaveText('$40.00');
    await expect(page.getByRole('region', { name: 'Recent Transactions' }).getByRole('listitem')).toHaveCount(1);

    // After a success the same amount again is a new top-up, with a new key.
    await page.getByRole('button', { name: 'Top Up' }).click();
    await form.getByRole('spinbutton', { name: 'Amount' }).fill('40');
    await form.getByRole('button', { name: 'Top Up' }).click();
    await expect(form).toBeHidden();
    expect(sent).toHaveLength(3);
    expect(idempotencyKeyOf(sent[2]!)).not.toBe(idempotencyKeyOf(sent[0]!));
    expect(await walletBalances(page.request, owner.accessToken)).toEqual({ usdc: 80, usdt: 0 });
    await expect(page.getByTestId('wallet-total')).toHaveText('$80.00');
  });

  test('a funding retried after its answer was lost moves the money once', async ({ page }) => {
    const owner = await signUpOwner(page.request);
    const headers = { authorization: `Bearer ${owner.accessToken}` };
    expect((await page.request.post('/api/v1/wallet/top-up', { headers, data: { amount: 100 } })).ok()).toBe(true);
    const created = await page.request.post('/api/v1/agents', { headers, data: { name: 'Retry Agent' } });
    expect(created.ok(), await created.text()).toBe(true);
    const { agent } = (await created.json()) as { agent: { id: string } };
    const agentBalance = async () => {
      const response = await page.request.get(`/api/v1/agents/${agent.id}`, { headers });
      expect(response.ok(), await response.text()).toBe(true);
      return ((await response.json()) as { agent_wallets: { balance_usdc: number } }).agent_wallets.balance_usdc;
    };

    await page.goto('/dashboard');
    const card = page.getByRole('article', { name: 'Retry Agent' });
    await expect(card.getByTestId('agent-balance')).toHaveText('$0.00');
    const sent = await loseFirstAnswer(page, 'wallet.fundAgent');

    await card.getByRole('button', { name: 'Fund Agent' }).click();
    const form = dialog(page, 'Fund Agent');
    await form.getByRole('spinbutton', { name: 'Amount' }).fill('30');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(toast(page, 'Failed to fund agent')).toBeVisible();
    await expect(form).toBeVisible();
    expect(await agentBalance()).toBe(30);

    await form.getByRole('button', { name: 'Send' }).click();
    await expect(toast(page, 'Successfully sent 30 USDC to Retry Agent')).toBeVisible();
    expect(sent).toHaveLength(2);
    expect(idempotencyKeyOf(sent[1]!)).toBe(idempotencyKeyOf(sent[0]!));
    expect(await agentBalance()).toBe(30);
    expect(await walletBalances(page.request, owner.accessToken)).toEqual({ usdc: 70, usdt: 0 });
    await expect(card.getByTestId('agent-balance')).toHaveText('$30.00');
    await expect(page.getByTestId('wallet-total')).toHaveText('$70.00');
  });
});
