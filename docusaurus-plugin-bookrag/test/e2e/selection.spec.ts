/** Select-to-ask: a selection in the page offers "Ask about this"; the question is answered
 * from the selection alone, which the chat shows quoted. */
import {env, expect, test} from './fixtures';

const STOP_WORDS = new Set(['the', 'and', 'that', 'this', 'with', 'from', 'into', 'than', 'then', 'for', 'are', 'was', 'its', 'your', 'you']);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9_-]{3,}/g) ?? []).filter((w) => !STOP_WORDS.has(w));
}

test('selected text → Ask about this → an answer from the selection alone, quoted in the chat', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/ros2/ros2-nodes-and-topics`);
  const paragraph = page.locator('article p', {hasText: 'Quality of Service'}).first();
  await paragraph.scrollIntoViewIfNeeded();
  await paragraph.click({clickCount: 3}); // a reader's triple click selects the paragraph
  const selected = (await page.evaluate(() => window.getSelection()?.toString() ?? '')).trim();
  expect(selected.length).toBeGreaterThan(40);

  const ask = page.getByTestId('bookrag-ask-selection');
  await expect(ask).toBeVisible();
  const box = await ask.boundingBox();
  const paragraphBox = await paragraph.boundingBox();
  expect(box!.y, 'the button sits next to the selection').toBeGreaterThan(paragraphBox!.y);
  expect(box!.y).toBeLessThan(paragraphBox!.y + paragraphBox!.height + 60);
  await ask.click();

  await expect(chat.panel).toBeVisible();
  await expect(page.getByTestId('bookrag-selection')).toHaveText(selected);
  await expect(chat.input).toBeFocused();
  await chat.input.fill('What does this say about delivering messages?');
  await page.getByTestId('bookrag-send').click();
  const answer = chat.lastAnswer();
  await expect(answer).toHaveAttribute('data-status', 'done', {timeout: 30_000});

  expect(chat.turns.at(-1)!.input.selected_text).toBe(selected);
  await expect(page.getByTestId('bookrag-quote').last()).toHaveText(selected);
  const answerText = (await answer.getByTestId('bookrag-answer-text').textContent()) ?? '';
  const allowed = new Set([...words(selected), ...words('What does this say about delivering messages?')]);
  const foreign = words(answerText.replace(/\[\d+\]/g, '')).filter((w) => !allowed.has(w));
  expect(foreign, `answer words not in the selection: ${answerText}`).toEqual([]);
  await expect(page.getByTestId('bookrag-ask-selection')).toHaveCount(0);
});

test('selecting text in the chat itself or outside the book offers nothing', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/intro`);
  await page.locator('nav.navbar').first().click({clickCount: 3});
  await page.waitForTimeout(400);
  await expect(page.getByTestId('bookrag-ask-selection')).toHaveCount(0);
  await chat.open();
  await page.locator('.bookrag-welcome p').first().click({clickCount: 3});
  await page.waitForTimeout(400);
  await expect(page.getByTestId('bookrag-ask-selection')).toHaveCount(0);
});

test('with text selected, the keyboard shortcut opens the chat with the selection attached', async ({page, chat}) => {
  await page.goto(`${env.site}/docs/ros2/ros2-nodes-and-topics`);
  const paragraph = page.locator('article p', {hasText: 'Quality of Service'}).first();
  await paragraph.click({clickCount: 3});
  const selected = (await page.evaluate(() => window.getSelection()?.toString() ?? '')).trim();
  await page.keyboard.press('Control+/');
  await expect(chat.panel).toBeVisible();
  await expect(page.getByTestId('bookrag-selection')).toHaveText(selected);
  await page.keyboard.press('Enter'); // no question typed: the default one, about the selection
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'done');
  expect(chat.turns.at(-1)!.input).toMatchObject({question: 'Explain this passage.', selected_text: selected});
});
