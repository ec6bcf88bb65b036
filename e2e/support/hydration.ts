import type { Page, Response } from '@playwright/test';

/**
 * `page.goto`, then, on a pre-rendered public page (its HTML arrives with the page in it), waits
 * until React has taken the page over (`#root[data-hydrated]`, set when it hydrated the page or,
 * its chunk failing, rendered it anew): before that its links work as plain links but its
 * buttons do nothing. Other pages render on the client and need no wait.
 */
export async function gotoHydrated(page: Page, url: string, options?: Parameters<Page['goto']>[1]): Promise<Response | null> {
  const response = await page.goto(url, options);
  await waitForHydration(page);
  return response;
}

/** `page.reload`, then the same wait as {@link gotoHydrated}. */
export async function reloadHydrated(page: Page): Promise<Response | null> {
  const response = await page.reload();
  await waitForHydration(page);
  return response;
}

async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    return !root?.hasAttribute('data-prerendered-path') || root.hasAttribute('data-hydrated');
  });
}
