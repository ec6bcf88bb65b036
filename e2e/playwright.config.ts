// Playwright drives Debian's Chromium against an already running product at E2E_BASE_URL.
// Browsers are never downloaded: the machine's chromium is the one under test.
import { execSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

const baseURL = process.env.E2E_BASE_URL;
if (!baseURL) {
  throw new Error(
    'E2E_BASE_URL is not set. Start the product (or `npx vite preview` in web/) and run, e.g.:\n' +
      '  E2E_BASE_URL=http://127.0.0.1:3000 npm test -w @purser/e2e',
  );
}

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    const found = execSync('command -v chromium', { encoding: 'utf8', shell: '/bin/sh' }).trim();
    if (found) return found;
  } catch {
    // Not on PATH; fall through to Debian's location.
  }
  return '/usr/bin/chromium';
}

export default defineConfig({
  testDir: 'specs',
  workers: 1,
  // A flaky spec should be seen and fixed, not retried away.
  retries: 0,
  // Each test's budget (Playwright's default is 30 s): CI runs this lane on two cores beside the
  // temporal suite, where a journey of sign-ups and page loads that takes 15 s on a quiet machine
  // took over 30 (agent-pages' 'Agent not found' test). Specs that need more still say so.
  timeout: 60_000,
  // And each expectation's (default 5 s), for the same reason: a page's chunk fetched and rendered
  // after a release took longer than 5 s there (code-splitting's slow-chunk test).
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['json', { outputFile: '../.test-output/e2e.json' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
