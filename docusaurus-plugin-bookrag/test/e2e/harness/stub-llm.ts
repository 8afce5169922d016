/**
 * A loopback OpenAI-compatible chat server for the cases that need a language model: it
 * answers the graph's inner calls plausibly (condense → the question, grade/rerank → "1, 2, 3")
 * and streams the answer a word at a time, slowly enough to watch it arrive and to stop it.
 * `POST /__mode` switches it between `ok` and `down` (every call fails: a degraded answer).
 */
import http from 'node:http';

export interface StubMode {
  mode: 'ok' | 'down';
  /** Milliseconds between streamed words. */
  interval: number;
  answer: string;
}

export const DEFAULT_ANSWER =
  'According to the book, the RELIABLE reliability policy makes DDS retransmit lost messages [1]. ' +
  'BEST_EFFORT drops them instead, which suits sensor streams where a fresh sample beats a late one [1]. ' +
  'Durability and history decide what late subscribers receive and how many messages wait in the queue [1].';

type ChatMessage = {role: string; content: unknown};

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as {text?: string}).text ?? '').join('');
  return '';
}

function reply(messages: ChatMessage[]): string {
  const system = text(messages.find((m) => m.role === 'system')?.content);
  const lastUser = text([...messages].reverse().find((m) => m.role === 'user')?.content).trim();
  if (/numbered excerpts/i.test(system)) return '1, 2, 3';
  if (/Rewrite|search query/i.test(system)) return lastUser.split('\n').pop() ?? lastUser;
  return 'ok';
}

export function startStubLlm(port: number): Promise<{server: http.Server; state: StubMode}> {
  const state: StubMode = {mode: 'ok', interval: 120, answer: DEFAULT_ANSWER};
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/__mode') {
        Object.assign(state, JSON.parse(body || '{}'));
        response.writeHead(200, {'Content-Type': 'application/json'}).end(JSON.stringify(state));
        return;
      }
      if (state.mode === 'down') {
        response.writeHead(500, {'Content-Type': 'application/json'}).end(JSON.stringify({error: {message: 'stub is down', type: 'server_error'}}));
        return;
      }
      const parsed = JSON.parse(body || '{}') as {stream?: boolean; model?: string; messages?: ChatMessage[]};
      const model = parsed.model ?? 'stub';
      if (!parsed.stream) {
        const content = reply(parsed.messages ?? []);
        response.writeHead(200, {'Content-Type': 'application/json'}).end(
          JSON.stringify({
            id: 'c1', object: 'chat.completion', created: 0, model,
            choices: [{index: 0, finish_reason: 'stop', message: {role: 'assistant', content}}],
            usage: {prompt_tokens: 1, completion_tokens: 1, total_tokens: 2},
          }),
        );
        return;
      }
      response.writeHead(200, {'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache'});
      const words = state.answer.split(/(?<= )/);
      let index = 0;
      let closed = false;
      response.on('close', () => (closed = true));
      const send = () => {
        if (closed) return;
        if (index >= words.length) {
          response.end('data: [DONE]\n\n');
          return;
        }
        const chunk = {id: 'c2', object: 'chat.completion.chunk', created: 0, model, choices: [{index: 0, delta: {content: words[index]}, finish_reason: null}]};
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        index += 1;
        setTimeout(send, state.interval);
      };
      send();
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({server, state})));
}
