// The OAuth consent page (/oauth/consent, issue 42) driven as an MCP host's owner would: a
// client registered through dynamic registration on a loopback redirect URI starts an
// authorization with PKCE; the owner (signed out at first: signs in and comes back to the same
// request) sees the client and the host it returns to, picks an agent, sets a $5 cap and
// approves; the browser lands on the redirect URI with code, state and iss, and the code is
// redeemed. The agent page lists the connection and revokes it, after which its refresh token
// is refused. Deny sends the browser back with access_denied; an unknown request says so.
// Accessibility and screenshots at 1280 and 390 px in both themes; no CSP violation.
import { createHash, randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createFundedAgent, type TestAgent } from '../support/agents';
import { signUpOwner, type TestOwner } from '../support/owner';
import { watchCspViolations } from '../support/csp-violations';
import { auditPage, expectNoSeriousViolations } from '../support/page-checks';
import { openSettled } from '../support/session';

/** A desktop app's loopback callback (RFC 8252); nothing listens there: the browser's arrival is intercepted. */
const REDIRECT_URI = 'http://127.0.0.1:47123/oauth/callback';
const PAGE_LOAD = { timeout: 30_000 };

interface Authorization {
  clientId: string;
  verifier: string;
  state: string;
  resource: string;
  issuer: string;
  /** The consent page's path and query on this site. */
  consentPath: string;
}

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> {
  expect(response.ok(), `${what}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** What an MCP host does before the browser opens: discovery, registration, PKCE, /oauth/authorize. */
async function startAuthorization(request: APIRequestContext, clientName: string): Promise<Authorization> {
  const { resource } = await json<{ resource: string }>(await request.get('/.well-known/oauth-protected-resource/functions/v1/mcp-server/mcp'), 'resource metadata');
  const { issuer } = await json<{ issuer: string }>(await request.get('/.well-known/oauth-authorization-server'), 'server metadata');
  const registered = await request.post('/oauth/register', { data: { client_name: clientName, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' } });
  expect(registered.status(), await registered.text()).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource,
    scope: 'read pay',
    state,
  });
  const authorize = await request.get(`/oauth/authorize?${query}`, { maxRedirects: 0 });
  expect(authorize.status(), await authorize.text()).toBe(302);
  const location = new URL(authorize.headers().location!);
  expect(location.pathname).toBe('/oauth/consent');
  return { clientId, verifier, state, resource, issuer, consentPath: `${location.pathname}${location.search}` };
}

/** Where the browser lands on the client: the interception answers it with a small page. */
async function interceptCallback(page: Page): Promise<void> {
  await page.route(`${new URL(REDIRECT_URI).origin}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Callback</title><p>Back in the app</p>' }));
}

const consentForm = (page: Page) => page.getByRole('form', { name: /wants to use one of your agents/ });

test.describe('OAuth consent page', () => {
  test('a signed-out owner signs in, approves an MCP host for an agent with a $5 cap, and later revokes it on the agent page', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    const owner: TestOwner = await signUpOwner(page.request);
    const agent: TestAgent = await createFundedAgent(page.request, owner, { name: `Assistant bot ${Date.now() % 100_000}`, fund: 0 });
    await createFundedAgent(page.request, owner, { name: `Other bot ${Date.now() % 100_000}`, fund: 0 });
    const authorization = await startAuthorization(page.request, 'E2E Assistant');
    // Signed out: sign-up over the API left the session cookies in this context.
    await page.context().clearCookies();

    await page.goto(authorization.consentPath);
    await expect(page).toHaveURL(/\/auth\?next=%2Foauth%2Fconsent%3Frequest%3D/, PAGE_LOAD);
    const signIn = page.getByRole('form', { name: 'Sign in' });
    await signIn.getByLabel(/^Email\b/).fill(owner.email);
    await signIn.getByLabel(/^Password\b/).fill(owner.password);
    await signIn.getByRole('button', { name: 'Sign In' }).click();

    // Back on the same request, which now shows the client and where it returns to.
    await expect(page).toHaveURL(new RegExp(`${authorization.consentPath.replace(/[?]/g, '\\?')}$`), PAGE_LOAD);
    const form = consentForm(page);
    await expect(form.getByRole('heading', { level: 1 })).toHaveText('E2E Assistant wants to use one of your agents', PAGE_LOAD);
    await expect(form.getByTestId('consent-redirect-host')).toHaveText('127.0.0.1:47123');
    await expect(form).toContainText(REDIRECT_URI);
    await expect(form).toContainText(authorization.clientId);
    await expect(form).toContainText(authorization.resource);
    await expect(form.getByRole('checkbox')).toHaveCount(2);
    for (const scope of await form.getByRole('checkbox').all()) await expect(scope).toBeChecked();

    await auditPage(page, testInfo, 'oauth-consent', async () => {
      await page.goto(authorization.consentPath);
      await expect(consentForm(page).getByRole('button', { name: 'Approve' })).toBeVisible(PAGE_LOAD);
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Approving without an agent is refused beside the field.
    await form.getByRole('button', { name: 'Approve' }).click();
    await expect(form.getByRole('combobox', { name: 'Act as agent' })).toHaveAccessibleDescription('Choose one of your agents');
    await expect(form.getByRole('combobox', { name: 'Act as agent' })).toBeFocused();

    // Pick the agent with the keyboard-reachable select, cap $5, approve.
    await form.getByRole('combobox', { name: 'Act as agent' }).click();
    await page.getByRole('option', { name: agent.name }).click();
    await form.getByLabel('Spending cap (optional)').fill('5');
    await interceptCallback(page);
    await form.getByRole('button', { name: 'Approve' }).click();

    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:47123\/oauth\/callback\?/, PAGE_LOAD);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(authorization.state);
    expect(landed.searchParams.get('iss')).toBe(authorization.issuer);
    const code = landed.searchParams.get('code');
    expect(code).toBeTruthy();

    // The host redeems the code with its PKCE verifier.
    const token = await page.request.post('/oauth/token', {
      form: { grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT_URI, code_verifier: authorization.verifier, client_id: authorization.clientId, resource: authorization.resource },
    });
    expect(token.status(), await token.text()).toBe(200);
    const tokens = (await token.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(tokens.scope.split(' ').sort()).toEqual(['pay', 'read']);

    // The agent page lists the connection with its cap, and revokes it after a confirmation.
    await openSettled(page, `/dashboard/agents/${agent.id}`);
    const connections = page.getByRole('region', { name: 'Connections' });
    const item = connections.getByRole('listitem', { name: 'E2E Assistant' });
    await expect(item).toContainText('Active', PAGE_LOAD);
    await expect(item).toContainText('$0.00 spent of $5.00 cap');
    await expect(item).toContainText('Read');
    await expect(item).toContainText('Pay');
    await expectNoSeriousViolations(page, 'agent page with a connection');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `the agent page overflows sideways at ${width}px`).toBeLessThanOrEqual(0);
      await connections.screenshot({ path: testInfo.outputPath(`agent-connections-${width}.png`), animations: 'disabled' });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await item.getByRole('button', { name: 'Revoke E2E Assistant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this connection?' });
    await expectNoSeriousViolations(page, 'revoke connection dialog');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toContainText('Revoked');
    await expect(item).toContainText('Revoked by you');
    await expect(item.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
    await expectNoSeriousViolations(page, 'agent page with a revoked connection');

    const refreshed = await page.request.post('/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: authorization.clientId } });
    expect(refreshed.status(), await refreshed.text()).toBe(400);
  });

  test('an agent made on the spot is chosen; denying sends the browser back with access_denied, and the request cannot be decided again', async ({ page }) => {
    test.setTimeout(120_000);
    const owner = await signUpOwner(page.request);
    await createFundedAgent(page.request, owner, { name: `Deny bot ${Date.now() % 100_000}`, fund: 0 });
    const authorization = await startAuthorization(page.request, 'Unwanted Host');

    const violations = await watchCspViolations(page);
    await openSettled(page, authorization.consentPath);
    const form = consentForm(page);
    await expect(form.getByTestId('consent-redirect-host')).toHaveText('127.0.0.1:47123', PAGE_LOAD);

    // A new agent, made from the consent page, becomes the choice.
    await form.getByRole('button', { name: 'New agent' }).click();
    const newAgent = page.getByRole('dialog', { name: 'New agent' });
    await expect(newAgent.getByLabel('Agent Name')).toBeFocused();
    await newAgent.getByLabel('Agent Name').fill('Made on the spot');
    await newAgent.getByRole('button', { name: 'Create Agent' }).click();
    await expect(newAgent).toBeHidden();
    await expect(form.getByRole('combobox', { name: 'Act as agent' })).toHaveText('Made on the spot');
    // The page and its dialog load under the Content-Security-Policy with no violation.
    expect(violations).toEqual([]);

    await interceptCallback(page);
    await form.getByRole('button', { name: 'Deny' }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:47123\/oauth\/callback\?/, PAGE_LOAD);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe(authorization.state);
    expect(landed.searchParams.get('iss')).toBe(authorization.issuer);
    expect(landed.searchParams.has('code')).toBe(false);

    await page.goto(authorization.consentPath);
    await expect(page.getByRole('heading', { level: 1, name: 'Request already decided' })).toBeVisible(PAGE_LOAD);
    await expect(page.getByText('This authorization request was already denied.', { exact: false })).toBeVisible();
  });

  test('an unknown request says so, with no form', async ({ page }) => {
    await signUpOwner(page.request);
    await openSettled(page, '/oauth/consent?request=not-a-real-request');
    await expect(page.getByRole('heading', { level: 1, name: 'Request not available' })).toBeVisible(PAGE_LOAD);
    await expect(page.getByText('This authorization request does not exist or belongs to another account.', { exact: false })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  });
});
