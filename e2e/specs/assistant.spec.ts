// The assistant widget on every page (spec sections 2, 4, 7 and 8): the round button, the open
// and minimised panel and their sizes, full screen on a phone, the conversation kept while the
// page lives, the call the widget makes, the reply streaming into one bubble, markdown with
// GitHub's extensions and its link sanitising, the error message, and the accessibility audit.
//
// Most tests answer the endpoint themselves (page.route, or a scripted stream), because they
// are about the widget's side: what it sends and how it reads and shows the answer. Those
// answers are hand-built in the endpoint's wire format; they are no model and no server. The
// last test asks the real endpoint of the running product.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ASSISTANT_ERROR_MESSAGE, ASSISTANT_GREETING, ASSISTANT_PATH, PUBLIC_ANON_KEY } from '@purser/core';
import { watchCspViolations } from '../support/csp-violations';
import { auditPage, openInTheme, THEMES, WIDTHS } from '../support/page-checks';
import { startScriptedSseServer, type ScriptedSseServer } from '../support/scripted-sse-server';
import { gotoHydrated, reloadHydrated } from '../support/hydration';

const ENDPOINT = `**${ASSISTANT_PATH}`;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const launcher = (page: Page) => page.getByRole('button', { name: 'Open AI Assistant' });
const panel = (page: Page) => page.getByRole('dialog', { name: 'AI Assistant' });
const conversation = (page: Page) => panel(page).getByRole('log', { name: 'Conversation' });
const input = (page: Page) => panel(page).getByRole('textbox', { name: 'Message to the AI Assistant' });
const sendButton = (page: Page) => panel(page).getByRole('button', { name: 'Send' });
const replies = (page: Page) => conversation(page).locator('[data-role="assistant"]');
const questions = (page: Page) => conversation(page).locator('[data-role="user"]');
const thinking = (page: Page) => conversation(page).getByText('Thinking...', { exact: true });

/** One `data:` line of the endpoint's stream carrying `content`. */
const delta = (content: string) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}`;

/** A whole stream: each piece of the reply in its own event, then [DONE]. */
const stream = (...pieces: string[]) => `${pieces.map((piece) => `${delta(piece)}\n\n`).join('')}data: [DONE]\n\n`;

/** Answers every assistant call with `body` as the event stream. */
async function answerWith(page: Page, body: string) {
  await page.route(ENDPOINT, (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body }));
}

async function open(page: Page) {
  await launcher(page).click();
  await expect(panel(page)).toBeVisible();
}

async function ask(page: Page, question: string) {
  await input(page).fill(question);
  await input(page).press('Enter');
}

/** The reply is over: the input and the send button work again. */
async function expectIdle(page: Page) {
  await expect(thinking(page)).toHaveCount(0);
  await expect(input(page)).toBeEnabled();
  await expect(input(page)).toBeFocused();
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('the element has no box');
  return found;
}

test.describe('assistant widget: states and sizes', () => {
  test('is a round button at the bottom right that opens a 384 by 600 panel titled AI Assistant', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await gotoHydrated(page, '/');
    const button = await box(launcher(page));
    expect(button.width).toBe(button.height);
    expect(await launcher(page).evaluate((element) => getComputedStyle(element).borderRadius)).toBe('50%');
    expect(DESKTOP.width - (button.x + button.width)).toBe(24);
    expect(DESKTOP.height - (button.y + button.height)).toBe(24);

    await open(page);
    await expect(launcher(page)).toHaveCount(0);
    await expect(panel(page).getByRole('heading', { level: 2 })).toHaveText('AI Assistant');
    const opened = await box(panel(page));
    expect([opened.width, opened.height]).toEqual([384, 600]);
    expect([DESKTOP.width - (opened.x + opened.width), DESKTOP.height - (opened.y + opened.height)]).toEqual([24, 24]);
    // Beside the page, not over it: the page stays reachable.
    await expect(panel(page)).toHaveAttribute('aria-modal', 'false');

    // The conversation starts with the greeting; the input is ready.
    await expect(replies(page)).toHaveCount(1);
    await expect(replies(page)).toContainText(ASSISTANT_GREETING);
    await expect(input(page)).toHaveAttribute('placeholder', 'Ask me anything...');
    await expect(input(page)).toBeFocused();
    await expect(sendButton(page)).toBeDisabled();
  });

  test('minimises to its 320 by 56 header bar, restores, and closes with the button or Escape, giving the focus back', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await gotoHydrated(page, '/');
    await open(page);
    const minimise = panel(page).getByRole('button', { name: 'Minimise' });
    await expect(minimise).toHaveAttribute('aria-pressed', 'false');

    await minimise.click();
    await expect(minimise).toHaveAttribute('aria-pressed', 'true');
    await expect(conversation(page)).toBeHidden();
    await expect(input(page)).toBeHidden();
    await expect(panel(page).getByRole('heading', { name: 'AI Assistant' })).toBeVisible();
    const minimised = await box(panel(page));
    expect([minimised.width, minimised.height]).toEqual([320, 56]);
    expect([DESKTOP.width - (minimised.x + minimised.width), DESKTOP.height - (minimised.y + minimised.height)]).toEqual([24, 24]);

    await minimise.click();
    await expect(minimise).toHaveAttribute('aria-pressed', 'false');
    const restored = await box(panel(page));
    expect([restored.width, restored.height]).toEqual([384, 600]);
    await expect(input(page)).toBeFocused();

    await panel(page).getByRole('button', { name: 'Close' }).click();
    await expect(panel(page)).toHaveCount(0);
    await expect(launcher(page)).toBeFocused();

    // Escape from inside the panel closes it too.
    await page.keyboard.press('Enter');
    await expect(input(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel(page)).toHaveCount(0);
    await expect(launcher(page)).toBeFocused();
  });

  test('fills a phone screen when open and becomes a bar along the bottom when minimised', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await gotoHydrated(page, '/');
    const button = await box(launcher(page));
    expect([PHONE.width - (button.x + button.width), PHONE.height - (button.y + button.height)]).toEqual([16, 16]);

    await open(page);
    expect(await box(panel(page))).toEqual({ x: 0, y: 0, ...PHONE });
    await expect(input(page)).toBeInViewport();
    await expect(sendButton(page)).toBeInViewport();
    // Filling the screen, it hides the page: the focus stays inside, Tab after Tab.
    await expect(panel(page)).toHaveAttribute('aria-modal', 'true');
    for (let press = 0; press < 8; press += 1) {
      await page.keyboard.press('Tab');
      expect(await panel(page).evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }

    await panel(page).getByRole('button', { name: 'Minimise' }).click();
    expect(await box(panel(page))).toEqual({ x: 0, y: PHONE.height - 56, width: PHONE.width, height: 56 });
  });

  test('keeps the conversation while the page lives, across closing and page changes, and loses it on reload', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await answerWith(page, stream('Start with the ', '[docs](/docs).'));
    await gotoHydrated(page, '/');
    await open(page);
    await ask(page, 'Where do I start?');
    await expect(replies(page).last()).toHaveText('Assistant: Start with the docs.');
    await expectIdle(page);

    await panel(page).getByRole('button', { name: 'Close' }).click();
    await open(page);
    await expect(questions(page)).toHaveText(['You: Where do I start?']);
    await expect(replies(page)).toHaveCount(2);

    // A link in a reply moves the app to the page without reloading it: the panel stays.
    await replies(page).last().getByRole('link', { name: 'docs' }).click();
    await expect(page).toHaveURL(/\/docs$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();
    await expect(questions(page)).toHaveCount(1);
    await expect(replies(page)).toHaveCount(2);

    await reloadHydrated(page);
    await open(page);
    await expect(questions(page)).toHaveCount(0);
    await expect(replies(page)).toHaveText([`Assistant: ${ASSISTANT_GREETING}`]);
  });
});

test.describe('assistant widget: loading', () => {
  const panelChunk = /\/assets\/assistant-panel-[\w-]+\.js$/;

  test('ships only the button with the page: the panel and its markdown renderer load when the pointer reaches the button', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await gotoHydrated(page, '/', { waitUntil: 'networkidle' });
    await expect(launcher(page)).toBeVisible();
    expect(scripts.filter((script) => panelChunk.test(script)), scripts.join('\n')).toEqual([]);

    const fetched = page.waitForRequest(panelChunk);
    await launcher(page).hover();
    await fetched;
    await expect(panel(page)).toHaveCount(0);
    await open(page);
  });

  test('says so when the panel cannot be downloaded, and leaves the button to try again', async ({ page }) => {
    await page.route(panelChunk, (route) => route.abort('connectionfailed'));
    await gotoHydrated(page, '/');
    await launcher(page).click();
    await expect(page.getByText('The assistant could not be loaded. Please try again.')).toBeVisible();
    await expect(panel(page)).toHaveCount(0);
    await expect(launcher(page)).toBeEnabled();
  });
});

test.describe('assistant widget: asking (the stream is answered by the test)', () => {
  let server: ScriptedSseServer;
  test.beforeEach(async () => {
    server = await startScriptedSseServer();
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('sends the conversation with the page and the public key, shows Thinking..., then grows the reply in one bubble', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.route(ENDPOINT, (route) => route.continue({ url: server.url }));
    await gotoHydrated(page, '/docs');
    await open(page);
    await ask(page, 'How do I fund an agent?');
    const request = await server.nextRequest();

    // The call of spec section 7.
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(`Bearer ${PUBLIC_ANON_KEY}`);
    expect(JSON.parse(request.body)).toEqual({
      messages: [
        { role: 'assistant', content: ASSISTANT_GREETING },
        { role: 'user', content: 'How do I fund an agent?' },
      ],
      currentPage: '/docs',
    });

    // Waiting: Thinking..., the question shown, input and send disabled.
    await expect(questions(page)).toHaveText(['You: How do I fund an agent?']);
    await expect(thinking(page)).toBeVisible();
    await expect(input(page)).toBeDisabled();
    await expect(sendButton(page)).toBeDisabled();
    await expect(replies(page)).toHaveCount(1);

    // Comments, blank lines and an unparsable line are skipped; text lands in one new bubble.
    request.write(': keep-alive', '', delta('Open the '), '');
    await expect(replies(page)).toHaveCount(2);
    await expect(replies(page).last()).toHaveText('Assistant: Open the');
    await expect(thinking(page)).toHaveCount(0);
    await expect(input(page)).toBeDisabled();

    request.write('data: {not json', '', delta('**dashboard**'), '', ': still there', delta(' and choose Fund.'), '');
    await expect(replies(page).last()).toHaveText('Assistant: Open the dashboard and choose Fund.');
    await expect(replies(page).last().locator('strong')).toHaveText('dashboard');
    await expect(replies(page)).toHaveCount(2);
    await expect(input(page)).toBeDisabled();

    request.write('data: [DONE]', '');
    await expectIdle(page);
    await expect(replies(page)).toHaveCount(2);
    request.end();

    // The next question carries the whole conversation, the reply included.
    await ask(page, 'Thanks');
    const next = await server.nextRequest();
    expect((JSON.parse(next.body) as { messages: unknown[] }).messages).toEqual([
      { role: 'assistant', content: ASSISTANT_GREETING },
      { role: 'user', content: 'How do I fund an agent?' },
      { role: 'assistant', content: 'Open the **dashboard** and choose Fund.' },
      { role: 'user', content: 'Thanks' },
    ]);
    next.write(delta('You are welcome.'), '', 'data: [DONE]', '');
    next.end();
    await expect(replies(page)).toHaveCount(3);
    await expectIdle(page);
  });

  test('sends with Enter, starts a new line with Shift+Enter, shows the question as plain text, and keeps send disabled while blank', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.route(ENDPOINT, (route) => route.continue({ url: server.url }));
    await gotoHydrated(page, '/');
    await open(page);
    await expect(sendButton(page)).toBeDisabled();
    await input(page).fill('   \n  ');
    await expect(sendButton(page)).toBeDisabled();
    await input(page).press('Enter');
    await expect(questions(page)).toHaveCount(0);

    await input(page).fill('');
    await input(page).pressSequentially('**not bold** <b>nor this</b>');
    await input(page).press('Shift+Enter');
    await input(page).pressSequentially('- not a list');
    await expect(input(page)).toHaveValue('**not bold** <b>nor this</b>\n- not a list');
    await expect(sendButton(page)).toBeEnabled();
    await input(page).press('Enter');

    const request = await server.nextRequest();
    expect((JSON.parse(request.body) as { messages: Array<{ content: string }> }).messages.at(-1)?.content).toBe('**not bold** <b>nor this</b>\n- not a list');
    const question = questions(page);
    await expect(question).toHaveText('You: **not bold** <b>nor this</b>\n- not a list');
    // innerText keeps a line break only where the page shows one.
    expect(await question.evaluate((element) => (element as HTMLElement).innerText)).toContain('**not bold** <b>nor this</b>\n- not a list');
    await expect(question.locator('strong, b, ul, li')).toHaveCount(0);
    await expect(input(page)).toHaveValue('');

    // A second Enter while the reply is pending sends nothing.
    await expect(input(page)).toBeDisabled();
    await page.keyboard.press('Enter');
    request.write(delta('Noted.'), '', 'data: [DONE]', '');
    request.end();
    await expectIdle(page);
    await expect(questions(page)).toHaveCount(1);
  });

  test('shows the error message when the stream stops before [DONE], keeping what had arrived', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.route(ENDPOINT, (route) => route.continue({ url: server.url }));
    await gotoHydrated(page, '/');
    await open(page);
    await ask(page, 'Tell me about KYA tiers');
    const request = await server.nextRequest();
    request.write(delta('KYA tiers are'), '');
    await expect(replies(page).last()).toHaveText('Assistant: KYA tiers are');
    request.end();
    await expect(replies(page).last()).toHaveText(`Assistant: ${ASSISTANT_ERROR_MESSAGE}`);
    await expect(replies(page)).toHaveCount(3);
    await expectIdle(page);
  });
});

test.describe('assistant widget: markdown', () => {
  test('renders a table, a task list, a footnote, an image and links, and leaves a javascript: link without an address', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await answerWith(
      page,
      stream(
        'Steps for **funding**:\n\n',
        '| Rail | Currency |\n| --- | --- |\n| Base | USDC |\n| Solana | USDT |\n\n',
        '- [x] Create an agent\n- [ ] Fund it\n\n',
        'Limits apply[^1]. ![Purser logo](/favicon.svg)\n\n',
        'Read [the docs](/docs#funding), [x402](https://x402.org), mail [support](mailto:support@purser.dev), or [x](javascript:alert(1)).\n\n',
        '[^1]: The daily limit of the agent’s spending rules.',
      ),
    );
    await gotoHydrated(page, '/');
    await open(page);
    await ask(page, 'Show me everything');
    const reply = replies(page).last();
    await expect(reply).toContainText('Steps for funding:');
    await expectIdle(page);

    const table = reply.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText(['Rail', 'Currency']);
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('cell', { name: 'USDT' })).toBeVisible();

    const boxes = reply.getByRole('checkbox');
    await expect(boxes).toHaveCount(2);
    await expect(reply.getByRole('checkbox', { name: 'Done', exact: true })).toBeChecked();
    await expect(reply.getByRole('checkbox', { name: 'Not done', exact: true })).not.toBeChecked();
    for (const checkbox of await boxes.all()) await expect(checkbox).toBeDisabled();
    await expect(reply.getByRole('listitem').filter({ hasText: 'Create an agent' })).toBeVisible();

    // The footnote: a numbered reference, and the note at the end that links back to it.
    const reference = reply.locator('sup a');
    await expect(reference).toHaveText('1');
    await expect(reply.locator('section.footnotes')).toContainText('The daily limit of the agent’s spending rules.');
    const noteId = ((await reference.getAttribute('href')) ?? '').slice(1);
    await expect(reply.locator(`[id="${noteId}"]`)).toContainText('The daily limit');
    await reference.click();
    await expect(page).toHaveURL(/\/$/);

    const image = reply.getByRole('img', { name: 'Purser logo' });
    await expect(image).toHaveAttribute('src', '/favicon.svg');
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    await expect(reply.getByRole('link', { name: 'the docs' })).toHaveAttribute('href', '/docs#funding');
    const external = reply.getByRole('link', { name: 'x402 (opens in a new tab)' });
    await expect(external).toHaveAttribute('href', 'https://x402.org');
    await expect(external).toHaveAttribute('target', '_blank');
    await expect(external).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(reply.getByRole('link', { name: 'support' })).toHaveAttribute('href', 'mailto:support@purser.dev');

    // javascript: is not an allowed protocol: the text stays, the link does not.
    await expect(reply.getByText('x', { exact: true })).toBeVisible();
    await expect(reply.getByRole('link', { name: 'x', exact: true })).toHaveCount(0);
    await expect(panel(page).locator('[href*="javascript" i], [src*="javascript" i]')).toHaveCount(0);
  });

  test('loads the panel and renders a rich reply under the Content-Security-Policy with no violation', async ({ page }) => {
    const violations = await watchCspViolations(page);
    await answerWith(page, stream('| a | b |\n| - | - |\n| 1 | 2 |\n\n- [x] done\n\n![logo](/favicon.svg) ![chart](https://cdn.example.com/chart.png) [x](javascript:alert(1))[^1]\n\n[^1]: note'));
    const response = await gotoHydrated(page, '/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await open(page);
    await ask(page, 'Everything at once');
    await expectIdle(page);
    await expect(replies(page).last().getByRole('img', { name: 'logo' })).toBeVisible();
    // A picture from another site would be refused by img-src 'self': it is a link instead.
    await expect(replies(page).last().getByRole('link', { name: /^chart/ })).toHaveAttribute('href', 'https://cdn.example.com/chart.png');
    await page.waitForFunction(() => document.readyState === 'complete');
    expect(violations).toEqual([]);
  });

  test('keeps bubbles within 80% of the conversation’s width and the list scrolled to the newest message', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const long = 'A long sentence that wraps over several lines of the panel. '.repeat(6);
    await answerWith(page, stream(long, '\n\n', long));
    await gotoHydrated(page, '/');
    await open(page);
    await ask(page, long);
    await expectIdle(page);
    const list = await box(conversation(page));
    for (const bubble of [questions(page).last(), replies(page).last(), replies(page).first()]) {
      expect((await box(bubble)).width).toBeLessThanOrEqual(list.width * 0.8);
    }
    // The question sits on the right, the replies on the left.
    const question = await box(questions(page).last());
    const reply = await box(replies(page).last());
    expect(question.x + question.width).toBeGreaterThan(reply.x + reply.width);

    // The conversation is taller than the list, which shows its end.
    const scroll = await conversation(page).evaluate((element) => ({ top: element.scrollTop, height: element.scrollHeight, visible: element.clientHeight }));
    expect(scroll.height).toBeGreaterThan(scroll.visible);
    expect(scroll.height - scroll.top - scroll.visible).toBeLessThanOrEqual(1);
  });
});

test.describe('assistant widget: errors', () => {
  const FAILURES = [
    { what: 'the endpoint answers 500', answer: (page: Page) => page.route(ENDPOINT, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"INTERNAL","message":"boom"}}' })) },
    { what: 'the network fails', answer: (page: Page) => page.route(ENDPOINT, (route) => route.abort('connectionreset')) },
    { what: 'the stream is cut without [DONE]', answer: (page: Page) => answerWith(page, `${delta('Half an ')}\n\n`) },
    { what: 'the server reports an error mid-stream', answer: (page: Page) => answerWith(page, `${delta('Half an ')}\n\ndata: {"error":{"code":"UPSTREAM","message":"The model failed"}}\n\n`) },
  ];

  for (const failure of FAILURES) {
    test(`says 'Sorry, I encountered an error. Please try again.' and accepts a new question when ${failure.what}`, async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await failure.answer(page);
      await gotoHydrated(page, '/');
      await open(page);
      await ask(page, 'How do I fund an agent?');
      await expect(replies(page).last()).toHaveText(`Assistant: ${ASSISTANT_ERROR_MESSAGE}`);
      await expectIdle(page);
      expect(errors.some((text) => text.includes('The assistant could not answer')), errors.join('\n')).toBe(true);

      // Pending is cleared: the next question goes out.
      await page.unroute(ENDPOINT);
      await answerWith(page, stream('Now it works.'));
      await ask(page, 'Again?');
      await expect(replies(page).last()).toHaveText('Assistant: Now it works.');
    });
  }
});

test.describe('assistant widget: accessibility and layout', () => {
  test('open with a rich reply, it passes axe and fits the screen in both themes at desktop and phone widths', async ({ page }, testInfo) => {
    // Eight loads of the landing page, each with a streamed reply, and four axe scans: more than
    // the default 30 s on a busy 2-core machine (it ran out on the last, dark 390 px, shot).
    test.setTimeout(120_000);
    await answerWith(
      page,
      stream('Here is a **summary**:\n\n| Step | Where |\n| --- | --- |\n| Create | [Dashboard](/dashboard) |\n\n- [x] Sign in\n- [ ] Fund an agent\n\nSee [the docs](/docs)[^1].\n\n[^1]: Also on [x402.org](https://x402.org).'),
    );
    const openWithReply = async () => {
      await gotoHydrated(page, '/');
      await open(page);
      await ask(page, 'Summarise, please\nin a table');
      await expect(replies(page)).toHaveCount(2);
      await expectIdle(page);
    };
    await gotoHydrated(page, '/');
    await auditPage(page, testInfo, 'assistant-open', openWithReply);

    // Full-page shots stretch the fixed panel over the whole page; these show the window.
    for (const theme of THEMES) {
      for (const width of WIDTHS) {
        await page.setViewportSize(width > 600 ? DESKTOP : PHONE);
        await openInTheme(page, theme, openWithReply);
        await page.screenshot({ path: testInfo.outputPath(`assistant-window-${theme}-${width}.png`), animations: 'disabled' });
        await panel(page).getByRole('button', { name: 'Minimise' }).click();
        await page.screenshot({ path: testInfo.outputPath(`assistant-minimised-${theme}-${width}.png`), animations: 'disabled' });
        await panel(page).getByRole('button', { name: 'Close' }).click();
        await page.screenshot({ path: testInfo.outputPath(`assistant-closed-${theme}-${width}.png`), animations: 'disabled' });
      }
    }
  });
});

test.describe('assistant widget: the real endpoint', () => {
  test('answers how to fund an agent with a link into the docs', async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(DESKTOP);
    await gotoHydrated(page, '/');
    await open(page);
    await ask(page, 'How do I fund an agent?');
    await expect(replies(page)).toHaveCount(2, { timeout: 60_000 });
    await expect(input(page)).toBeEnabled({ timeout: 60_000 });
    const reply = replies(page).last();
    await expect(reply).not.toHaveText(`Assistant: ${ASSISTANT_ERROR_MESSAGE}`);
    await expect(reply).toContainText(/fund/i);
    const docsLinks = reply.locator('a[href^="/docs"]');
    expect(await docsLinks.count(), await reply.innerHTML()).toBeGreaterThan(0);
  });
});
