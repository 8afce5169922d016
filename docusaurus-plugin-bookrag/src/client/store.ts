/**
 * The conversation: its session, its messages, the answer streaming now. One store per API URL,
 * created when the panel first loads and kept for the page's life (the panel may close and the
 * reader may navigate while an answer streams). Persisted in localStorage, so a reload resumes
 * the same session; React reads it through `useSyncExternalStore`.
 */
import {ChatError, sendFeedback, streamChat, type ChatInput, type Closing, type ErrorKind} from './api';
import type {Source} from './urls';

export interface UserMessage {
  id: string;
  role: 'user';
  text: string;
  /** The page text the question is about (answered from it alone). */
  selection?: string;
  /** Title of the page the reader asked from. */
  page?: string;
}

export interface MessageError {
  kind: ErrorKind;
  message: string;
  /** When a retry may succeed (ms since the epoch), for rate limits and outages. */
  retryAt?: number;
}

export type AnswerStatus = 'streaming' | 'done' | 'stopped' | 'error';

export interface AssistantMessage {
  id: string;
  role: 'assistant';
  /** The user message this answers. */
  replyTo: string;
  text: string;
  status: AnswerStatus;
  sources: Source[];
  messageId?: number;
  refused?: boolean;
  extractive?: boolean;
  degraded?: boolean;
  sessionExpired?: boolean;
  /** The stored session was gone on the server, so this turn started a new one. */
  sessionRestarted?: boolean;
  error?: MessageError;
  feedback?: 1 | -1;
  feedbackFailed?: boolean;
}

export type Message = UserMessage | AssistantMessage;

export interface ChatState {
  sessionId?: string;
  sessionToken?: string;
  messages: Message[];
  /** An answer is streaming. */
  busy: boolean;
}

export interface StoreOptions {
  apiUrl: string;
  filters?: Record<string, unknown>;
  /** The book asked (the server's default when absent); each book keeps its own conversation. */
  bookId?: string;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** Schedules a repaint-sized batch of streamed text (requestAnimationFrame in browsers). */
  schedule?: (flush: () => void) => void;
}

const KEPT_MESSAGES = 60;
let counter = 0;

function newId(): string {
  counter += 1;
  return `${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export function storageKey(apiUrl: string, bookId?: string): string {
  return `bookrag:v1:${apiUrl}${bookId ? `#${bookId}` : ''}`;
}

/** Read a saved conversation; an answer that was streaming when the page went away stopped. */
export function restore(raw: string | null): Omit<ChatState, 'busy'> {
  if (!raw) return {messages: []};
  try {
    const saved = JSON.parse(raw) as Partial<ChatState>;
    const messages = Array.isArray(saved.messages) ? saved.messages : [];
    return {
      sessionId: typeof saved.sessionId === 'string' ? saved.sessionId : undefined,
      sessionToken: typeof saved.sessionToken === 'string' ? saved.sessionToken : undefined,
      messages: messages.map((m) => (m.role === 'assistant' && m.status === 'streaming' ? {...m, status: 'stopped'} : m)),
    };
  } catch {
    return {messages: []};
  }
}

export class ChatStore {
  private state: ChatState;
  private listeners = new Set<() => void>();
  private controller: AbortController | null = null;
  private pending = '';
  private flushScheduled = false;

  constructor(private readonly options: StoreOptions) {
    const saved = restore(options.storage?.getItem(storageKey(options.apiUrl, options.bookId)) ?? null);
    this.state = {...saved, busy: false};
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): ChatState => this.state;

  private set(next: Partial<ChatState>, persist = true): void {
    this.state = {...this.state, ...next};
    if (persist) this.save();
    for (const listener of this.listeners) listener();
  }

  private save(): void {
    const {sessionId, sessionToken, messages} = this.state;
    try {
      this.options.storage?.setItem(
        storageKey(this.options.apiUrl, this.options.bookId),
        JSON.stringify({sessionId, sessionToken, messages: messages.slice(-KEPT_MESSAGES)}),
      );
    } catch {
      // storage full or forbidden: the conversation still works for this page's life
    }
  }

  private updateAnswer(id: string, change: Partial<AssistantMessage>, persist = true): void {
    this.set(
      {messages: this.state.messages.map((m) => (m.id === id && m.role === 'assistant' ? {...m, ...change} : m))},
      persist,
    );
  }

  private answer(id: string): AssistantMessage | undefined {
    const found = this.state.messages.find((m) => m.id === id);
    return found?.role === 'assistant' ? found : undefined;
  }

  /** Ask a question (about `selection` alone when given) from the page titled `page`. */
  ask(question: string, selection?: string, page?: string): void {
    if (this.state.busy) return;
    const user: UserMessage = {id: newId(), role: 'user', text: question, ...(selection ? {selection} : {}), ...(page ? {page} : {})};
    const answer: AssistantMessage = {id: newId(), role: 'assistant', replyTo: user.id, text: '', status: 'streaming', sources: []};
    this.set({messages: [...this.state.messages, user, answer]});
    void this.run(answer.id, user);
  }

  /** Ask a failed question again, in place. */
  retry(answerId: string): void {
    const answer = this.answer(answerId);
    const user = this.state.messages.find((m) => m.id === answer?.replyTo);
    if (!answer || !user || user.role !== 'user' || this.state.busy) return;
    this.updateAnswer(answerId, {text: '', status: 'streaming', sources: [], error: undefined});
    void this.run(answerId, user);
  }

  /** Record that a question could not be sent at all (e.g. it is too long). */
  reject(question: string, error: MessageError, selection?: string): void {
    const user: UserMessage = {id: newId(), role: 'user', text: question, ...(selection ? {selection} : {})};
    const answer: AssistantMessage = {id: newId(), role: 'assistant', replyTo: user.id, text: '', status: 'error', sources: [], error};
    this.set({messages: [...this.state.messages, user, answer]});
  }

  private flushText(answerId: string): void {
    this.flushScheduled = false;
    if (!this.pending) return;
    const answer = this.answer(answerId);
    const text = this.pending;
    this.pending = '';
    if (answer) this.updateAnswer(answerId, {text: answer.text + text}, false);
  }

  private async run(answerId: string, user: UserMessage, restarted = false): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.set({busy: true}, false);
    const {sessionId, sessionToken} = this.state;
    const input: ChatInput = {question: user.text};
    if (sessionId) input.session_id = sessionId;
    if (user.selection) input.selected_text = user.selection;
    if (this.options.filters) input.filters = this.options.filters;
    if (user.page) input.page_title = user.page;
    if (this.options.bookId) input.book_id = this.options.bookId;
    const schedule = this.options.schedule ?? ((flush: () => void) => flush());
    let closing: Closing | null = null;
    try {
      await streamChat(this.options.apiUrl, input, sessionToken, controller.signal, {
        onText: (piece) => {
          this.pending += piece;
          if (!this.flushScheduled) {
            this.flushScheduled = true;
            schedule(() => this.flushText(answerId));
          }
        },
        onClosing: (chunk) => {
          closing = chunk;
        },
      });
      this.flushText(answerId);
      const done = closing as Closing | null;
      const session: Partial<ChatState> = {};
      if (done?.session_id && done.session_id !== this.state.sessionId) {
        session.sessionId = done.session_id;
        session.sessionToken = done.session_token;
      } else if (done?.session_token) {
        session.sessionToken = done.session_token;
      }
      this.set(session, false);
      this.updateAnswer(answerId, {
        status: 'done',
        sources: done?.sources ?? [],
        messageId: done?.message_id,
        refused: done?.refused,
        extractive: done?.extractive,
        degraded: done?.degraded,
        sessionExpired: done?.session_expired,
        ...(restarted ? {sessionRestarted: true} : {}),
      });
    } catch (error) {
      this.flushText(answerId);
      if (controller.signal.aborted) {
        this.updateAnswer(answerId, {status: 'stopped'});
      } else if (error instanceof ChatError && error.kind === 'unknown_session' && !restarted) {
        // The server no longer knows the stored session (or its token): start a new one.
        this.set({sessionId: undefined, sessionToken: undefined}, false);
        this.controller = null;
        await this.run(answerId, user, true);
        return;
      } else {
        const chatError = error instanceof ChatError ? error : new ChatError('server', String(error));
        const retryAt = chatError.retryAfter !== undefined ? Date.now() + chatError.retryAfter * 1000 : undefined;
        this.updateAnswer(answerId, {status: 'error', error: {kind: chatError.kind, message: chatError.message, retryAt}});
      }
    } finally {
      if (this.controller === controller) {
        this.controller = null;
        this.set({busy: false});
      }
    }
  }

  /** Stop the streaming answer (what arrived stays, marked incomplete). */
  stop(): void {
    this.controller?.abort();
  }

  /** Forget the conversation and start a new session with the next question. */
  newChat(): void {
    this.stop();
    this.pending = '';
    this.set({sessionId: undefined, sessionToken: undefined, messages: [], busy: false});
  }

  /** Rate an answer; a second vote replaces the first. */
  async rate(answerId: string, score: 1 | -1): Promise<void> {
    const answer = this.answer(answerId);
    const {sessionId, sessionToken} = this.state;
    if (!answer?.messageId || !sessionId) return;
    this.updateAnswer(answerId, {feedback: score, feedbackFailed: false});
    try {
      await sendFeedback(this.options.apiUrl, sessionId, sessionToken, answer.messageId, score, this.options.bookId);
    } catch {
      this.updateAnswer(answerId, {feedback: answer.feedback, feedbackFailed: true});
    }
  }
}

const stores = new Map<string, ChatStore>();

/** The page's one store for `apiUrl` and book. */
export function getStore(options: StoreOptions): ChatStore {
  const key = storageKey(options.apiUrl, options.bookId);
  let store = stores.get(key);
  if (!store) {
    store = new ChatStore(options);
    stores.set(key, store);
  }
  return store;
}
