// Opening pages as an owner signed up over the API (support/owner.ts). Such a browser has the
// session cookies but not the session metadata the app keeps in local storage, so the first page
// refreshes the session at once to learn when it expires. The server rotates the refresh token
// and treats a spent one as stolen: leaving that first page while the refresh is on its way
// (its new cookies never arrive) ends the session. Specs that move from page to page with
// page.goto therefore wait for that first refresh to land.
import { expect, type Page } from '@playwright/test';

export async function openSettled(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect
    .poll(
      // A navigation meanwhile (the dev server reloading the page) destroys the context: ask again.
      () => page.evaluate(() => (JSON.parse(localStorage.getItem('purser-session') ?? 'null') as { expires_at?: number } | null)?.expires_at ?? 0).catch(() => 0),
      {
        message: 'the session metadata (with its expiry) is stored',
        // Not the default five seconds: a page served by the Vite dev server on a busy machine
        // (compiled on its first request) can take longer than that to get this far.
        timeout: 30_000,
      },
    )
    .toBeGreaterThan(0);
}
