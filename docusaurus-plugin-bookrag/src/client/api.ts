/**
 * The bookrag server's HTTP contract, as the widget uses it.
 *
 * `/chat/stream` is LangServe's POST stream: server-sent events parsed by eventsource-parser
 * over `fetch` (EventSource cannot POST or send headers). `data` events carry
 * `{"answer": piece}`, then one closing chunk with the sources and the session; `end` ends it;
 * `error` is a failure mid-stream. Errors before the stream are JSON `{"error": {code, message}}`.
 */
import {EventSourceParserStream} from 'eventsource-parser/stream';
import type {Source} from './urls';

export type ErrorKind =
  | 'unreachable'
  | 'rate_limited'
  | 'too_long'
  | 'invalid'
  | 'unavailable'
  | 'not_ingested'
  | 'unknown_session'
  | 'interrupted'
  | 'server';

/** What went wrong, in terms the panel can explain. */
export class ChatError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfter?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

/** The last chunk of a turn: sources and where the turn was stored. */
export interface Closing {
  sources: Source[];
  session_id?: string;
  session_token?: string;
  message_id?: number;
  refused?: boolean;
  session_expired?: boolean;
  extractive?: boolean;
  degraded?: boolean;
}

export interface ChatInput {
  question: string;
  session_id?: string;
  selected_text?: string;
  filters?: Record<string, unknown>;
  page_title?: string;
  book_id?: string;
}

export interface StreamHandlers {
  onText(piece: string): void;
  onClosing(closing: Closing): void;
}

/** `apiUrl` + `path`, with exactly one slash between them. */
export function endpoint(apiUrl: string, path: string): string {
  return `${apiUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Seconds to wait from a `Retry-After` header (seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const TOO_LONG = /too long|at most|longer than|exceed|characters/i;

/** The error a non-2xx answer means. */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null): ChatError {
  const error = (body as {error?: {code?: unknown; message?: unknown}} | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  const wait = parseRetryAfter(retryAfter);
  if (status === 429) return new ChatError('rate_limited', message, status, wait ?? 60, code);
  if (status === 413) return new ChatError('too_long', message, status, undefined, code);
  if (status === 404 && code === 'unknown_session') return new ChatError('unknown_session', message, status, undefined, code);
  if (status === 422 || status === 400) {
    return new ChatError(TOO_LONG.test(message) ? 'too_long' : 'invalid', message, status, undefined, code);
  }
  if (status === 503 && code === 'not_ingested') return new ChatError('not_ingested', message, status, wait, code);
  if (status === 503 || status === 502 || status === 504) return new ChatError('unavailable', message, status, wait, code);
  return new ChatError('server', message, status, wait, code);
}

async function failure(response: Response): Promise<ChatError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  return errorFromResponse(response.status, body, response.headers.get('Retry-After'));
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ChatError('unreachable', String((error as Error)?.message ?? error));
  }
}

function headers(token: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {'Content-Type': 'application/json', ...extra, ...(token ? {Authorization: `Bearer ${token}`} : {})};
}

/** Apply one parsed server-sent event of `/chat/stream`; true once the stream has ended. */
export function handleEvent(event: {event?: string; data: string}, handlers: StreamHandlers): boolean {
  const type = event.event ?? 'message';
  if (type === 'end') return true;
  if (type === 'error') {
    let detail: {status_code?: number; message?: string} = {};
    try {
      detail = JSON.parse(event.data);
    } catch {
      detail = {message: event.data};
    }
    throw new ChatError('interrupted', detail.message ?? 'the server failed while answering', detail.status_code);
  }
  if (type !== 'data') return false; // `metadata` (LangServe's run id) and anything newer
  const chunk = JSON.parse(event.data) as Partial<Closing> & {answer?: unknown};
  if (typeof chunk.answer === 'string' && chunk.answer) handlers.onText(chunk.answer);
  if (Array.isArray(chunk.sources) || typeof chunk.session_id === 'string' || typeof chunk.message_id === 'number') {
    handlers.onClosing({...chunk, sources: Array.isArray(chunk.sources) ? chunk.sources : []} as Closing);
  }
  return false;
}

/** Ask one question; resolves when the stream ends, rejects with `ChatError` (or an abort). */
export async function streamChat(
  apiUrl: string,
  input: ChatInput,
  token: string | undefined,
  signal: AbortSignal,
  handlers: StreamHandlers,
): Promise<void> {
  const response = await send(endpoint(apiUrl, 'chat/stream'), {
    method: 'POST',
    headers: headers(input.session_id ? token : undefined, {Accept: 'text/event-stream'}),
    body: JSON.stringify({input}),
    signal,
    cache: 'no-store',
  });
  if (!response.ok) throw await failure(response);
  if (!response.body) throw new ChatError('interrupted', 'the server sent no stream');
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  // LangServe's `end` event has no data line, and an event without data is never dispatched
  // (per the SSE standard), so the stream is complete when it closes after the closing chunk.
  let closed = false;
  const tracked: StreamHandlers = {
    onText: handlers.onText,
    onClosing: (closing) => {
      closed = true;
      handlers.onClosing(closing);
    },
  };
  try {
    for (;;) {
      let next: ReadableStreamReadResult<{event?: string; data: string}>;
      try {
        next = await reader.read();
      } catch (error) {
        if ((error as Error)?.name === 'AbortError' || signal.aborted) throw error;
        throw new ChatError('interrupted', 'the connection to the server was lost');
      }
      if (next.done) {
        if (closed) return;
        throw new ChatError('interrupted', 'the server closed the stream before the answer was complete');
      }
      if (handleEvent(next.value, tracked)) return;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Rate an answer (1 or -1); the session's token proves it is the reader's. */
export async function sendFeedback(
  apiUrl: string,
  sessionId: string,
  token: string | undefined,
  messageId: number,
  score: 1 | -1,
  bookId?: string,
): Promise<void> {
  const response = await send(endpoint(apiUrl, 'feedback'), {
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({session_id: sessionId, message_id: messageId, score, ...(bookId ? {book_id: bookId} : {})}),
  });
  if (!response.ok) throw await failure(response);
}
