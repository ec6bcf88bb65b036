// The agent page's request signing card (/dashboard/agents/:agentId, issue 39): the key that
// signs the agent's outgoing HTTP requests, checked against the public key directory a seller
// fetches. The owner sees the key id and the directory, sees the last signed request once the
// agent has made one, rotates the key (the old one stays in the directory, listed as retiring),
// sets which requests are signed, and revokes the key (every old key leaves the directory at
// once). Accessibility in both themes, the dialogs included; screenshots at 1280 and 390 px.
// An x402 payment's page shows the signature its paid request carried, in the drawing's
// identity step and beside the rail, or that it went out unsigned.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { AGENT_API, agentHeaders, agentLedgerUsdc, createFundedAgent, type TestAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { auditPage, expectNoSeriousViolations, openInTheme, THEMES } from '../support/page-checks';
import { openSettled } from '../support/session';

/** The first check after a navigation: a busy machine loads pages slowly. */
const PAGE_LOAD = { timeout: 30_000 };
/** An RFC 7638 thumbprint: 32 bytes of SHA-256, base64url without padding. */
const KEYID = /^[A-Za-z0-9_-]{43}$/;

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });
const signingCard = (page: Page) => page.getByRole('region', { name: 'Request signing' });

async function currentKeyid(card: Locator): Promise<string> {
  const keyid = ((await card.getByTestId('signing-keyid').textContent()) ?? '').trim();
  expect(keyid).toMatch(KEYID);
  return keyid;
}

/** The key ids the agent's public directory lists, fetched as a seller would (no credentials). */
async function directoryKeyids(request: APIRequestContext, url: string): Promise<string[]> {
  const response = await request.get(url);
  expect(response.status(), await response.text()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/http-message-signatures-directory+json');
  const body = JSON.parse(await response.text()) as { keys: { kid: string; kty: string; crv: string; d?: string }[] };
  // Public halves only, ever.
  for (const key of body.keys) expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
  expect(body.keys.some((key) => 'd' in key)).toBe(false);
  return body.keys.map((key) => key.kid);
}

test('the owner sees the agent’s signing key in its directory, rotates it, chooses which requests are signed and revokes it', async ({ page, context, request, baseURL }, testInfo) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await signUpOwner(page.request);
  const agent = await createFundedAgent(page.request, owner, { name: `Signing bot ${Date.now() % 100_000}`, fund: 0 });
  const url = `/dashboard/agents/${agent.id}`;
  await openSettled(page, url);
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible(PAGE_LOAD);

  // --- The key and its directory: the card's key id is the one a seller finds there.
  const card = signingCard(page);
  const first = await currentKeyid(card);
  const directoryUrl = (await card.getByTestId('signing-directory').getAttribute('href')) ?? '';
  expect(directoryUrl).toMatch(new RegExp(`/\\.well-known/http-message-signatures-directory/agents/${agent.id}$`));
  await expect(card.getByTestId('signing-directory')).toHaveText(directoryUrl);
  expect(await directoryKeyids(request, directoryUrl)).toEqual([first]);
  await expect(card.getByTestId('signing-last-signed')).toHaveText('Never');
  await expect(card.getByRole('combobox', { name: 'Sign requests' })).toHaveText('Every request');
  await card.getByRole('button', { name: 'Copy Key id' }).click();
  await expect(toast(page, 'Key id copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

  // --- The agent reads a seller's offer: the request goes out signed, and the card says when and where.
  const offer = await page.request.post(`${AGENT_API}/x402/requirements`, { headers: agentHeaders(agent), data: { url: `${baseURL}/sandbox/paid/weather` } });
  expect(offer.ok(), await offer.text()).toBe(true);
  await page.reload();
  await expect(card.getByTestId('signing-last-signed')).toHaveText(new RegExp(`^(now|\\d+ seconds? ago) · ${new URL(baseURL!).host.replace(/\./g, '\\.')}$`), PAGE_LOAD);

  // --- Rotate: a new key signs, the old one stays in the directory for the overlap.
  await card.getByRole('button', { name: 'Rotate key' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the signing key?' });
  await expect(rotate).toContainText('stays valid in the directory for 10 minutes');
  await rotate.getByRole('button', { name: 'Rotate key' }).click();
  await expect(rotate).toBeHidden();
  await expect(toast(page, 'Signing key rotated')).toBeVisible();
  await expect(card.getByTestId('signing-keyid')).not.toHaveText(first);
  const second = await currentKeyid(card);
  const retiring = card.getByTestId('signing-retiring');
  await expect(retiring.getByRole('listitem')).toHaveCount(1);
  await expect(retiring.getByRole('listitem')).toContainText(first);
  await expect(retiring.getByRole('listitem')).toContainText(/retires in (9|10) minutes/);
  expect(await directoryKeyids(request, directoryUrl)).toEqual([second, first]);

  // --- Accessibility and screenshots of the page with the card as it stands (a key rotating out).
  await auditPage(page, testInfo, 'agent-identity', async () => {
    await page.goto(url);
    await expect(card.getByTestId('signing-keyid')).toHaveText(second, PAGE_LOAD);
    await expect(retiring).toBeVisible();
  });
  // The card alone at phone width (auditPage ends there), to read its layout.
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: testInfo.outputPath('agent-identity-card-390.png'), animations: 'disabled' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await card.screenshot({ path: testInfo.outputPath('agent-identity-card-1280.png'), animations: 'disabled' });
  // The two dialogs, in both themes (the revoke button is the error colour).
  for (const theme of THEMES) {
    await openInTheme(page, theme, async () => {
      await page.goto(url);
      await expect(card.getByTestId('signing-keyid')).toHaveText(second, PAGE_LOAD);
    });
    for (const [button, title] of [
      ['Rotate key', 'Rotate the signing key?'],
      ['Revoke key', 'Revoke the signing key?'],
    ] as const) {
      await card.getByRole('button', { name: button }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await expect(dialog).toBeVisible();
      await expectNoSeriousViolations(page, `${title} (${theme})`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    }
  }

  // --- Sign requests: Never, kept across a reload.
  await card.getByRole('combobox', { name: 'Sign requests' }).click();
  await page.getByRole('option', { name: 'Never' }).click();
  await expect(toast(page, 'Sign requests: Never')).toBeVisible();
  await page.reload();
  await expect(signingCard(page).getByRole('combobox', { name: 'Sign requests' })).toHaveText('Never', PAGE_LOAD);

  // --- Revoke: a new key, and every old one leaves the directory at once.
  await card.getByRole('button', { name: 'Revoke key' }).click();
  const revoke = page.getByRole('dialog', { name: 'Revoke the signing key?' });
  await expect(revoke).toContainText('stops verifying immediately');
  await revoke.getByRole('button', { name: 'Revoke key' }).click();
  await expect(revoke).toBeHidden();
  await expect(toast(page, 'Signing key revoked')).toBeVisible();
  await expect(card.getByTestId('signing-keyid')).not.toHaveText(second);
  const third = await currentKeyid(card);
  await expect(card.getByTestId('signing-retiring')).toHaveCount(0);
  const listed = await directoryKeyids(request, directoryUrl);
  expect(listed).toEqual([third]);
  expect(listed).not.toContain(second);
  expect(listed).not.toContain(first);
});

const node = (page: Page, step: string) => page.getByTestId(`flow-node-${step}`);
const panel = (page: Page) => page.getByTestId('flow-step-panel');

/** The agent pays the sandbox's weather API through /x402/fetch; its payment's page once settled. */
async function paidWeatherCall(page: Page, agent: TestAgent, description: string): Promise<string> {
  const before = await agentLedgerUsdc(page.request, agent);
  const paid = await page.request.post(`${AGENT_API}/x402/fetch`, {
    headers: { ...agentHeaders(agent), 'Idempotency-Key': `${description.replace(/\W+/g, '-')}-${agent.id}` },
    data: { url: `${process.env.E2E_BASE_URL}/sandbox/paid/weather`, description },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const { payment } = (await paid.json()) as { payment: { intent_id: string } };
  await page.goto(`/dashboard/payments/${payment.intent_id}`);
  await expect(page.getByRole('heading', { level: 1, name: description })).toBeVisible(PAGE_LOAD);
  await expect(node(page, 'capture')).toHaveAttribute('data-state', 'completed', PAGE_LOAD);
  // The ledger: the agent paid exactly the payment's amount, once.
  await expect(page.getByTestId('payment-amount')).toHaveText('0.01 USDC');
  expect(before - (await agentLedgerUsdc(page.request, agent))).toBe(10_000n);
  return payment.intent_id;
}

test('an x402 payment’s page shows the signature its paid request carried, or that it went out unsigned', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const owner = await signUpOwner(page.request);
  const agent = await createFundedAgent(page.request, owner, { name: `Signed payer ${Date.now() % 100_000}`, ownerTopUp: 10, fund: 5, maxTransaction: 5, dailyLimit: 50 });
  await openSettled(page, `/dashboard/agents/${agent.id}`);
  const keyid = await currentKeyid(signingCard(page));
  const host = new URL(process.env.E2E_BASE_URL!).host;

  // --- Signed (the default): the identity step between the hold and execute, Visa TAP's tag on the paid retry.
  const signedUrl = `/dashboard/payments/${await paidWeatherCall(page, agent, 'Signed weather call')}`;
  await expect(node(page, 'identity')).toHaveAttribute('data-state', 'completed');
  await expect(node(page, 'identity')).toContainText(`Signed · ${host}`);
  await node(page, 'identity').click();
  await expect(panel(page)).toHaveAttribute('data-step', 'identity');
  const signature = panel(page).getByTestId('request-signature');
  await expect(signature).toContainText('Signed request');
  await expect(signature).toContainText('Visa TAP (agent-payer-auth)');
  await expect(signature).toContainText(keyid);
  await expect(signature).toContainText(host);
  await expect(signature.getByRole('link', { name: /The agent's public keys/ })).toHaveAttribute('href', new RegExp(`/agents/${agent.id}$`));
  await panel(page).screenshot({ path: testInfo.outputPath('signed-request-panel.png'), animations: 'disabled' });
  // Beside the rail's authorisation too.
  await node(page, 'execute').click();
  await expect(panel(page).getByTestId('request-signature')).toContainText(keyid);
  await auditPage(page, testInfo, 'signed-x402-payment', async () => {
    await page.goto(signedUrl);
    await expect(node(page, 'identity')).toHaveAttribute('data-state', 'completed', PAGE_LOAD);
  });

  // --- The owner turns signing off: the next paid request goes out unsigned, and the page says so.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/agents/${agent.id}`);
  await signingCard(page).getByRole('combobox', { name: 'Sign requests' }).click({ timeout: PAGE_LOAD.timeout });
  await page.getByRole('option', { name: 'Never' }).click();
  await expect(toast(page, 'Sign requests: Never')).toBeVisible();
  await paidWeatherCall(page, agent, 'Unsigned weather call');
  await expect(node(page, 'identity')).toHaveAttribute('data-state', 'skipped');
  await expect(node(page, 'identity')).toContainText('Unsigned');
  await node(page, 'identity').click();
  await expect(panel(page).getByTestId('request-signature')).toContainText('Sent unsigned');
  await expect(panel(page)).not.toContainText(keyid);
});
