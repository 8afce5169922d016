/** What every browser test uses: the servers' addresses, the chat as a reader drives it,
 * the requests it sent, Postgres, and a switch that points the widget at the stub-LLM server. */
import {test as base, expect, type Page, type Locator} from '@playwright/test';
import pg from 'pg';
import type {E2eEnv} from './harness/global-setup';

export {expect};

export const env = JSON.parse(process.env.BOOKRAG_E2E ?? '{}') as E2eEnv;

export interface SentTurn {
  input: {question: string; session_id?: string; selected_text?: string; page_title?: string};
  authorization?: string;
}

export class Chat {
  readonly turns: SentTurn[] = [];

  constructor(readonly page: Page) {
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/chat/stream')) {
        this.turns.push({...(request.postDataJSON() as {input: SentTurn['input']}), authorization: request.headers().authorization});
      }
    });
  }

  get panel(): Locator {
    return this.page.getByTestId('bookrag-panel');
  }

  get input(): Locator {
    return this.page.getByTestId('bookrag-input');
  }

  lastAnswer(): Locator {
    return this.page.getByTestId('bookrag-answer').last();
  }

  async open() {
    await this.page.getByTestId('bookrag-open').click();
    await expect(this.panel).toBeVisible();
  }

  async ask(question: string) {
    await this.input.fill(question);
    await this.page.getByTestId('bookrag-send').click();
  }

  /** Ask and wait until the answer has finished (whatever its outcome). */
  async askAndWait(question: string, timeout = 30_000): Promise<Locator> {
    const before = await this.page.getByTestId('bookrag-answer').count();
    await this.ask(question);
    const answer = this.page.getByTestId('bookrag-answer').nth(before);
    await expect(answer).toHaveAttribute('data-status', /^(done|error|stopped)$/, {timeout});
    return answer;
  }

  /** The conversation the widget keeps in localStorage. */
  async stored(): Promise<{sessionId?: string; sessionToken?: string; messages: unknown[]}> {
    return this.page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{"messages": []}'), `bookrag:v1:${env.api}`);
  }
}

/** Point the widget's API calls at the server whose LLM is the stub, and set the stub's mode. */
export async function useLlmServer(page: Page, mode: {mode?: 'ok' | 'down'; interval?: number; answer?: string} = {}) {
  await setStub({mode: 'ok', interval: 120, ...mode});
  await page.route(`${env.api}/**`, (route) => route.continue({url: route.request().url().replace(env.api, env.llmApi)}));
}

export async function setStub(mode: {mode?: 'ok' | 'down'; interval?: number; answer?: string}) {
  const response = await fetch(`${env.stub}/__mode`, {method: 'POST', body: JSON.stringify(mode)});
  expect(response.ok).toBe(true);
}

export async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({connectionString: env.databaseUrl});
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export const test = base.extend<{chat: Chat; pageErrors: string[]}>({
  pageErrors: async ({page}, use) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Console errors too (React's hydration errors among them); failed requests are some tests'
    // subject (refused connections, 429s) and are checked by those tests.
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource|net::ERR_/.test(message.text())) errors.push(`console: ${message.text()}`);
    });
    page.on('dialog', (dialog) => {
      errors.push(`dialog opened: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await use(errors);
    expect(errors, 'no script errors or dialogs in the page').toEqual([]);
  },
  chat: async ({page, pageErrors: _}, use) => {
    await use(new Chat(page));
  },
});

export const QOS_QUESTION = 'Which QoS setting makes DDS retransmit lost messages?';
