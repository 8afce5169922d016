/** The panel follows the site's theme and fills a phone's screen. Screenshots are saved under
 * test-results/screenshots/ (git-ignored) for a person to look at. */
import path from 'node:path';
import type {Page} from '@playwright/test';
import {env, expect, QOS_QUESTION, test} from './fixtures';

const SHOTS = path.resolve(__dirname, '../../test-results/screenshots');

async function panelColours(page: Page) {
  return page.getByTestId('bookrag-panel').evaluate((panel) => ({
    background: getComputedStyle(panel).backgroundColor,
    text: getComputedStyle(panel).color,
    primary: getComputedStyle(document.documentElement).getPropertyValue('--ifm-color-primary').trim(),
    citation: getComputedStyle(panel.querySelector('.bookrag-cite a') ?? panel).color,
  }));
}

test('light and dark themes: the panel takes the site colours', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/ros2/ros2-nodes-and-topics`);
  await chat.open();
  await chat.askAndWait(QOS_QUESTION);
  await chat.askAndWait('How do I inspect a running system from the command line?');
  const light = await panelColours(page);
  await page.screenshot({path: path.join(SHOTS, 'light-desktop.png')});

  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(chat.panel).toBeVisible();
  await expect(page.getByTestId('bookrag-answer')).toHaveCount(2);
  const dark = await panelColours(page);
  await page.screenshot({path: path.join(SHOTS, 'dark-desktop.png')});
  expect(dark.background).not.toBe(light.background);
  expect(dark.text).not.toBe(light.text);

  // The site's own toggle switches the open panel too.
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  expect((await panelColours(page)).background).toBe(light.background);
});

test('on a phone the panel is the whole screen, and a citation closes it to show the section', async ({browser}) => {
  const context = await browser.newContext({viewport: {width: 390, height: 844}, hasTouch: true, deviceScaleFactor: 2});
  const page = await context.newPage();
  await page.goto(`${env.site}/docs/intro`);
  await page.getByTestId('bookrag-open').click();
  const panel = page.getByTestId('bookrag-panel');
  await expect(panel).toBeVisible();
  expect(await panel.boundingBox()).toEqual({x: 0, y: 0, width: 390, height: 844});
  await page.getByTestId('bookrag-input').fill(QOS_QUESTION);
  await page.getByTestId('bookrag-send').click();
  await expect(page.getByTestId('bookrag-answer').last()).toHaveAttribute('data-status', 'done');
  await page.screenshot({path: path.join(SHOTS, 'phone.png')});
  await page.getByTestId('bookrag-citation').first().click();
  await expect(panel).toBeHidden();
  await page.waitForURL(/#qos$/);
  await expect(page.locator('[id="qos"]')).toBeInViewport();
  await page.screenshot({path: path.join(SHOTS, 'phone-after-citation.png')});
  await context.close();
});
