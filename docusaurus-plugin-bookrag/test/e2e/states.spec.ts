/** Honest states: the server unreachable, a rate limit (with when to retry), a request too
 * long, a refusal, an answer without the language model, and a degraded one. */
import path from 'node:path';
import {BOOKRAG, REPO, start, waitFor} from './harness/global-setup';
import {env, expect, QOS_QUESTION, test, useLlmServer} from './fixtures';

test('the server being unreachable is said so, and Retry recovers', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  // Send the API calls to a loopback port where nothing listens: a real refused connection.
  const nowhere = `http://127.0.0.1:${Number(new URL(env.api).port) + 9}`;
  await page.route(`${env.api}/**`, (route) => route.continue({url: route.request().url().replace(env.api, nowhere)}));
  const answer = await chat.askAndWait(QOS_QUESTION);
  const error = answer.getByTestId('bookrag-error');
  await expect(error).toHaveAttribute('data-kind', 'unreachable');
  await expect(error).toContainText('Can’t reach the book tutor');
  await page.unroute(`${env.api}/**`);
  await error.getByRole('button', {name: 'Retry'}).click();
  await expect(answer).toHaveAttribute('data-status', 'done');
  await expect(answer.getByTestId('bookrag-citation').first()).toBeVisible();
});

test('a rate limit (429) says when the reader can ask again', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  let limited = null;
  for (let i = 0; i < 10 && !limited; i += 1) {
    const answer = await chat.askAndWait(`${QOS_QUESTION} (${i})`);
    if ((await answer.getAttribute('data-status')) === 'error') limited = answer;
  }
  expect(limited, 'the server limits a session to 6 turns a minute').not.toBeNull();
  const error = limited!.getByTestId('bookrag-error');
  await expect(error).toHaveAttribute('data-kind', 'rate_limited');
  const message = (await error.textContent()) ?? '';
  const seconds = Number(/ask again in (\d+) s/.exec(message)?.[1]);
  expect(seconds, message).toBeGreaterThan(0);
  await expect(error.getByRole('button', {name: 'Retry'})).toBeDisabled();
  await page.waitForTimeout(2200);
  const later = Number(/ask again in (\d+) s/.exec((await error.textContent()) ?? '')?.[1] ?? 0);
  expect(later, 'the wait counts down').toBeLessThan(seconds);
});

test('a question or selection that is too long is refused with a clear message', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const sent = chat.turns.length;
  await chat.ask('why '.repeat(600));
  const local = page.getByTestId('bookrag-error');
  await expect(local).toHaveAttribute('data-kind', 'too_long');
  await expect(local).toContainText('too long');
  expect(chat.turns.length, 'nothing sent').toBe(sent);
  await chat.input.fill('');
  await page.keyboard.press('Escape');

  // A selection over the server's limit: the server refuses it (422/413) and the panel says so.
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.id = 'huge';
    p.textContent = 'Humanoid robots balance with whole-body control. '.repeat(700);
    document.querySelector('article')!.appendChild(p);
  });
  await page.locator('#huge').click({clickCount: 3});
  await page.getByTestId('bookrag-ask-selection').click();
  await page.getByTestId('bookrag-send').click();
  const answer = chat.lastAnswer();
  await expect(answer).toHaveAttribute('data-status', 'error');
  await expect(answer.getByTestId('bookrag-error')).toHaveAttribute('data-kind', 'too_long');
  await expect(answer.getByTestId('bookrag-error')).toContainText('too long');
});

test('a refusal, an answer without the language model and a degraded answer look different', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const refused = await chat.askAndWait('How do I bake sourdough bread at home?');
  await expect(refused).toHaveAttribute('data-state', 'refused');
  await expect(refused.getByTestId('bookrag-refused')).toContainText('Not covered by the book');
  await expect(refused.getByTestId('bookrag-source')).toHaveCount(0);
  const style = (testId: string) =>
    page.getByTestId(testId).first().evaluate((e) => `${getComputedStyle(e).backgroundColor} ${getComputedStyle(e).borderLeftColor}`);
  const refusedStyle = await style('bookrag-refused');

  const extractive = await chat.askAndWait(QOS_QUESTION);
  await expect(extractive).toHaveAttribute('data-state', 'extractive');
  await expect(extractive.getByTestId('bookrag-extractive')).toContainText('without a language model');

  await page.getByTestId('bookrag-new-chat').click();
  await useLlmServer(page, {mode: 'down'});
  const degraded = await chat.askAndWait(QOS_QUESTION);
  await expect(degraded).toHaveAttribute('data-state', 'degraded');
  await expect(degraded.getByTestId('bookrag-degraded')).toContainText('language model failed');
  await expect(degraded.getByTestId('bookrag-citation').first()).toBeVisible();
  expect(await style('bookrag-degraded'), 'refusal and degraded badges are coloured differently').not.toBe(refusedStyle);
});

// Before anything is ingested, /chat/stream answers 503 `not_ingested`, and the panel says so.
test('a server with nothing ingested yet says so, not "the book does not cover this"', async ({page, chat}) => {
  const port = Number(new URL(env.api).port) + 8;
  const data = path.join(env.work, 'data-empty');
  const server = start(BOOKRAG, ['serve', '--host', '127.0.0.1', '--port', String(port)], REPO, {
    DATABASE_URL: env.databaseUrl,
    DATA_DIR: data,
    BOOK_ID: 'never-ingested',
    CORS_ORIGINS: JSON.stringify([env.site]),
  }, path.join(env.work, 'server-empty.log'));
  try {
    await waitFor(`http://127.0.0.1:${port}/health`, 'bookrag serve (empty)', server);
    await page.route(`${env.api}/**`, (route) => route.continue({url: route.request().url().replace(env.api, `http://127.0.0.1:${port}`)}));
    await page.goto(`${env.site}/docs/intro`);
    await chat.open();
    const answer = await chat.askAndWait(QOS_QUESTION);
    await expect(answer.getByTestId('bookrag-error')).toHaveAttribute('data-kind', 'not_ingested');
    await expect(answer.getByTestId('bookrag-error')).toContainText('has not been indexed yet');
  } finally {
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
  }
});
