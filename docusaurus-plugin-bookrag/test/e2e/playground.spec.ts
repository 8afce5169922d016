/** The LangServe playground, as a newcomer opens it: its form is drawn, and a question sent
 * from it comes back answered from the book. */
import {test, expect} from '@playwright/test';
import {env} from './fixtures';

test('the playground draws its chat form and answers a question', async ({page}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${env.api}/chat/playground/`);
  const question = page.locator('[id="#/properties/question-input"]');
  await expect(question).toBeVisible();
  await question.fill('Which QoS policy makes DDS retransmit lost messages?');
  await page.getByRole('button', {name: 'Start'}).click();
  await expect(page.getByText('RELIABLE').first()).toBeVisible({timeout: 30_000});
  expect(errors).toEqual([]);
});
