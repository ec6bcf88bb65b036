// A budget asked for over MCP and granted in one tap (issue 43), as an agent, its host and its
// owner go through it: the agent asks for $5 with the official MCP client (2026-07-28), whose
// host is handed the one-time approval link (a URL-mode elicitation) while the call waits; the
// owner's open approvals page counts the request without a reload; the owner lowers it to $3 and
// approves; the waiting call answers the open budget; the agent pays $1 three times naming it and
// the fourth is refused with a stable code. A second budget, granted from its approval link, closes
// at its expiry on its own. Every budget.* event reaches the owner's endpoint signed, once each.
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { expect, test, type Page } from '@playwright/test';
import { AGENT_API, PAYEE, agentHeaders, agentLedgerUsdc, createFundedAgent } from '../support/agents';
import { signUpOwner } from '../support/owner';
import { openSettled } from '../support/session';
import { startWebhookReceiver } from '../support/webhook-receiver';

const PAGE_LOAD = { timeout: 30_000 };
const LIVE = { timeout: 20_000 };

interface SessionEvent {
  id: string;
  type: string;
  data: { session: { id: string; status: string; total: number; closedReason: string | null } };
}

const approvalsLink = (page: Page, name: string) => page.getByRole('link', { name, exact: true });
const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

test('an agent asks for $5 over MCP, the owner grants $3 in one tap, three $1 payments spend it, a fourth is refused; another closes at its expiry', async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  const receiver = await startWebhookReceiver<SessionEvent>('/hooks/budgets');
  const client = new Client({ name: 'journey-host', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    const owner = await signUpOwner(page.request);
    const agent = await createFundedAgent(page.request, owner, { name: `Journey bot ${Date.now() % 100_000}`, fund: 20 });
    const endpoint = await page.request.post('/api/v1/webhooks', {
      headers: { Authorization: `Bearer ${owner.accessToken}` },
      data: { url: receiver.url, events: ['budget.requested', 'budget.granted', 'budget.rejected', 'budget.closed'] },
    });
    expect(endpoint.status(), await endpoint.text()).toBe(201);
    receiver.secret.value = ((await endpoint.json()) as { secret: string }).secret;
    const before = await agentLedgerUsdc(page.request, agent);

    // The owner is on the approvals page when the agent asks.
    await openSettled(page, '/dashboard/approvals');
    await expect(approvalsLink(page, 'Approvals')).toBeVisible(PAGE_LOAD);

    // The host opens URLs for its person: it is handed the approval link, and the call waits.
    const handedOver: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      handedOver.push(String((request.params as { url?: string }).url));
      return { action: 'accept' };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}${AGENT_API}/mcp`), { requestInit: { headers: agentHeaders(agent) } }));
    const asking = client.callTool({
      name: 'request_budget',
      arguments: { total: 5, expires_at: new Date(Date.now() + 3_600_000).toISOString(), reason: 'Buy three dataset parts for the report' },
    }) as Promise<CallToolResult>;

    // The request exists (a call that failed instead of waiting says why here, not as a page
    // that never counts it); then it is counted without a reload.
    const ended = asking.then(
      (result) => `request_budget answered before the owner decided: ${text(result)}`,
      (error: unknown) => `request_budget failed: ${String(error)}`,
    );
    const waiting = async () => {
      const listed = await page.request.get(`/api/v1/payment-sessions?agentId=${agent.id}&status=requested`, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
      return listed.ok() ? ((await listed.json()) as { sessions: unknown[] }).sessions.length : `${listed.status()} ${await listed.text()}`;
    };
    await Promise.race([expect.poll(waiting, LIVE).toBe(1), ended.then((reason) => Promise.reject(new Error(reason)))]);
    // The owner lowers it to $3 and approves.
    await expect(approvalsLink(page, 'Approvals, 1 waiting')).toBeVisible(LIVE);
    const request = page.getByRole('article', { name: `Budget for ${agent.name}` });
    await expect(request).toContainText('Buy three dataset parts for the report');
    await request.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: `Approve budget for ${agent.name}` });
    await dialog.getByLabel('Total (USD)').fill('3');
    await dialog.getByRole('button', { name: 'Approve budget' }).click();
    await expect(dialog).toBeHidden(LIVE);
    await expect(approvalsLink(page, 'Approvals')).toBeVisible(LIVE);

    // The agent's call answers once the owner decided: the budget, open, for $3.
    const granted = await asking;
    expect(granted.isError, text(granted)).toBeFalsy();
    const budget = granted.structuredContent as { session_id: string; status: string; total: number };
    expect(budget).toMatchObject({ status: 'open', total: 3 });
    expect(handedOver).toEqual([expect.stringMatching(/\/approve\/[A-Za-z0-9_-]{40,}$/)]);

    // Three $1 payments naming it settle; the fourth is refused with the session's code.
    for (const part of [1, 2, 3]) {
      const paid = (await client.callTool({
        name: 'make_payment',
        arguments: { amount: 1, to_address: PAYEE, description: `Dataset part ${part}`, idempotency_key: `journey-${budget.session_id}-${part}`, session_id: budget.session_id },
      })) as CallToolResult;
      expect(paid.isError, text(paid)).toBeFalsy();
      expect(paid.structuredContent).toMatchObject({ status: 'settled', amount: 1 });
    }
    const fourth = (await client.callTool({
      name: 'make_payment',
      arguments: { amount: 1, to_address: PAYEE, description: 'Dataset part 4', idempotency_key: `journey-${budget.session_id}-4`, session_id: budget.session_id },
    })) as CallToolResult;
    expect(fourth.isError).toBe(true);
    expect(text(fourth)).toMatch(/^POLICY_VIOLATION: .*\((SESSION_NOT_OPEN|SESSION_BUDGET_EXCEEDED);/);
    expect(await agentLedgerUsdc(page.request, agent)).toBe(before - 3_000_000n);

    // The agent page shows it spent and closed.
    await page.goto(`/dashboard/agents/${agent.id}`);
    const sessions = page.getByRole('region', { name: 'Payment sessions' });
    const spent = sessions.locator(`[data-session-id="${budget.session_id}"]`);
    await expect(spent).toContainText('Closed: all spent', PAGE_LOAD);

    // A second budget, granted from its one-time link, ends at its expiry by itself.
    const second = await page.request.post(`${AGENT_API}/budget/request`, {
      headers: agentHeaders(agent),
      data: { total: 2, expires_at: new Date(Date.now() + 30_000).toISOString(), reason: 'One more part, briefly' },
    });
    expect(second.status(), await second.text()).toBe(201);
    const { session_id: secondId, approval_url: approvalUrl } = (await second.json()) as { session_id: string; approval_url: string };
    await page.goto(new URL(approvalUrl).pathname);
    await page.getByRole('form', { name: `${agent.name} asks for a budget` }).getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Budget approved' })).toBeVisible(PAGE_LOAD);
    await page.goto(`/dashboard/agents/${agent.id}`);
    const expiring = page.getByRole('region', { name: 'Payment sessions' }).locator(`[data-session-id="${secondId}"]`);
    await expect(expiring).toContainText('Open', PAGE_LOAD);
    // Its timer closes it; the open page follows without a reload.
    await expect(expiring).toContainText('Closed: expired', { timeout: 90_000 });

    // Each event arrived once, signed: asked, granted and closed, for each budget.
    const summary = () =>
      receiver.received
        .map((event) => `${event.body.type} ${event.body.data.session.id === budget.session_id ? 'first' : 'second'} ${event.body.data.session.closedReason ?? ''}`.trim())
        .sort();
    await expect.poll(summary, { timeout: 60_000 }).toEqual([
      'budget.closed first spent',
      'budget.closed second expired',
      'budget.granted first',
      'budget.granted second',
      'budget.requested first',
      'budget.requested second',
    ]);
    expect(new Set(receiver.received.map((event) => event.id)).size).toBe(6);
    expect(receiver.received.every((event) => event.id === event.body.id)).toBe(true);
    expect(receiver.forged).toBe(0);
  } finally {
    await client.close();
    await receiver.close();
  }
});
