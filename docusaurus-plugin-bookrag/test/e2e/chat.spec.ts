/** The reader's chat: opening and closing it, streamed answers, citations that open their
 * section in the site, sessions across navigation and reload, feedback, copy and stop. */
import {env, expect, query, QOS_QUESTION, test, useLlmServer} from './fixtures';

test('opens from the button or Ctrl+/ (not Ctrl+K), keeps focus inside, Esc closes it; the panel code loads on first open', async ({page, chat}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto(`${env.site}/docs/intro`);
  await page.waitForLoadState('networkidle');
  const beforeOpen = scripts.length;
  await expect(page.getByTestId('bookrag-open')).toBeVisible();

  await page.keyboard.press('Control+k');
  await expect(chat.panel).toBeHidden();
  await page.keyboard.press('Control+/');
  await expect(chat.panel).toBeVisible();
  expect(scripts.length, 'the panel chunk is fetched only when the chat opens').toBeGreaterThan(beforeOpen);
  await expect(chat.panel).toHaveAttribute('role', 'dialog');
  await expect(chat.panel).toHaveAttribute('aria-modal', 'true');
  await expect(page.getByRole('dialog', {name: 'Ask the book'})).toBeVisible();
  await expect(chat.panel.locator('[role=log]')).toHaveAttribute('aria-live', 'polite');
  await expect(chat.input).toBeFocused();

  for (let i = 0; i < 8; i += 1) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid=bookrag-panel]')))).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid=bookrag-panel]')))).toBe(true);

  await page.keyboard.press('Escape');
  await expect(chat.panel).toBeHidden();
  await expect(page.getByTestId('bookrag-open')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(chat.panel).toBeVisible();
});

test('an answer streams in a piece at a time, with numbered citations and a source list', async ({page, chat}) => {
  await useLlmServer(page, {interval: 150});
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  await chat.ask(QOS_QUESTION);
  const text = chat.lastAnswer().getByTestId('bookrag-answer-text');
  const seen: string[] = [];
  await expect(text).toBeVisible();
  // Status and text are read in one step: the closing event turns `[n]` into links as it ends the stream.
  const snapshot = () =>
    chat.lastAnswer().evaluate((answer) => ({
      status: answer.getAttribute('data-status'),
      text: answer.querySelector('[data-testid=bookrag-answer-text]')?.textContent ?? '',
    }));
  for (let now = await snapshot(); now.status === 'streaming'; now = await snapshot()) {
    if (now.text && now.text !== seen[seen.length - 1]) seen.push(now.text);
    await page.waitForTimeout(100);
  }
  expect(seen.length, `texts seen while streaming: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(4);
  for (const [i, later] of seen.slice(1).entries()) {
    expect(later.length, `shown text shrank from ${JSON.stringify(seen[i])} to ${JSON.stringify(later)}`).toBeGreaterThan(seen[i]!.length);
  }
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'done');
  await expect(chat.lastAnswer().getByTestId('bookrag-citation').first()).toBeVisible();
  await expect(chat.lastAnswer().getByTestId('bookrag-source').first()).toBeVisible();
  await expect(chat.lastAnswer()).toHaveAttribute('data-state', 'done');
});

test('a citation opens its exact section inside the site without a reload, though the site is not served from SITE_URL', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  expect(new URL(page.url()).origin).not.toBe(new URL(env.configuredSiteUrl).origin);
  await chat.open();
  const answer = await chat.askAndWait(QOS_QUESTION);
  const citation = answer.getByTestId('bookrag-citation').first();
  const href = await citation.getAttribute('href');
  expect(href).toMatch(/^\/docs\/[^#]+#.+/);
  const anchor = decodeURIComponent(href!.split('#')[1]!);
  await page.evaluate(() => ((window as unknown as {__noReload: number}).__noReload = 1));
  await citation.click();
  await page.waitForURL((url) => url.pathname === href!.split('#')[0] && url.hash === `#${anchor}`);
  expect(await page.evaluate(() => (window as unknown as {__noReload?: number}).__noReload), 'client-side navigation, no reload').toBe(1);
  const target = page.locator(`[id="${anchor}"]`);
  await expect(target).toHaveCount(1);
  await expect(target).toBeInViewport();
  await expect(chat.panel, 'the chat stays open on a wide screen').toBeVisible();

  const source = answer.getByTestId('bookrag-source').first();
  expect(await source.getAttribute('href')).toBe(href);
  await expect(source).not.toHaveAttribute('target', '_blank');
});

test('follow-ups stay in the session after navigating and after a reload; New chat starts a new one', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  await chat.askAndWait(QOS_QUESTION);
  const first = await chat.stored();
  expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  expect(first.sessionToken, 'the server returned a session token with the first turn').toBeTruthy();
  expect(chat.turns[0]!.input.session_id).toBeUndefined();

  await page.getByTestId('bookrag-citation').first().click();
  await page.waitForURL(/#/);
  await chat.askAndWait('How is it different for sensor data?');
  expect(chat.turns[1]!.input.session_id).toBe(first.sessionId);
  expect(chat.turns[1]!.authorization).toBe(`Bearer ${first.sessionToken}`);

  await page.reload();
  await expect(chat.panel, 'a chat open before the reload is open after it').toBeVisible();
  await expect(page.getByTestId('bookrag-answer')).toHaveCount(2);
  await chat.askAndWait('What does the durability policy keep?');
  expect(chat.turns[2]!.input.session_id).toBe(first.sessionId);
  const rows = await query<{role: string; status: string}>('SELECT role, status FROM messages WHERE session_id = $1 ORDER BY id', [first.sessionId]);
  expect(rows.map((r) => `${r.role}:${r.status}`)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant'].map((r) => `${r}:complete`));

  await page.getByTestId('bookrag-new-chat').click();
  await expect(page.getByTestId('bookrag-answer')).toHaveCount(0);
  await chat.askAndWait(QOS_QUESTION);
  expect(chat.turns[3]!.input.session_id).toBeUndefined();
  const second = await chat.stored();
  expect(second.sessionId).toBeTruthy();
  expect(second.sessionId).not.toBe(first.sessionId);
});

test('thumbs up and down reach Postgres', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const answer = await chat.askAndWait(QOS_QUESTION);
  const {sessionId} = await chat.stored();
  const [message] = await query<{id: string}>("SELECT id FROM messages WHERE session_id = $1 AND role = 'assistant'", [sessionId]);
  const feedback = () => query<{score: number}>('SELECT score FROM feedback WHERE message_id = $1', [message!.id]);
  await answer.getByTestId('bookrag-feedback-up').click();
  await expect(answer.getByTestId('bookrag-feedback-up')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await feedback()).map((r) => r.score)).toEqual([1]);
  await answer.getByTestId('bookrag-feedback-down').click();
  await expect.poll(async () => (await feedback()).map((r) => r.score)).toEqual([-1]);
  await expect(answer.getByText('Thanks for your feedback.')).toBeVisible();
});

test('copies an answer and a code block', async ({page, chat, context}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: env.site});
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const answer = await chat.askAndWait('How do I inspect a running system from the command line?');
  await answer.getByTestId('bookrag-copy').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('ros2 topic');
  expect(copied).toMatch(/\[\d+\]/);
  const code = answer.locator('pre code').first();
  await expect(code).toBeVisible();
  await answer.locator('pre').first().hover();
  await answer.getByRole('button', {name: /copy code/i}).first().click();
  const copiedCode = await page.evaluate(() => navigator.clipboard.readText());
  expect(copiedCode).toContain('ros2 topic list');
  expect(copiedCode).not.toMatch(/\[\d+\]/);
});

test('Stop aborts a streaming answer; nothing is stored as a complete answer', async ({page, chat}) => {
  await useLlmServer(page, {interval: 250});
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const question = `${QOS_QUESTION} (stop test ${Date.now()})`;
  await chat.ask(question);
  const text = chat.lastAnswer().getByTestId('bookrag-answer-text');
  await expect(text).toContainText('book');
  await page.getByTestId('bookrag-stop').click();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'stopped');
  await expect(chat.lastAnswer().getByText('Stopped: this answer is incomplete.')).toBeVisible();
  const shown = await text.textContent();
  await page.waitForTimeout(1500);
  expect(await text.textContent(), 'no more text after Stop').toBe(shown);
  await expect(page.getByTestId('bookrag-send')).toBeVisible();
  await expect
    .poll(async () =>
      (
        await query<{status: string; role: string}>(
          "SELECT m.role, m.status FROM messages m WHERE m.session_id = (SELECT session_id FROM messages WHERE content = $1 AND role = 'user' LIMIT 1) ORDER BY m.id",
          [question],
        )
      ).map((r) => `${r.role}:${r.status}`),
    )
    .toEqual(['user:failed', 'assistant:failed']);
});


test('a session whose token the server refuses is replaced by a new one, and the answer says so', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  await chat.askAndWait(QOS_QUESTION);
  const first = await chat.stored();
  await page.evaluate((key) => {
    const saved = JSON.parse(localStorage.getItem(key)!);
    localStorage.setItem(key, JSON.stringify({...saved, sessionToken: 'not-the-token'}));
  }, `bookrag:v1:${env.api}`);
  await page.reload();
  await expect(page.getByTestId('bookrag-answer')).toHaveCount(1);
  const answer = await chat.askAndWait('How is it different for sensor data?');
  await expect(answer).toHaveAttribute('data-status', 'done');
  await expect(answer.getByText('no longer on the server, so a new one was started')).toBeVisible();
  const [refused, retried] = chat.turns.slice(-2);
  expect(refused!.input.session_id).toBe(first.sessionId);
  expect(refused!.authorization).toBe('Bearer not-the-token');
  expect(retried!.input.session_id).toBeUndefined();
  const now = await chat.stored();
  expect(now.sessionId).not.toBe(first.sessionId);
  expect(now.sessionToken).not.toBe('not-the-token');
});

test('served by bookrag itself (one address for the book and the API), citations still open in the site', async ({page, chat}) => {
  await page.goto(`${env.api}/docs/intro`);
  await chat.open();
  const answer = await chat.askAndWait(QOS_QUESTION);
  await expect(answer).toHaveAttribute('data-status', 'done');
  const citation = answer.getByTestId('bookrag-citation').first();
  const href = (await citation.getAttribute('href'))!;
  await page.evaluate(() => ((window as unknown as {__noReload: number}).__noReload = 1));
  await citation.click();
  await page.waitForURL((url) => url.origin === env.api && url.hash === `#${href.split('#')[1]}`);
  expect(await page.evaluate(() => (window as unknown as {__noReload?: number}).__noReload)).toBe(1);
  await expect(page.locator(`[id="${decodeURIComponent(href.split('#')[1]!)}"]`)).toBeInViewport();
});

test('a question about "this lesson" is answered from the page the reader is on', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/vla/voice-to-action`);
  await chat.open();
  const answer = await chat.askAndWait('I finished this lesson. What should I take away from it?');
  await expect(answer).toHaveAttribute('data-status', 'done');
  expect(chat.turns[0]!.input.page_title).toBe('Voice to Action: Speech, Planning and ROS 2');
  await expect(answer.getByTestId('bookrag-source').first()).toContainText('Key Takeaways');
  await expect(answer.getByTestId('bookrag-answer-text')).toContainText('Whisper transcribes 16 kHz audio');
});
