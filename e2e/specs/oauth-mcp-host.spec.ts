// Issue 42's acceptance journey: an MCP host built on the official MCP TypeScript client (v2)
// connects to an agent's MCP endpoint from nothing. Its first request gets 401 with
// resource_metadata; the SDK discovers the authorization server, identifies the host by a Client
// ID Metadata Document served here over https on loopback (the product trusts this run's
// self-signed certificate through NODE_EXTRA_CA_CERTS, scripts/test.mjs), and sends the browser
// to the authorization endpoint with PKCE. The owner signs in on the consent page in Chromium,
// picks the agent, caps the connection at $5 and approves; the browser returns to the host's
// loopback callback and the code is exchanged. The host lists tools and pays $3; a second $3
// passes every rule of the agent but the connection's cap, and is refused with a stable code.
// Both MCP eras (2025-11-25 and 2026-07-28) use the same tokens. Once the owner revokes the
// connection on the agent page, the next call gets 401 and the host is sent back to consent.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type CallToolResult,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { expect, test, type Page } from '@playwright/test';
import { AGENT_API, agentLedgerUsdc, atomicUsdc, createFundedAgent, PAYEE, type TestAgent } from '../support/agents';
import { signUpOwner, type TestOwner } from '../support/owner';
import { openSettled } from '../support/session';

const HOST_NAME = 'E2E MCP Host';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const PAGE_LOAD = { timeout: 30_000 };
const CLIENT_INFO = { name: 'purser-e2e-mcp-host', version: '1.0.0' };

/** This run's loopback certificate, made by scripts/test.mjs and trusted by the product. */
function loopbackTls(): { cert: Buffer; key: Buffer } {
  const cert = process.env.E2E_TLS_CERT;
  const key = process.env.E2E_TLS_KEY;
  if (!cert || !key) {
    throw new Error(
      'E2E_TLS_CERT and E2E_TLS_KEY are not set: the MCP host serves its Client ID Metadata Document over https on 127.0.0.1 with a ' +
        'certificate the product trusts (NODE_EXTRA_CA_CERTS). Run the e2e suite through `npm test -- e2e`, which makes both.',
    );
  }
  return { cert: readFileSync(cert), key: readFileSync(key) };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The host's loopback callback (RFC 8252): hands over the query the browser arrives with. */
async function startCallbackServer() {
  let arrived: (params: URLSearchParams) => void = () => {};
  const arrival = new Promise<URLSearchParams>((resolve) => (arrived = resolve));
  const server = createHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Connected</title><p>Back in the MCP host</p>');
    arrived(url.searchParams);
  });
  const redirectUrl = `http://127.0.0.1:${await listen(server)}/callback`;
  return { server, redirectUrl, arrival };
}

/** The host's Client ID Metadata Document, served over https on loopback; counts the product's fetches. */
async function startMetadataServer(tls: { cert: Buffer; key: Buffer }, redirectUrl: string) {
  const server = createHttpsServer(tls);
  const port = await listen(server);
  const clientId = `https://127.0.0.1:${port}/mcp-host/client-metadata.json`;
  const document = {
    client_id: clientId,
    client_name: HOST_NAME,
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  } satisfies OAuthClientMetadata & { client_id: string };
  const fetched = { count: 0 };
  server.on('request', (request, response) => {
    if (new URL(request.url ?? '/', clientId).pathname !== new URL(clientId).pathname) return void response.writeHead(404).end();
    fetched.count += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  return { server, clientId, document, fetched };
}

/**
 * What the host keeps between runs, in memory: its client id, tokens, PKCE verifier and the
 * discovery it made. Sending the user to the authorization URL is the host opening a browser:
 * the URL is noted, and the journey drives Chromium to it.
 */
class LoopbackHostProvider implements OAuthClientProvider {
  readonly authorizationRequests: URL[] = [];
  private client?: StoredOAuthClientInformation;
  private saved?: StoredOAuthTokens;
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;
  private expectedState?: string;

  constructor(
    readonly clientMetadataUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
  ) {}

  get redirectUrl(): string {
    return this.clientMetadata.redirect_uris[0]!;
  }

  state(): string {
    this.expectedState = randomUUID();
    return this.expectedState;
  }

  /** The callback's state is the one this host sent (the SDK leaves that check to the host). */
  expectState(params: URLSearchParams): void {
    expect(params.get('state'), 'the callback carries the state the host sent').toBe(this.expectedState);
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(client: StoredOAuthClientInformation): void {
    this.client = client;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationRequests.push(authorizationUrl);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier saved');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

/** The owner, signed out, signs in on the way to consent, picks the agent, caps it at $5 and approves. */
async function approveInBrowser(page: Page, owner: TestOwner, agent: TestAgent, authorizationUrl: URL, clientId: string): Promise<void> {
  await page.goto(authorizationUrl.href);
  await expect(page).toHaveURL(/\/auth\?next=%2Foauth%2Fconsent%3Frequest%3D/, PAGE_LOAD);
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel(/^Email\b/).fill(owner.email);
  await signIn.getByLabel(/^Password\b/).fill(owner.password);
  await signIn.getByRole('button', { name: 'Sign In' }).click();

  await expect(page).toHaveURL(/\/oauth\/consent\?request=/, PAGE_LOAD);
  const form = page.getByRole('form', { name: /wants to use one of your agents/ });
  await expect(form.getByRole('heading', { level: 1 })).toHaveText(`${HOST_NAME} wants to use one of your agents`, PAGE_LOAD);
  await expect(form).toContainText(clientId);
  await form.getByRole('combobox', { name: 'Act as agent' }).click();
  await page.getByRole('option', { name: agent.name }).click();
  await form.getByLabel('Spending cap (optional)').fill('5');
  await form.getByRole('button', { name: 'Approve' }).click();
}

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

const payment = (amount: number) => ({
  amount,
  to_address: PAYEE,
  description: 'Dataset licence',
  category: 'data',
  idempotency_key: `mcp-host-${randomUUID()}`,
});

test.describe('An MCP host connecting with OAuth', () => {
  test('connects from nothing through discovery, its metadata document, PKCE and consent; pays within the $5 cap in both MCP eras, and gets 401 once revoked', async ({ page }) => {
    test.setTimeout(240_000);
    const tls = loopbackTls();
    const baseUrl = test.info().project.use.baseURL!;
    const mcpUrl = new URL(`${baseUrl}${AGENT_API}/mcp`);
    const owner = await signUpOwner(page.request);
    // The agent's own rules allow $100 a payment: only the connection's cap refuses the second one.
    const agent = await createFundedAgent(page.request, owner, { name: `Host bot ${Date.now() % 100_000}`, fund: 20, maxTransaction: 100 });
    await createFundedAgent(page.request, owner, { name: `Other bot ${Date.now() % 100_000}`, fund: 0 });
    // Signed out: sign-up over the API left the session cookies in this context.
    await page.context().clearCookies();

    const callback = await startCallbackServer();
    const metadata = await startMetadataServer(tls, callback.redirectUrl);
    const provider = new LoopbackHostProvider(metadata.clientId, metadata.document);
    const clients: Client[] = [];
    try {
      // A request without a token learns where to start.
      const bare = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(bare.status, await bare.text()).toBe(401);
      expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="[^"]+"/);

      // The SDK discovers, identifies the host by its metadata document URL, and asks for consent.
      const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await expect(new Client(CLIENT_INFO).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.authorizationRequests).toHaveLength(1);
      const authorizationUrl = provider.authorizationRequests[0]!;
      expect(authorizationUrl.searchParams.get('client_id')).toBe(metadata.clientId);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(callback.redirectUrl);

      await approveInBrowser(page, owner, agent, authorizationUrl, metadata.clientId);
      const returned = await callback.arrival;
      await expect(page).toHaveURL((url) => url.href.startsWith(`${callback.redirectUrl}?`), PAGE_LOAD);
      expect(metadata.fetched.count, 'the product fetched the host metadata document').toBeGreaterThan(0);
      provider.expectState(returned);
      expect(returned.get('code')).toBeTruthy();
      await first.finishAuth(returned);
      const accessToken = provider.tokens()?.access_token;
      expect(accessToken).toMatch(/^purser_at_/);

      // 2025-11-25 (initialize) with the tokens.
      const legacy = new Client(CLIENT_INFO);
      clients.push(legacy);
      await legacy.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      expect(legacy.getNegotiatedProtocolVersion()).toBe(LEGACY);
      const legacyTools = (await legacy.listTools()).tools.map((tool) => tool.name).sort();
      expect(legacyTools).toEqual(expect.arrayContaining(['get_balance', 'make_payment']));

      // 2026-07-28 (server/discover, no session) with the same tokens: no second consent.
      const modern = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
      clients.push(modern);
      await modern.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect((await modern.listTools()).tools.map((tool) => tool.name).sort()).toEqual(legacyTools);
      expect(provider.authorizationRequests).toHaveLength(1);

      // $3 settles from the agent's wallet.
      expect(await agentLedgerUsdc(page.request, agent)).toBe(20_000_000n);
      const paid = (await legacy.callTool({ name: 'make_payment', arguments: payment(3) })) as CallToolResult;
      expect(paid.isError, text(paid)).toBeFalsy();
      expect(paid.structuredContent).toMatchObject({ status: 'settled', amount: 3, to_address: PAYEE });
      expect(await agentLedgerUsdc(page.request, agent)).toBe(17_000_000n);

      // Another $3 is within the agent's rules but above what is left of the connection's cap.
      const refused = (await modern.callTool({ name: 'make_payment', arguments: payment(3) })) as CallToolResult;
      expect(refused.isError, JSON.stringify(refused)).toBe(true);
      expect(text(refused)).toContain('POLICY_VIOLATION');
      expect(text(refused)).toContain('CONNECTION_CAP_EXCEEDED');
      expect(await agentLedgerUsdc(page.request, agent)).toBe(17_000_000n);
      const balance = (await modern.callTool({ name: 'get_balance', arguments: {} })) as CallToolResult;
      expect(balance.isError, text(balance)).toBeFalsy();
      const { balances } = balance.structuredContent as { balances: { USDC: { ledger_exact: string } } };
      expect(atomicUsdc(balances.USDC.ledger_exact)).toBe(17_000_000n);

      // The owner revokes the connection on the agent page (the browser is still signed in).
      await openSettled(page, `/dashboard/agents/${agent.id}`);
      const item = page.getByRole('region', { name: 'Connections' }).getByRole('listitem', { name: HOST_NAME });
      await expect(item).toContainText('Active', PAGE_LOAD);
      await expect(item).toContainText('$3.00 spent of $5.00 cap');
      await item.getByRole('button', { name: `Revoke ${HOST_NAME}` }).click();
      await page.getByRole('dialog', { name: 'Revoke this connection?' }).getByRole('button', { name: 'Revoke' }).click();
      await expect(item).toContainText('Revoked');

      // The revoked access token gets 401 saying so; in the SDK the refresh token is refused too,
      // so the host is sent back to consent.
      const revoked = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}`, 'mcp-protocol-version': LEGACY },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(revoked.status, await revoked.text()).toBe(401);
      expect(revoked.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      await expect(legacy.callTool({ name: 'get_balance', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.authorizationRequests).toHaveLength(2);
      expect(provider.tokens()).toBeUndefined();
      expect(await agentLedgerUsdc(page.request, agent)).toBe(17_000_000n);
    } finally {
      for (const client of clients) await client.close().catch(() => {});
      await close(callback.server);
      await close(metadata.server);
    }
  });
});
