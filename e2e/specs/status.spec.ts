// /status: live health from the running product (tRPC `health.get`), mapped to the spec's
// services; the page's reaction to a failed check (the answer rewritten with page.route) and
// to an unreachable health check; the telemetry panel (the sandbox chain `npm start` runs and
// the webhook backlog among its rows), incident log and support contact.
import { expect, test, type Page } from '@playwright/test';
import { auditPage } from '../support/page-checks';
import { gotoHydrated } from '../support/hydration';

type Check = { status: 'up' | 'down'; latencyMs: number; error?: string; restarts?: number; pending?: number; oldestPendingSeconds?: number | null };

/** Answers health.get with the real report, with the named checks replaced. */
async function overrideHealth(page: Page, checks: Record<string, Check>) {
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('health.get'),
    async (route) => {
      const response = await route.fetch();
      const procedures = new URL(route.request().url()).pathname.slice('/trpc/'.length).split(',');
      const body = (await response.json()) as { result: { data: { status: string; checks: Record<string, Check> } } }[];
      const report = body[procedures.indexOf('health.get')]!.result.data;
      Object.assign(report.checks, checks);
      // As the server does: the webhook backlog is informational and never makes the product unavailable.
      const required = Object.entries(report.checks).filter(([name]) => name !== 'webhooks');
      report.status = required.every(([, check]) => check.status === 'up') ? 'ok' : 'unavailable';
      await route.fulfill({ response, json: body });
    },
  );
}

function service(page: Page, name: string) {
  return page.getByRole('listitem', { name, exact: true });
}

test.describe('status page', () => {
  test('shows the running product as all operational, with its real check latencies', async ({ page, request }, testInfo) => {
    // The product really is up: its own health endpoint says so.
    const healthz = await request.get('/healthz');
    expect(healthz.ok(), await healthz.text()).toBe(true);

    const answered = page.waitForResponse((response) => response.url().includes('/trpc/') && response.url().includes('health.get'));
    await gotoHydrated(page, '/status');
    const report = (await (await answered).json()) as { result: { data: { checks: Record<string, Check> } } }[];
    const checks = report[0]!.result.data.checks;
    await expect(page.getByRole('heading', { level: 1, name: 'System status' })).toBeVisible();
    await expect(page.getByTestId('overall-status')).toHaveText('All systems operational');

    const coreGroup = page.getByRole('region', { name: 'Core Platform' });
    const agentGroup = page.getByRole('region', { name: 'Agent Orchestration' });
    for (const [group, names] of [
      [coreGroup, ['Intent & Policy API', 'Webhook Delivery', 'Realtime Telemetry']],
      [agentGroup, ['Wallet Provisioning', 'Base / EVM Rail', 'Solana Rail']],
    ] as const) {
      for (const name of names) await expect(group.getByRole('listitem', { name, exact: true })).toContainText('Operational');
    }
    await expect(service(page, 'Solana Rail')).toContainText('Sandbox simulator');

    // `npm start` runs the sandbox chain, so the report checks it and the Base / EVM Rail needs it.
    expect(checks.chain, 'the report checks the sandbox chain').toBeDefined();
    await expect(service(page, 'Base / EVM Rail')).toContainText('Depends on: Database, Temporal, Payments worker, Sandbox chain.');
    await expect(service(page, 'Base / EVM Rail')).not.toContainText('not checked');

    // The telemetry panel shows the latencies health.get answered, not made-up ones.
    const telemetry = page.getByRole('region', { name: 'Telemetry' });
    for (const name of ['database', 'temporal', 'worker', 'chain']) {
      expect(checks[name]!.status).toBe('up');
      await expect(telemetry.getByTestId(`latency-${name}`)).toHaveText(`${checks[name]!.latencyMs} ms`);
    }
    await expect(telemetry.getByRole('term').filter({ hasText: 'Sandbox chain' })).toBeVisible();
    // Nothing restarted the embedded children, so no restart count is shown.
    expect([checks.temporal!.restarts, checks.chain!.restarts]).toEqual([0, 0]);
    await expect(telemetry.getByTestId(/^restarts-/)).toHaveCount(0);

    // No spec registers a webhook endpoint, so no delivery waits; the backlog is still shown.
    expect(checks.webhooks).toMatchObject({ status: 'up', pending: 0, oldestPendingSeconds: null });
    await expect(telemetry.getByRole('term').filter({ hasText: 'Webhook backlog' })).toBeVisible();
    await expect(telemetry.getByTestId('webhook-backlog')).toHaveText('0 waiting');
    await expect(service(page, 'Webhook Delivery')).not.toContainText('waiting');
    // The spec's sample figures appear only under an Illustrative label.
    await expect(telemetry.getByText('Illustrative')).toBeVisible();
    await expect(telemetry.getByText('1.2M')).toBeVisible();
    await expect(telemetry.getByText('99.98%')).toBeVisible();
    await expect(telemetry.getByText('in 5 minutes')).toBeVisible();
    await expect(telemetry.getByText('22:00-22:20 UTC')).toBeVisible();

    await auditPage(page, testInfo, 'status', async () => {
      await gotoHydrated(page, '/status');
      await expect(page.getByTestId('overall-status')).toHaveText('All systems operational');
    });
  });

  test('a down worker takes down the services that need it and only those', async ({ page }) => {
    await overrideHealth(page, { worker: { status: 'down', latencyMs: 5_000, error: 'timed out' } });
    await gotoHydrated(page, '/status');
    await expect(page.getByTestId('overall-status')).toHaveText('Partial outage');
    for (const name of ['Intent & Policy API', 'Webhook Delivery', 'Base / EVM Rail', 'Solana Rail']) {
      await expect(service(page, name)).toContainText('Outage');
      await expect(service(page, name)).toContainText('Not answering: Payments worker.');
    }
    for (const name of ['Realtime Telemetry', 'Wallet Provisioning']) await expect(service(page, name)).toContainText('Operational');
    await expect(page.getByRole('region', { name: 'Telemetry' })).toContainText('Timed out');
  });

  test('a sandbox chain the supervisor gave up on takes down the Base / EVM Rail only', async ({ page }) => {
    await overrideHealth(page, { chain: { status: 'down', latencyMs: 3, error: 'gave up', restarts: 3 } });
    await gotoHydrated(page, '/status');
    await expect(page.getByTestId('overall-status')).toHaveText('Partial outage');
    await expect(service(page, 'Base / EVM Rail')).toContainText('Outage');
    await expect(service(page, 'Base / EVM Rail')).toContainText('Not answering: Sandbox chain.');
    for (const name of ['Intent & Policy API', 'Webhook Delivery', 'Realtime Telemetry', 'Wallet Provisioning', 'Solana Rail']) {
      await expect(service(page, name)).toContainText('Operational');
    }
    const telemetry = page.getByRole('region', { name: 'Telemetry' });
    await expect(telemetry).toContainText('Gave up — restart needed');
    await expect(telemetry.getByTestId('restarts-chain')).toHaveText('restarted 3×');
  });

  test('a webhook backlog is shown but changes no service’s state', async ({ page }) => {
    await overrideHealth(page, { webhooks: { status: 'up', latencyMs: 4, pending: 12, oldestPendingSeconds: 190 } });
    await gotoHydrated(page, '/status');
    await expect(page.getByTestId('overall-status')).toHaveText('All systems operational');
    await expect(service(page, 'Webhook Delivery')).toContainText('Operational');
    await expect(service(page, 'Webhook Delivery')).toContainText('12 deliveries waiting for their receivers, oldest 3 min.');
    await expect(page.getByRole('region', { name: 'Telemetry' }).getByTestId('webhook-backlog')).toHaveText('12 waiting, oldest 3 min');
  });

  test('a down database is a major outage', async ({ page }) => {
    await overrideHealth(page, { database: { status: 'down', latencyMs: 40, error: 'unreachable' } });
    await gotoHydrated(page, '/status');
    await expect(page.getByTestId('overall-status')).toHaveText('Major outage');
    await expect(service(page, 'Wallet Provisioning')).toContainText('Outage');
    await expect(service(page, 'Realtime Telemetry')).toContainText('Outage');
  });

  test('a slow check shows as degraded performance', async ({ page }) => {
    await overrideHealth(page, { temporal: { status: 'up', latencyMs: 2_400 } });
    await gotoHydrated(page, '/status');
    await expect(page.getByTestId('overall-status')).toHaveText('Degraded performance');
    await expect(service(page, 'Intent & Policy API')).toContainText('Degraded');
    await expect(service(page, 'Wallet Provisioning')).toContainText('Operational');
  });

  test('an unreachable health check never reads as operational', async ({ page }, testInfo) => {
    await page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('health.get'),
      (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }),
    );
    await gotoHydrated(page, '/status');
    await expect(page.getByTestId('overall-status')).toHaveText('Status unavailable');
    await expect(page.getByText('All systems operational')).toHaveCount(0);
    await expect(service(page, 'Intent & Policy API')).toContainText('Unknown');

    // Once the platform answers again, Check now brings the page back.
    await page.unrouteAll({ behavior: 'wait' });
    await page.getByRole('button', { name: 'Check now' }).click();
    await expect(page.getByTestId('overall-status')).toHaveText('All systems operational');

    await page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('health.get'),
      (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }),
    );
    await auditPage(page, testInfo, 'status-unreachable', async () => {
      await gotoHydrated(page, '/status');
      await expect(page.getByTestId('overall-status')).toHaveText('Status unavailable');
    });
  });

  test('has the incident log, Subscribe to updates and the support contact', async ({ page }) => {
    await gotoHydrated(page, '/status');
    const log = page.getByRole('region', { name: 'Incident log' });
    await expect(log.getByText('Illustrative', { exact: true })).toBeVisible();
    await expect(log.getByRole('listitem')).toHaveCount(5);
    await expect(log.getByRole('heading', { level: 3 }).first()).toHaveText('Elevated confirmation times on the Base / EVM Rail');

    await expect(page.getByRole('link', { name: 'support@purser.example' })).toHaveAttribute('href', 'mailto:support@purser.example');

    await page.getByRole('button', { name: 'Subscribe to updates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Status updates' });
    await expect(dialog).toContainText('not available yet');
    await expect(dialog.getByRole('link', { name: 'Email support' })).toHaveAttribute('href', /^mailto:support@purser\.example\?subject=/);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});
