/**
 * The conversation: its session, its messages, the answer streaming now. One store per API URL,
 * created when the panel first loads and kept for the page's life (the panel may close and the
 * reader may navigate while an answer streams). Persisted in localStorage, so a reload resumes
 * the same session; React reads it through `useSyncExternalStore`.
 */
import { ChatError, sendFeedback, streamChat } from './api';
const KEPT_MESSAGES = 60;
let counter = 0;
function newId() {
    counter += 1;
    return `${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}
export function storageKey(apiUrl, bookId) {
    return `bookrag:v1:${apiUrl}${bookId ? `#${bookId}` : ''}`;
}
/** Read a saved conversation; an answer that was streaming when the page went away stopped. */
export function restore(raw) {
    if (!raw)
        return { messages: [] };
    try {
        const saved = JSON.parse(raw);
        const messages = Array.isArray(saved.messages) ? saved.messages : [];
        return {
            sessionId: typeof saved.sessionId === 'string' ? saved.sessionId : undefined,
            sessionToken: typeof saved.sessionToken === 'string' ? saved.sessionToken : undefined,
            messages: messages.map((m) => (m.role === 'assistant' && m.status === 'streaming' ? { ...m, status: 'stopped' } : m)),
        };
    }
    catch {
        return { messages: [] };
    }
}
export class ChatStore {
    constructor(options) {
        this.options = options;
        this.listeners = new Set();
        this.controller = null;
        this.pending = '';
        this.flushScheduled = false;
        this.subscribe = (listener) => {
            this.listeners.add(listener);
            return () => this.listeners.delete(listener);
        };
        this.getState = () => this.state;
        const saved = restore(options.storage?.getItem(storageKey(options.apiUrl, options.bookId)) ?? null);
        this.state = { ...saved, busy: false };
    }
    set(next, persist = true) {
        this.state = { ...this.state, ...next };
        if (persist)
            this.save();
        for (const listener of this.listeners)
            listener();
    }
    save() {
        const { sessionId, sessionToken, messages } = this.state;
        try {
            this.options.storage?.setItem(storageKey(this.options.apiUrl, this.options.bookId), JSON.stringify({ sessionId, sessionToken, messages: messages.slice(-KEPT_MESSAGES) }));
        }
        catch {
            // storage full or forbidden: the conversation still works for this page's life
        }
    }
    updateAnswer(id, change, persist = true) {
        this.set({ messages: this.state.messages.map((m) => (m.id === id && m.role === 'assistant' ? { ...m, ...change } : m)) }, persist);
    }
    answer(id) {
        const found = this.state.messages.find((m) => m.id === id);
        return found?.role === 'assistant' ? found : undefined;
    }
    /** Ask a question (about `selection` alone when given) from the page titled `page`. */
    ask(question, selection, page) {
        if (this.state.busy)
            return;
        const user = { id: newId(), role: 'user', text: question, ...(selection ? { selection } : {}), ...(page ? { page } : {}) };
        const answer = { id: newId(), role: 'assistant', replyTo: user.id, text: '', status: 'streaming', sources: [] };
        this.set({ messages: [...this.state.messages, user, answer] });
        void this.run(answer.id, user);
    }
    /** Ask a failed question again, in place. */
    retry(answerId) {
        const answer = this.answer(answerId);
        const user = this.state.messages.find((m) => m.id === answer?.replyTo);
        if (!answer || !user || user.role !== 'user' || this.state.busy)
            return;
        this.updateAnswer(answerId, { text: '', status: 'streaming', sources: [], error: undefined });
        void this.run(answerId, user);
    }
    /** Record that a question could not be sent at all (e.g. it is too long). */
    reject(question, error, selection) {
        const user = { id: newId(), role: 'user', text: question, ...(selection ? { selection } : {}) };
        const answer = { id: newId(), role: 'assistant', replyTo: user.id, text: '', status: 'error', sources: [], error };
        this.set({ messages: [...this.state.messages, user, answer] });
    }
    flushText(answerId) {
        this.flushScheduled = false;
        if (!this.pending)
            return;
        const answer = this.answer(answerId);
        const text = this.pending;
        this.pending = '';
        if (answer)
            this.updateAnswer(answerId, { text: answer.text + text }, false);
    }
    async run(answerId, user, restarted = false) {
        const controller = new AbortController();
        this.controller = controller;
        this.set({ busy: true }, false);
        const { sessionId, sessionToken } = this.state;
        const input = { question: user.text };
        if (sessionId)
            input.session_id = sessionId;
        if (user.selection)
            input.selected_text = user.selection;
        if (this.options.filters)
            input.filters = this.options.filters;
        if (user.page)
            input.page_title = user.page;
        if (this.options.bookId)
            input.book_id = this.options.bookId;
        const schedule = this.options.schedule ?? ((flush) => flush());
        let closing = null;
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
            const done = closing;
            const session = {};
            if (done?.session_id && done.session_id !== this.state.sessionId) {
                session.sessionId = done.session_id;
                session.sessionToken = done.session_token;
            }
            else if (done?.session_token) {
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
                ...(restarted ? { sessionRestarted: true } : {}),
            });
        }
        catch (error) {
            this.flushText(answerId);
            if (controller.signal.aborted) {
                this.updateAnswer(answerId, { status: 'stopped' });
            }
            else if (error instanceof ChatError && error.kind === 'unknown_session' && !restarted) {
                // The server no longer knows the stored session (or its token): start a new one.
                this.set({ sessionId: undefined, sessionToken: undefined }, false);
                this.controller = null;
                await this.run(answerId, user, true);
                return;
            }
            else {
                const chatError = error instanceof ChatError ? error : new ChatError('server', String(error));
                const retryAt = chatError.retryAfter !== undefined ? Date.now() + chatError.retryAfter * 1000 : undefined;
                this.updateAnswer(answerId, { status: 'error', error: { kind: chatError.kind, message: chatError.message, retryAt } });
            }
        }
        finally {
            if (this.controller === controller) {
                this.controller = null;
                this.set({ busy: false });
            }
        }
    }
    /** Stop the streaming answer (what arrived stays, marked incomplete). */
    stop() {
        this.controller?.abort();
    }
    /** Forget the conversation and start a new session with the next question. */
    newChat() {
        this.stop();
        this.pending = '';
        this.set({ sessionId: undefined, sessionToken: undefined, messages: [], busy: false });
    }
    /** Rate an answer; a second vote replaces the first. */
    async rate(answerId, score) {
        const answer = this.answer(answerId);
        const { sessionId, sessionToken } = this.state;
        if (!answer?.messageId || !sessionId)
            return;
        this.updateAnswer(answerId, { feedback: score, feedbackFailed: false });
        try {
            await sendFeedback(this.options.apiUrl, sessionId, sessionToken, answer.messageId, score, this.options.bookId);
        }
        catch {
            this.updateAnswer(answerId, { feedback: answer.feedback, feedbackFailed: true });
        }
    }
}
const stores = new Map();
/** The page's one store for `apiUrl` and book. */
export function getStore(options) {
    const key = storageKey(options.apiUrl, options.bookId);
    let store = stores.get(key);
    if (!store) {
        store = new ChatStore(options);
        stores.set(key, store);
    }
    return store;
}
